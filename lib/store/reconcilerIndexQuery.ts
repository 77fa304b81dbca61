import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ExportTableAttribute, ExportTableIndex } from './tableDefinition';
import type { ReconcilerIndexPartition } from './tableKeys';

export interface ReconcilerIndexQuery {
  partition: ReconcilerIndexPartition;
  /** Only items due before this instant (the index's sort key); absent: the whole partition. */
  beforeIso?: string;
  /** At most this many items, oldest first. */
  limit: number;
}

/**
 * One page of a partition of the sparse reconciler index, the items due first: what every sweep
 * and listing of that index asks (due exports, windows, backfills, erasures, freshness marks,
 * catalog registrations, spots).
 */
export function reconcilerIndexQuery(tableName: string, query: ReconcilerIndexQuery): QueryCommand {
  const before = query.beforeIso !== undefined;
  return new QueryCommand({
    TableName: tableName,
    IndexName: ExportTableIndex.activeByLastPolled,
    KeyConditionExpression: before ? '#indexPk = :partition AND #indexSk < :before' : '#indexPk = :partition',
    ExpressionAttributeNames: {
      '#indexPk': ExportTableAttribute.activeIndexPartitionKey,
      ...(before && { '#indexSk': ExportTableAttribute.activeIndexSortKey }),
    },
    ExpressionAttributeValues: {
      ':partition': query.partition,
      ...(before && { ':before': query.beforeIso }),
    },
    ScanIndexForward: true,
    Limit: Math.max(1, Math.trunc(query.limit) || 1),
  });
}
