import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';
import type { TableKey } from './tableKeys';

const MS_PER_SECOND = 1000;

export function epochSeconds(epochMs: number): number {
  return Math.floor(epochMs / MS_PER_SECOND);
}

/**
 * The item's expiry (its TTL attribute) while it is still in the future, else undefined.
 * TTL deletion lags by up to days, so expiry is judged on read.
 */
export function liveExpiry(item: StoredItem, nowMs: number): number | undefined {
  const expiresAtEpochSeconds = Number(item[ExportTableAttribute.timeToLive]);
  return expiresAtEpochSeconds > epochSeconds(nowMs) ? expiresAtEpochSeconds : undefined;
}

/** What a live item holds; undefined once it expired. */
export function ifLive<T>(
  item: StoredItem,
  nowMs: number,
  fromItem: (item: StoredItem, expiresAtEpochSeconds: number) => T,
): T | undefined {
  const expiresAtEpochSeconds = liveExpiry(item, nowMs);
  return expiresAtEpochSeconds === undefined ? undefined : fromItem(item, expiresAtEpochSeconds);
}

/** Reads an item with a TTL (consistently): what it holds, or undefined when absent or expired. */
export async function getLive<T>(
  client: DynamoDBDocumentClient,
  tableName: string,
  key: TableKey,
  now: () => number,
  fromItem: (item: StoredItem, expiresAtEpochSeconds: number) => T,
): Promise<T | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  return Item === undefined ? undefined : ifLive(Item, now(), fromItem);
}
