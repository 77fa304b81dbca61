import { timeSortedId } from './exportId';

const BACKFILL_ID_PREFIX = 'bf_';
export const BACKFILL_ID_PATTERN = /^bf_[0-9a-hjkmnp-tv-z]{26}$/;

/** `bf_` + 10 chars of epoch milliseconds + 16 random chars, like an export id: sorts by creation time. */
export function newBackfillId(nowMs: number = Date.now()): string {
  return timeSortedId(BACKFILL_ID_PREFIX, nowMs);
}

export function isValidBackfillId(value: unknown): value is string {
  return typeof value === 'string' && BACKFILL_ID_PATTERN.test(value);
}
