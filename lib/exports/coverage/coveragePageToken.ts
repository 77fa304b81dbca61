import { InvalidPaginationTokenError } from '../record/errors';
import { parseUtcInstant } from '../time/instants';
import { wholeSecondInstant } from '../time/intervals';

/** Where a spot's coverage listing goes on: its range and the start of the next page. */
export interface CoveragePagePosition {
  spotId: string;
  rangeFromMs: number;
  rangeUntilMs: number;
  /** The next page answers from here on. */
  cursorMs: number;
}

/** Longer than any token this listing issues; a longer one is refused before it is decoded. */
const MAX_TOKEN_CHARS = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KEYS = ['s', 'f', 'u', 'c'] as const;

/** Opaque to callers: base64url of the spot, the range and the next page's start. */
export function encodeCoveragePageToken(position: CoveragePagePosition): string {
  const fields: Record<(typeof KEYS)[number], string> = {
    s: position.spotId,
    f: wholeSecondInstant(position.rangeFromMs),
    u: wholeSecondInstant(position.rangeUntilMs),
    c: wholeSecondInstant(position.cursorMs),
  };
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

/**
 * The position a token of this spot's coverage listing names, within a range no longer than
 * `maxRangeMs`. @throws InvalidPaginationTokenError for anything else
 */
export function decodeCoveragePageToken(
  token: string,
  spotId: string,
  maxRangeMs: number,
): CoveragePagePosition {
  if (token.length > MAX_TOKEN_CHARS || !BASE64URL.test(token)) throw new InvalidPaginationTokenError();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (error) {
    throw new InvalidPaginationTokenError({ cause: error });
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded))
    throw new InvalidPaginationTokenError();
  const fields = decoded as Record<string, unknown>;
  if (
    Object.keys(fields).length !== KEYS.length ||
    !KEYS.every((key) => typeof fields[key] === 'string') ||
    fields.s !== spotId
  )
    throw new InvalidPaginationTokenError();
  const rangeFromMs = parseUtcInstant(fields.f as string);
  const rangeUntilMs = parseUtcInstant(fields.u as string);
  const cursorMs = parseUtcInstant(fields.c as string);
  if (
    rangeFromMs === undefined ||
    rangeUntilMs === undefined ||
    cursorMs === undefined ||
    !(rangeFromMs <= cursorMs && cursorMs < rangeUntilMs) ||
    rangeUntilMs - rangeFromMs > maxRangeMs
  )
    throw new InvalidPaginationTokenError();
  return { spotId, rangeFromMs, rangeUntilMs, cursorMs };
}
