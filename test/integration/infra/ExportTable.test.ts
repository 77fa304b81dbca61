import { afterAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { ExportTableIndex } from '../../../lib/store/tableDefinition';
import { type Deployment, resolveValue } from '../../system/shipped/iamPolicy';
import { removeTestAssemblies, STACK_SHAPES, synthesizeTestStack } from './synthesizeTestStack';
import { functionOf, resourcesGranting, resourcesOfType, statementsOfFunction } from './templateQueries';

const RETAINED_TABLE = 'OpenWebExports-ExportTable1A2B3C4D-5E6F7A8B9C0D';
const DEPLOYMENT: Deployment = {
  partition: 'aws',
  region: 'eu-west-1',
  accountId: '123456789012',
  stackId:
    'arn:aws:cloudformation:eu-west-1:123456789012:stack/OpenWebExports/6f0b9a2e-1111-4c3d-9e8f-0123456789ab',
  ref: (logicalId) => logicalId,
  getAtt: (logicalId) => logicalId,
};

afterAll(() => {
  removeTestAssemblies();
});

describe.each(STACK_SHAPES)('the export table (%s)', (shape) => {
  it('is a new, retained, deletion-protected table by default', () => {
    // Act
    const { template } = synthesizeTestStack({}, shape);

    // Assess
    const tables = resourcesOfType(template, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.[1]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true },
    });
  });

  it('is the table a destroyed deployment left behind when existingTableName names it: its records live on', () => {
    // Act
    const { template } = synthesizeTestStack({ existingTableName: RETAINED_TABLE }, shape);

    // Assess: no table is created; every function reads and writes the named one and its indexes.
    expect(resourcesOfType(template, 'AWS::DynamoDB::Table')).toEqual([]);
    for (const handler of Object.values(HandlerNames)) {
      const variables = (
        functionOf(template, handler)[1].Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(variables.TABLE_NAME, handler).toBe(RETAINED_TABLE);
    }
    const queried = resourcesGranting(
      statementsOfFunction(template, HandlerNames.LIST),
      'dynamodb:Query',
    ).map((resource) => resolveValue(JSON.parse(resource), DEPLOYMENT));
    const tableArn = `arn:aws:dynamodb:eu-west-1:123456789012:table/${RETAINED_TABLE}`;
    expect(queried.sort()).toEqual([tableArn, `${tableArn}/index/${ExportTableIndex.byStatus}`].sort());
  });
});
