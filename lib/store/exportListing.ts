import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ExportStatus } from '../exports/record/ExportStatus';
import type { PaginationKeyShape } from './paginationToken';
import { ExportTableAttribute, ExportTableIndex } from './tableDefinition';
import { EXPORT_SORT_KEY_PREFIX, spotPartitionKey, statusIndexPartitionKey } from './tableKeys';

export const MAX_LIST_EXPORTS_LIMIT = 100;

const EXPORT_BASE_KEY_NAMES = [ExportTableAttribute.partitionKey, ExportTableAttribute.sortKey] as const;
const EXPORT_STATUS_INDEX_KEY_NAMES = [
  ...EXPORT_BASE_KEY_NAMES,
  ExportTableAttribute.statusIndexPartitionKey,
  ExportTableAttribute.statusIndexSortKey,
] as const;

export interface ExportListing {
  query: Pick<
    QueryCommandInput,
    'IndexName' | 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >;
  tokenShape: PaginationKeyShape;
}

/** A spot's exports come from the base table; one status's from the status index. */
export function exportListing(spotId: string, status: ExportStatus | undefined): ExportListing {
  const pk = spotPartitionKey(spotId);
  const prefixes = { [ExportTableAttribute.sortKey]: EXPORT_SORT_KEY_PREFIX };
  if (status === undefined) {
    return {
      query: {
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :exportPrefix)',
        ExpressionAttributeNames: {
          '#pk': ExportTableAttribute.partitionKey,
          '#sk': ExportTableAttribute.sortKey,
        },
        ExpressionAttributeValues: { ':pk': pk, ':exportPrefix': EXPORT_SORT_KEY_PREFIX },
      },
      tokenShape: {
        attributeNames: EXPORT_BASE_KEY_NAMES,
        fixedValues: { [ExportTableAttribute.partitionKey]: pk },
        prefixes,
      },
    };
  }
  const statusIndexPk = statusIndexPartitionKey(spotId, status);
  return {
    query: {
      IndexName: ExportTableIndex.byStatus,
      KeyConditionExpression: '#statusIndexPk = :statusIndexPk',
      ExpressionAttributeNames: { '#statusIndexPk': ExportTableAttribute.statusIndexPartitionKey },
      ExpressionAttributeValues: { ':statusIndexPk': statusIndexPk },
    },
    tokenShape: {
      attributeNames: EXPORT_STATUS_INDEX_KEY_NAMES,
      fixedValues: {
        [ExportTableAttribute.partitionKey]: pk,
        [ExportTableAttribute.statusIndexPartitionKey]: statusIndexPk,
      },
      prefixes,
    },
  };
}

export function clampLimit(limit: number, max = MAX_LIST_EXPORTS_LIMIT): number {
  return Math.min(Math.max(Math.trunc(limit) || 1, 1), max);
}
