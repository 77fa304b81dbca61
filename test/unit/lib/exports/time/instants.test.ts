import { describe, expect, it } from 'vitest';
import { isoAt, parseUtcInstant } from '../../../../../lib/exports/time/instants';

describe('isoAt', () => {
  it('writes epoch ms as ISO 8601 UTC with milliseconds', () => {
    // Act / Assess
    expect(isoAt(Date.UTC(2026, 10, 1, 12, 0, 0, 5))).toBe('2026-11-01T12:00:00.005Z');
  });
});

describe('parseUtcInstant', () => {
  it('reads an RFC 3339 UTC instant to the second', () => {
    // Act / Assess
    expect(parseUtcInstant('2026-01-31T00:00:00Z')).toBe(Date.UTC(2026, 0, 31));
    expect(parseUtcInstant('2024-02-29T23:59:59Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
  });

  it.each([
    ['a day that does not exist', '2026-02-31T00:00:00Z'],
    ['a leap day of a common year', '2026-02-29T00:00:00Z'],
    ['an hour past 23', '2026-01-01T24:00:00Z'],
    ['milliseconds', '2026-01-01T00:00:00.000Z'],
    ['an offset', '2026-01-01T00:00:00+01:00'],
    ['a date alone', '2026-01-01'],
    ['no zone', '2026-01-01T00:00:00'],
  ])('refuses %s', (_reason, text) => {
    // Act / Assess
    expect(parseUtcInstant(text)).toBeUndefined();
  });
});
