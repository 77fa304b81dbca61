import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  nextRetryDelayMs,
  parseRetryAfterMs,
  type RetryPolicy,
  resolveRetryPolicy,
} from '../../../../lib/openweb/retryPolicy';

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 5_000, totalBudgetMs: 20_000 };

describe('resolveRetryPolicy', () => {
  it('fills in the documented defaults: the attempts and budget the functions are configured with', () => {
    // Prepare
    const { openWeb } = loadConfig({});

    // Act / Assess
    expect(resolveRetryPolicy()).toEqual({
      maxAttempts: openWeb.maxAttempts,
      baseDelayMs: 200,
      maxDelayMs: 5_000,
      totalBudgetMs: openWeb.retryBudgetMs,
    });
    expect(resolveRetryPolicy({ maxAttempts: 2 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 2 });
  });

  it.each([
    [{ maxAttempts: 0 }],
    [{ maxAttempts: 1.5 }],
    [{ baseDelayMs: -1 }],
    [{ totalBudgetMs: Number.NaN }],
  ])('rejects %j', (overrides) => {
    // Act / Assess
    expect(() => resolveRetryPolicy(overrides)).toThrow(RangeError);
  });
});

describe('backoffDelayMs', () => {
  it('doubles the jitter cap per retry up to maxDelayMs', () => {
    // Prepare
    const justBelowOne = () => 0.999_999;

    // Act
    const caps = [0, 1, 2, 3, 4, 5, 6].map((retryIndex) => backoffDelayMs(policy, retryIndex, justBelowOne));

    // Assess
    expect(caps).toEqual([199, 399, 799, 1_599, 3_199, 4_999, 4_999]);
  });

  it('is zero when random draws zero', () => {
    // Act / Assess
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
  });

  it('stays within [0, min(maxDelayMs, baseDelayMs * 2^retry)) for any random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retryIndex, draw) => {
          // Act
          const delayMs = backoffDelayMs(policy, retryIndex, () => draw);

          // Assess
          const capMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
          expect(delayMs).toBeGreaterThanOrEqual(0);
          expect(delayMs).toBeLessThan(capMs);
        },
      ),
    );
  });
});

describe('nextRetryDelayMs', () => {
  const base = { policy, elapsedMs: 0, retryAfterMs: undefined, random: () => 0.5 };

  it('uses full jitter on the retry index derived from the attempts made', () => {
    // Act / Assess
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1 })).toBe(100);
    expect(nextRetryDelayMs({ ...base, attemptsMade: 3 })).toBe(400);
  });

  it('stops once maxAttempts attempts were made', () => {
    // Act / Assess
    expect(nextRetryDelayMs({ ...base, attemptsMade: 4 })).toBeUndefined();
  });

  it('uses Retry-After as the delay even above maxDelayMs', () => {
    // Act / Assess
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, retryAfterMs: 8_000 })).toBe(8_000);
  });

  it('stops when the delay would end beyond the total budget', () => {
    // Act / Assess
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, retryAfterMs: 20_001 })).toBeUndefined();
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, elapsedMs: 19_950 })).toBeUndefined();
    expect(nextRetryDelayMs({ ...base, attemptsMade: 1, elapsedMs: 19_900 })).toBe(100);
  });
});

describe('parseRetryAfterMs', () => {
  const nowMs = Date.parse('2026-03-01T12:00:00Z');

  it.each([
    ['2', 2_000],
    ['0', 0],
    [' 120 ', 120_000],
    ['1.5', 1_500],
  ])('reads delta-seconds %j as %i ms', (header, expected) => {
    // Act / Assess
    expect(parseRetryAfterMs(header, nowMs)).toBe(expected);
  });

  it('reads an HTTP-date relative to now', () => {
    // Act / Assess
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 12:00:05 GMT', nowMs)).toBe(5_000);
  });

  it('reads an HTTP-date in the past as zero', () => {
    // Act / Assess
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 11:59:00 GMT', nowMs)).toBe(0);
  });

  it.each([[null], [undefined], [''], ['soon'], ['-1'], ['12:00']])('ignores %j', (header) => {
    // Act / Assess
    expect(parseRetryAfterMs(header, nowMs)).toBeUndefined();
  });
});
