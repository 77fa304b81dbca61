import { describe, expect, it } from 'vitest';
import { parseInt64, parseUtcTimestampMs } from '../../../../../lib/archive/parquet/commentValueParsers';

describe('parseInt64', () => {
  it('reads base-10 integers within INT64', () => {
    expect(parseInt64('0')).toBe(0n);
    expect(parseInt64('-5')).toBe(-5n);
    expect(parseInt64('007')).toBe(7n);
    expect(parseInt64('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseInt64('-9223372036854775808')).toBe(-9223372036854775808n);
  });

  it.each(['', ' 5', '5 ', '+5', '1.5', '1e3', '0x10', 'five', '9223372036854775808', '-', '١٢'])(
    'leaves %j unparsed',
    (value) => {
      expect(parseInt64(value)).toBeUndefined();
    },
  );
});

describe('parseUtcTimestampMs', () => {
  it('reads RFC 3339 instants with their zone, to the millisecond', () => {
    expect(parseUtcTimestampMs('2026-01-31T12:00:00Z')).toBe(Date.UTC(2026, 0, 31, 12));
    expect(parseUtcTimestampMs('2026-01-31t12:00:00z')).toBe(Date.UTC(2026, 0, 31, 12));
    expect(parseUtcTimestampMs('2026-01-31 12:00:00.5Z')).toBe(Date.UTC(2026, 0, 31, 12, 0, 0, 500));
    expect(parseUtcTimestampMs('2026-01-31T12:00:00.123000Z')).toBe(Date.UTC(2026, 0, 31, 12, 0, 0, 123));
    expect(parseUtcTimestampMs('2026-01-31T14:30:00+02:30')).toBe(Date.UTC(2026, 0, 31, 12));
    expect(parseUtcTimestampMs('2026-01-31T00:00:00-05:00')).toBe(Date.UTC(2026, 0, 31, 5));
    expect(parseUtcTimestampMs('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    // Years below 100 are years, not 19xx as Date.UTC would take them.
    expect(parseUtcTimestampMs('0001-01-01T00:00:00Z')).toBe(-62_135_596_800_000);
  });

  it.each([
    '',
    'yesterday',
    '2026-01-31',
    '2026-01-31T12:00:00', // no zone: which instant is not certain
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-31T24:00:00Z',
    '2026-01-31T23:59:60Z',
    '2026-01-31T12:00:00.1234Z', // finer than a millisecond
    '2026-01-31T12:00:00+24:00',
    '2026-01-31T12:00:00+01:60',
    '1769860800',
    ' 2026-01-31T12:00:00Z',
  ])('leaves %j unparsed', (value) => {
    expect(parseUtcTimestampMs(value)).toBeUndefined();
  });
});
