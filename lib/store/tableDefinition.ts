import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's attribute names. Items of every type share the base key;
 * the index attributes exist only on export records (see tableKeys.ts).
 */
export const ExportTableAttribute = {
  partitionKey: 'pk',
  sortKey: 'sk',
  entityType: 'entityType',
  statusIndexPartitionKey: 'statusIndexPk',
  statusIndexSortKey: 'statusIndexSk',
  activeIndexPartitionKey: 'activeIndexPk',
  activeIndexSortKey: 'activeIndexSk',
  /** The table's TTL attribute, epoch seconds. Deletion is lazy: readers treat past values as absent. */
  timeToLive: 'expiresAtEpochSeconds',
} as const;

export const ExportTableIndex = {
  /** A spot's exports in one status, newest first. */
  byStatus: 'byStatus',
  /** Sparse: only active exports, oldest "last touched" first, for the reconciler. */
  activeByLastPolled: 'activeByLastPolled',
} as const;

export type KeyAttributeType = 'S' | 'N' | 'B';

export interface KeyAttribute {
  name: string;
  type: KeyAttributeType;
}

export interface GlobalSecondaryIndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  projectionType: 'ALL' | 'KEYS_ONLY';
}

export interface ExportTableDefinition {
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  billingMode: 'PAY_PER_REQUEST';
  timeToLiveAttribute: string;
  globalSecondaryIndexes: readonly GlobalSecondaryIndexDefinition[];
}

/** The one definition of the table, as plain data: the CDK stack and the local runtime both build from it. */
export const exportTableDefinition: ExportTableDefinition = {
  partitionKey: { name: ExportTableAttribute.partitionKey, type: 'S' },
  sortKey: { name: ExportTableAttribute.sortKey, type: 'S' },
  billingMode: 'PAY_PER_REQUEST',
  timeToLiveAttribute: ExportTableAttribute.timeToLive,
  globalSecondaryIndexes: [
    {
      indexName: ExportTableIndex.byStatus,
      partitionKey: { name: ExportTableAttribute.statusIndexPartitionKey, type: 'S' },
      sortKey: { name: ExportTableAttribute.statusIndexSortKey, type: 'S' },
      projectionType: 'ALL',
    },
    {
      indexName: ExportTableIndex.activeByLastPolled,
      partitionKey: { name: ExportTableAttribute.activeIndexPartitionKey, type: 'S' },
      sortKey: { name: ExportTableAttribute.activeIndexSortKey, type: 'S' },
      projectionType: 'ALL',
    },
  ],
};

/** CreateTable input for `tableName`; TTL is enabled separately (UpdateTimeToLive, or the CDK table's property). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const definition = exportTableDefinition;
  const keyAttributes = [
    definition.partitionKey,
    definition.sortKey,
    ...definition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  const uniqueAttributes = [
    ...new Map(keyAttributes.map((attribute) => [attribute.name, attribute])).values(),
  ];
  return {
    TableName: tableName,
    BillingMode: definition.billingMode,
    AttributeDefinitions: uniqueAttributes.map(({ name, type }) => ({
      AttributeName: name,
      AttributeType: type,
    })),
    KeySchema: [
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: definition.sortKey.name, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: definition.globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: index.projectionType },
    })),
  };
}
