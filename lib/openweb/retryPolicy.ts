import { SETTINGS } from '../settings/settingsTable';

/** How the client retries 429, 5xx and network failures. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** Backoff cap of the first retry; doubles per retry. */
  baseDelayMs: number;
  /** Upper bound of a computed backoff (a `Retry-After` may exceed it). */
  maxDelayMs: number;
  /** No retry is started whose delay would end later than this after the first attempt started. */
  totalBudgetMs: number;
}

/** Attempts and budget as the functions are configured by default (lib/settings); the backoff is fixed. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: SETTINGS.upstreamMaxAttempts.default,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  totalBudgetMs: SETTINGS.upstreamRetryBudgetMs.default,
};

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`Retry policy ${name} must be a number ≥ 0`);
  }
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError('Retry policy maxAttempts must be an integer ≥ 1');
  }
  return policy;
}

/**
 * Full jitter: uniform in [0, min(maxDelayMs, baseDelayMs · 2^retryIndex)),
 * `retryIndex` 0 for the first retry. Spreads a fleet's retries instead of
 * synchronising them.
 */
export function backoffDelayMs(policy: RetryPolicy, retryIndex: number, random: () => number): number {
  const capMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * capMs);
}

export interface RetryDecisionInput {
  policy: RetryPolicy;
  /** Attempts made so far (≥ 1). */
  attemptsMade: number;
  /** Time since the first attempt started. */
  elapsedMs: number;
  /** The upstream's `Retry-After`, which replaces the computed backoff. */
  retryAfterMs: number | undefined;
  random: () => number;
}

/** The delay before the next attempt, or undefined when attempts or budget are exhausted. */
export function nextRetryDelayMs(input: RetryDecisionInput): number | undefined {
  const { policy, attemptsMade, elapsedMs, retryAfterMs, random } = input;
  if (attemptsMade >= policy.maxAttempts) return undefined;
  const delayMs = retryAfterMs ?? backoffDelayMs(policy, attemptsMade - 1, random);
  if (elapsedMs + delayMs > policy.totalBudgetMs) return undefined;
  return delayMs;
}

const DELTA_SECONDS = /^\d+(\.\d+)?$/;
const HAS_LETTER = /[a-z]/i;

/**
 * A `Retry-After` header in milliseconds from `nowMs`: delta-seconds or an
 * HTTP-date (a date in the past gives 0). Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  if (DELTA_SECONDS.test(value)) return Math.ceil(Number(value) * 1000);
  // Date.parse reads bare numbers as years; an HTTP-date always names a day or month.
  if (!HAS_LETTER.test(value)) return undefined;
  const dateMs = Date.parse(value);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}
