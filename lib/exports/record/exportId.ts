import { randomBytes } from 'node:crypto';

// Crockford base32, lower case: no i, l, o, u; ASCII order equals value order, so ids sort by time.
const CROCKFORD_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const EXPORT_ID_PREFIX = 'ex_';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
export const EXPORT_ID_PATTERN = /^ex_[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * `ex_` + 10 chars of epoch milliseconds + 16 random chars (80 bits).
 * Lexicographic order is creation order to the millisecond, so a
 * descending key query lists newest first. URL-safe as is.
 */
export function newExportId(nowMs: number = Date.now()): string {
  return timeSortedId(EXPORT_ID_PREFIX, nowMs);
}

/** `prefix` + 10 chars of epoch milliseconds + 16 random chars: ids that sort by creation time. */
export function timeSortedId(prefix: string, nowMs: number): string {
  let time = '';
  for (let rest = Math.floor(nowMs), i = 0; i < TIME_CHARS; i++, rest = Math.floor(rest / 32)) {
    time = CROCKFORD_ALPHABET.charAt(rest % 32) + time;
  }
  const random = Array.from(randomBytes(RANDOM_CHARS), (byte) => CROCKFORD_ALPHABET.charAt(byte % 32)).join(
    '',
  );
  return prefix + time + random;
}

export function isValidExportId(value: unknown): value is string {
  return typeof value === 'string' && EXPORT_ID_PATTERN.test(value);
}
