import { describe, expect, it } from 'vitest';
import { createTableInput } from '../../../../lib/store/tableDefinition';

describe('createTableInput', () => {
  it('builds an on-demand table with the given name, base key and both indexes', () => {
    // Act
    const input = createTableInput('exports-a');

    // Assess
    expect(input).toMatchObject({
      TableName: 'exports-a',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    });
    expect(input.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual([
      'byStatus',
      'activeByLastPolled',
    ]);
    expect(input).not.toHaveProperty('ProvisionedThroughput');
  });

  it('defines every key attribute exactly once, as a string', () => {
    // Act
    const names = createTableInput('exports-a').AttributeDefinitions?.map(
      (attribute) => attribute.AttributeName,
    );

    // Assess
    expect(names).toEqual(['pk', 'sk', 'statusIndexPk', 'statusIndexSk', 'activeIndexPk', 'activeIndexSk']);
    expect(
      createTableInput('t').AttributeDefinitions?.every((attribute) => attribute.AttributeType === 'S'),
    ).toBe(true);
  });
});
