import { describe, expect, it } from 'vitest';
import {
  decodeCoveragePageToken,
  encodeCoveragePageToken,
} from '../../../../../lib/exports/coverage/coveragePageToken';
import { InvalidPaginationTokenError } from '../../../../../lib/exports/record/errors';

const SPOT = 'sp_demo';
const DAY_MS = 86_400_000;
const POSITION = {
  spotId: SPOT,
  rangeFromMs: Date.parse('2026-11-01T00:00:00Z'),
  rangeUntilMs: Date.parse('2026-11-03T00:00:00Z'),
  cursorMs: Date.parse('2026-11-02T05:00:00Z'),
};
const encoded = (fields: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');

describe('coverage page tokens', () => {
  it('read back as the position they were made from', () => {
    // Act
    const token = encodeCoveragePageToken(POSITION);

    // Assess
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCoveragePageToken(token, SPOT, 366 * DAY_MS)).toEqual(POSITION);
  });

  it.each([
    ['not base64url', 'a+b/c'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['an array', encoded([] as unknown as Record<string, unknown>)],
    [
      'another spot',
      encoded({
        s: 'sp_other',
        f: '2026-11-01T00:00:00Z',
        u: '2026-11-02T00:00:00Z',
        c: '2026-11-01T00:00:00Z',
      }),
    ],
    ['a missing field', encoded({ s: SPOT, f: '2026-11-01T00:00:00Z', u: '2026-11-02T00:00:00Z' })],
    [
      'an extra field',
      encoded({
        s: SPOT,
        f: '2026-11-01T00:00:00Z',
        u: '2026-11-02T00:00:00Z',
        c: '2026-11-01T00:00:00Z',
        x: '1',
      }),
    ],
    [
      'a date that does not exist',
      encoded({ s: SPOT, f: '2026-02-30T00:00:00Z', u: '2026-03-02T00:00:00Z', c: '2026-03-01T00:00:00Z' }),
    ],
    [
      'a cursor outside the range',
      encoded({ s: SPOT, f: '2026-11-01T00:00:00Z', u: '2026-11-02T00:00:00Z', c: '2026-11-02T00:00:00Z' }),
    ],
    [
      'a range too long',
      encoded({ s: SPOT, f: '2025-01-01T00:00:00Z', u: '2026-11-02T00:00:00Z', c: '2026-11-01T00:00:00Z' }),
    ],
    ['a token too long', 'a'.repeat(2049)],
  ])('refuse %s', (_, token) => {
    // Act / Assess
    expect(() => decodeCoveragePageToken(token, SPOT, 366 * DAY_MS)).toThrow(InvalidPaginationTokenError);
  });
});
