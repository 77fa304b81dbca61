import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  isConditionalCheckFailed,
  itemOfConditionalCheckFailure,
  type StoredItem,
} from './conditionalCheckFailure';
import type { TableKey } from './tableKeys';

/** A conditional write that another writer's item may refuse, and what to do when it does. */
export interface ContendedWrite<T, Holder> {
  /** The conditional write; it may be sent again after a refusal. */
  write: () => Promise<T>;
  /** The holder an item names, or undefined when that item no longer counts (expired). */
  holderOf: (item: StoredItem) => Holder | undefined;
  /** Reads the holder, for backends that return no item with a refusal. */
  readHolder: () => Promise<Holder | undefined>;
  /** The error a refusal by this holder ends in; undefined sends the write again. */
  refusal: (holder: Holder, cause: Error) => Error | undefined;
  /** The error once `maxAttempts` writes were refused without a holder to blame. */
  exhausted: (lastHolder: Holder | undefined, cause: Error) => Error;
  maxAttempts: number;
}

/**
 * Sends a conditional write until it succeeds or a live holder refuses it. A refusal whose
 * holder vanished before it could be read (released, expired) is tried again, a bounded
 * number of times: each retry follows a write someone else made.
 */
export async function writeUnlessHeld<T, Holder>(contended: ContendedWrite<T, Holder>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await contended.write();
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const holder = await refusingValue(error, contended.holderOf, contended.readHolder);
      const refusal = holder === undefined ? undefined : contended.refusal(holder, error);
      if (refusal !== undefined) throw refusal;
      if (attempt >= contended.maxAttempts) throw contended.exhausted(holder, error);
    }
  }
}

/** What the item that refused a conditional write holds: from the refusal when it carries the item, else read. */
export async function refusingValue<V>(
  failure: Parameters<typeof itemOfConditionalCheckFailure>[0],
  fromItem: (item: StoredItem) => V | undefined,
  read: () => Promise<V | undefined>,
): Promise<V | undefined> {
  const item = itemOfConditionalCheckFailure(failure);
  return item === undefined ? read() : fromItem(item);
}

/** Deletes the item only while it still names `exportId`; true when this call deleted it. */
export async function deleteIfItNames(
  client: DynamoDBDocumentClient,
  tableName: string,
  key: TableKey,
  exportId: string,
): Promise<boolean> {
  try {
    await client.send(
      new DeleteCommand({
        TableName: tableName,
        Key: key,
        ConditionExpression: '#exportId = :exportId',
        ExpressionAttributeNames: { '#exportId': 'exportId' },
        ExpressionAttributeValues: { ':exportId': exportId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
