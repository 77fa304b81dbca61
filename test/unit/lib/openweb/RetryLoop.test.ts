import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../../../../lib/exports/upstream/errors';
import type { OpenWebClientEvent } from '../../../../lib/openweb/OpenWebClientEvent';
import { OpenWebOperation } from '../../../../lib/openweb/OpenWebOperation';
import { type AttemptOutcome, RetryLoop } from '../../../../lib/openweb/RetryLoop';
import type { RetryPolicy } from '../../../../lib/openweb/retryPolicy';

const POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, totalBudgetMs: 10_000 };

function harness(policy: RetryPolicy = POLICY) {
  let nowMs = 0;
  const sleeps: number[] = [];
  const events: OpenWebClientEvent[] = [];
  const loop = new RetryLoop({
    policy,
    now: () => nowMs,
    sleep: async (ms) => {
      sleeps.push(ms);
      nowMs += ms;
    },
    random: () => 0.5,
    emit: (event) => events.push(event),
  });
  return { loop, sleeps, events };
}

function retryable(reason: string, retryAfterMs?: number): AttemptOutcome<never> {
  return { kind: 'retryable', error: new UpstreamUnavailableError(reason), reason, retryAfterMs };
}

describe('RetryLoop', () => {
  it('tries again after full-jitter backoff, or the Retry-After, reporting each retry, until an attempt is done', async () => {
    // Prepare
    const { loop, sleeps, events } = harness();
    const outcomes: AttemptOutcome<string>[] = [
      retryable('503', 2_000),
      retryable('reset'),
      { kind: 'done', value: 'ok' },
    ];
    const attempts: number[] = [];

    // Act
    const value = await loop.run(OpenWebOperation.CREATE_EXPORT, 'sp_abc', async (attempt) => {
      attempts.push(attempt);
      return outcomes[attempt - 1] as AttemptOutcome<string>;
    });

    // Assess
    expect(value).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    // The upstream's wait first; then half (random 0.5) of 100 ms × 2.
    expect(sleeps).toEqual([2_000, 100]);
    expect(events).toEqual([
      {
        type: 'retry',
        operation: 'createExport',
        spotId: 'sp_abc',
        attempt: 2,
        delayMs: 2_000,
        reason: '503',
      },
      {
        type: 'retry',
        operation: 'createExport',
        spotId: 'sp_abc',
        attempt: 3,
        delayMs: 100,
        reason: 'reset',
      },
    ]);
  });

  it("throws the last attempt's error once the attempts are spent", async () => {
    // Prepare
    const { loop, sleeps } = harness();
    const lastError = new UpstreamUnavailableError('third');
    const last: AttemptOutcome<never> = {
      kind: 'retryable',
      error: lastError,
      reason: 'third',
      retryAfterMs: undefined,
    };

    // Act
    const run = loop.run(OpenWebOperation.CREATE_EXPORT, 'sp_abc', async (attempt) =>
      attempt === 3 ? last : retryable(`attempt ${attempt}`),
    );

    // Assess
    await expect(run).rejects.toBe(lastError);
    expect(sleeps).toHaveLength(2);
  });

  it('stops before a wait that would overrun the time budget', async () => {
    // Prepare
    const { loop, sleeps, events } = harness({ ...POLICY, totalBudgetMs: 1_000 });
    const first = retryable('throttled', 5_000);

    // Act
    const run = loop.run(OpenWebOperation.CREATE_EXPORT, 'sp_abc', async () => first);

    // Assess
    await expect(run).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(sleeps).toEqual([]);
    expect(events).toEqual([]);
  });

  it('propagates an attempt that throws, without retrying it', async () => {
    // Prepare
    const { loop, sleeps } = harness();
    let attempts = 0;

    // Act
    const run = loop.run(OpenWebOperation.CREATE_EXPORT, 'sp_abc', async () => {
      attempts++;
      throw new TypeError('bug');
    });

    // Assess
    await expect(run).rejects.toThrow('bug');
    expect(attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });
});
