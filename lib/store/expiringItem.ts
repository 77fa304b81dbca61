import type { StoredItem } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';

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
