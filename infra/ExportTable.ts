import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  exportTableDefinition,
  type KeyAttribute,
  type KeyAttributeType,
} from '../lib/store/tableDefinition';

const ATTRIBUTE_TYPES: Record<KeyAttributeType, dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
};

function attribute(key: KeyAttribute): dynamodb.Attribute {
  return { name: key.name, type: ATTRIBUTE_TYPES[key.type] };
}

export interface ExportTableProps {
  /**
   * A table an earlier deployment left behind (tables are retained when the stack is deleted),
   * used instead of creating one: its records, locks and keys carry on. Unset: a new table.
   */
  existingTableName?: string | undefined;
}

/**
 * The single table, built from the shared definition the local runtime also uses, or the table
 * of an earlier deployment when `existingTableName` names it (then the stack neither creates nor
 * deletes it; it keeps the settings it was created with).
 *
 * `Table` (AWS::DynamoDB::Table) rather than `TableV2` (a one-replica global table): the
 * system runs in one region, and it is the resource type cdk-nag's PITR rule inspects.
 * Encryption uses the AWS-managed key (`aws/dynamodb`): encrypted at rest with key use
 * logged in CloudTrail, no key policy to maintain and no way to lock the records away by
 * disabling or scheduling the deletion of a customer key; the functions need no KMS grants.
 */
export class ExportTable extends Construct {
  readonly table: dynamodb.ITable;

  constructor(scope: Construct, id: string, props: ExportTableProps = {}) {
    super(scope, id);
    if (props.existingTableName !== undefined) {
      this.table = dynamodb.Table.fromTableName(this, 'Table', props.existingTableName);
      return;
    }
    const definition = exportTableDefinition;
    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: attribute(definition.partitionKey),
      sortKey: attribute(definition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: definition.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      // Export records are the only trace of past exports and their links: never delete them with the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of definition.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType:
          index.projectionType === 'ALL' ? dynamodb.ProjectionType.ALL : dynamodb.ProjectionType.KEYS_ONLY,
      });
    }
    this.table = table;
  }

  /** ARN of one of the table's indexes, for grants narrower than `index/*`. */
  indexArn(indexName: string): string {
    return `${this.table.tableArn}/index/${indexName}`;
  }
}
