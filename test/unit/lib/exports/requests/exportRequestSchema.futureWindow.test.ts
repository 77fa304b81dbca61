import { describe, expect, it } from 'vitest';
import { FUTURE_WINDOW_ALLOWANCE_SECONDS } from '../../../../../lib/exports/requests/exportRequestLimits';
import { exportRequestSchema } from '../../../../../lib/exports/requests/exportRequestSchema';

const NOW_MS = Date.parse('2026-11-23T12:00:00Z');
const at = (offsetSeconds: number) =>
  new Date(NOW_MS + offsetSeconds * 1000).toISOString().replace('.000Z', 'Z');

describe('a start window that ends in the future', () => {
  const schema = exportRequestSchema('sp_demo', { nowMs: NOW_MS });

  it('is accepted up to the clock-skew allowance', () => {
    const edge = schema.safeParse({ from: at(-86_400), until: at(FUTURE_WINDOW_ALLOWANCE_SECONDS) });
    const ago = schema.safeParse({ from: at(-86_400), until: at(-1) });
    expect(edge.success).toBe(true);
    expect(ago.success).toBe(true);
  });

  it('is refused past the allowance, naming until', () => {
    const result = schema.safeParse({ from: at(-60), until: at(FUTURE_WINDOW_ALLOWANCE_SECONDS + 1) });
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(['until']);
    expect(issue?.message).toContain('must not be in the future');
  });

  it('is not checked without a clock (scheduled windows end at their scheduled time)', () => {
    const result = exportRequestSchema('sp_demo').safeParse({
      from: '2027-01-01T00:00:00Z',
      until: '2027-01-02T00:00:00Z',
    });
    expect(result.success).toBe(true);
  });
});
