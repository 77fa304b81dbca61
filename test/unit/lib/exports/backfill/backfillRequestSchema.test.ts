import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKFILL_WINDOW_HOURS } from '../../../../../lib/exports/backfill/BackfillRecord';
import { backfillRequestSchema } from '../../../../../lib/exports/backfill/backfillRequestSchema';

const NOW_MS = Date.parse('2026-11-01T12:00:00Z');
const parse = (body: unknown) => backfillRequestSchema({ nowMs: NOW_MS }).safeParse(body);
const messages = (body: unknown) =>
  parse(body).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('backfillRequestSchema', () => {
  it('reads a range, with the default window length when none is given', () => {
    // Act
    const plain = parse({ from: '2026-01-01T00:00:00Z', until: '2026-10-01T00:00:00Z' });
    const daily = parse({ from: '2026-01-01T00:00:00Z', until: '2026-10-01T00:00:00Z', windowHours: 24 });

    // Assess
    expect(plain.data).toEqual({
      from: '2026-01-01T00:00:00Z',
      until: '2026-10-01T00:00:00Z',
      windowHours: DEFAULT_BACKFILL_WINDOW_HOURS,
    });
    expect(daily.data?.windowHours).toBe(24);
  });

  it('refuses a range that ends in the future or before it starts', () => {
    // Act / Assess
    expect(messages({ from: '2026-10-01T00:00:00Z', until: '2026-11-02T00:00:00Z' })).toEqual([
      'until: must not be in the future: comments that are not written yet cannot be exported',
    ]);
    expect(messages({ from: '2026-10-01T00:00:00Z', until: '2026-10-01T00:00:00Z' })).toEqual([
      'until: must be after from',
    ]);
  });

  it('refuses a window length out of bounds, an unknown field and a malformed instant', () => {
    // Act / Assess
    for (const windowHours of [0, 1.5, 731, '24'])
      expect(
        parse({ from: '2026-01-01T00:00:00Z', until: '2026-02-01T00:00:00Z', windowHours }).success,
      ).toBe(false);
    expect(parse({ from: '2026-01-01T00:00:00Z', until: '2026-02-01T00:00:00Z', spot: 'sp_a' }).success).toBe(
      false,
    );
    expect(parse({ from: '2026-01-01', until: '2026-02-01T00:00:00Z' }).success).toBe(false);
  });
});
