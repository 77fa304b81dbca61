import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clampLimit } from './exportListing';
import { decodePaginationToken, nextTableKeyToken } from './paginationToken';
import { ExportTableAttribute } from './tableDefinition';
import { spotPartitionKey } from './tableKeys';

export interface SpotItemsPageQuery {
  spotId: string;
  /** The sort key prefix of the kind of item listed (backfills, erasures, …). */
  sortKeyPrefix: string;
  limit: number;
  /** A token this very listing answered; anything else is refused. */
  nextToken?: string;
  /** Newest first (ids that sort by creation time); else oldest first. */
  newestFirst?: boolean;
}

/**
 * One page of the items of one kind kept under a spot's partition, with the token of the next:
 * a token of another spot or another kind of item is refused.
 * @throws InvalidPaginationTokenError for a token that is not one of this listing
 */
export async function spotItemsPage(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: SpotItemsPageQuery,
): Promise<{ items: Record<string, unknown>[]; nextToken?: string }> {
  const pk = spotPartitionKey(query.spotId);
  const startKey =
    query.nextToken === undefined
      ? undefined
      : decodePaginationToken(query.nextToken, {
          attributeNames: [ExportTableAttribute.partitionKey, ExportTableAttribute.sortKey],
          fixedValues: { [ExportTableAttribute.partitionKey]: pk },
          prefixes: { [ExportTableAttribute.sortKey]: query.sortKeyPrefix },
        });
  const { Items = [], LastEvaluatedKey } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: {
        '#pk': ExportTableAttribute.partitionKey,
        '#sk': ExportTableAttribute.sortKey,
      },
      ExpressionAttributeValues: { ':pk': pk, ':prefix': query.sortKeyPrefix },
      ScanIndexForward: query.newestFirst !== true,
      Limit: clampLimit(query.limit),
      ...(startKey !== undefined && { ExclusiveStartKey: startKey }),
    }),
  );
  return { items: Items, ...nextTableKeyToken(LastEvaluatedKey) };
}
