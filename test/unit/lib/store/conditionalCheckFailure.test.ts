import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  isConditionalCheckFailed,
  itemOfConditionalCheckFailure,
} from '../../../../lib/store/conditionalCheckFailure';

const failure = (Item?: ConditionalCheckFailedException['Item']) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item });

describe('isConditionalCheckFailed', () => {
  it('recognises the failure by its name, from whichever copy of the SDK it came', () => {
    // Prepare: an error of the same name that is no instance of this SDK's class
    const fromAnotherCopy = Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });

    // Act / Assess
    expect(isConditionalCheckFailed(failure())).toBe(true);
    expect(isConditionalCheckFailed(fromAnotherCopy)).toBe(true);
    expect(isConditionalCheckFailed(new Error('ProvisionedThroughputExceededException'))).toBe(false);
    expect(isConditionalCheckFailed({ name: 'ConditionalCheckFailedException' })).toBe(false);
  });
});

describe('itemOfConditionalCheckFailure', () => {
  it('reads the item the backend returned in wire format, and nothing when it returned none', () => {
    // Act / Assess
    expect(
      itemOfConditionalCheckFailure(
        failure({ pk: { S: 'SPOT#sp_a' }, version: { N: '3' }, links: { L: [] } }),
      ),
    ).toEqual({ pk: 'SPOT#sp_a', version: 3, links: [] });
    expect(itemOfConditionalCheckFailure(failure())).toBeUndefined();
    expect(itemOfConditionalCheckFailure(failure({}))).toBeUndefined();
  });
});
