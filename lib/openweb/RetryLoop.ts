import type { UpstreamError } from '../exports/upstream/errors';
import type { OpenWebClientEvent } from './OpenWebClientEvent';
import type { OpenWebOperation } from './OpenWebOperation';
import { nextRetryDelayMs, type RetryPolicy } from './retryPolicy';

/** What one attempt leads to: a result, or an error worth another attempt after a wait. */
export type AttemptOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'retryable'; error: UpstreamError; reason: string; retryAfterMs: number | undefined };

export interface RetryLoopOptions {
  policy: RetryPolicy;
  /** Epoch ms. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Uniform in [0, 1), for the jitter. */
  random: () => number;
  emit: (event: OpenWebClientEvent) => void;
}

/**
 * The client's retries: attempts of one call until one is done or throws, or the policy's
 * attempts or time budget run out (then the last attempt's error is thrown). The wait before
 * the next attempt is the upstream's `Retry-After` when it sent one, else full-jitter backoff;
 * each is reported as a `retry` event.
 */
export class RetryLoop {
  readonly #options: RetryLoopOptions;

  constructor(options: RetryLoopOptions) {
    this.#options = options;
  }

  async run<T>(
    operation: OpenWebOperation,
    spotId: string,
    attemptOnce: (attempt: number) => Promise<AttemptOutcome<T>>,
  ): Promise<T> {
    const { policy, now, sleep, random, emit } = this.#options;
    const startedAt = now();
    for (let attemptsMade = 1; ; attemptsMade++) {
      const outcome = await attemptOnce(attemptsMade);
      if (outcome.kind === 'done') return outcome.value;
      const delayMs = nextRetryDelayMs({
        policy,
        attemptsMade,
        elapsedMs: now() - startedAt,
        retryAfterMs: outcome.retryAfterMs,
        random,
      });
      if (delayMs === undefined) throw outcome.error;
      emit({ type: 'retry', operation, spotId, attempt: attemptsMade + 1, delayMs, reason: outcome.reason });
      await sleep(delayMs);
    }
  }
}
