import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export type StoredItem = Record<string, unknown>;

/** By name, not `instanceof`: bundling can load two copies of the SDK's error classes. */
export function isConditionalCheckFailed(
  error: unknown,
): error is Error & { Item?: Record<string, AttributeValue> } {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The item that failed the condition, when the backend returned it
 * (`ReturnValuesOnConditionCheckFailure: ALL_OLD`). The document client does
 * not unmarshall errors, so it arrives in wire format. Some backends (dynalite)
 * never return it; callers then read the item.
 */
export function itemOfConditionalCheckFailure(error: {
  Item?: Record<string, AttributeValue>;
}): StoredItem | undefined {
  return error.Item === undefined || Object.keys(error.Item).length === 0
    ? undefined
    : unmarshall(error.Item);
}
