import type { PollingConfig } from './stackConfig';

/** Each poll waits twice as long as the one before, up to `statusPollMaxDelaySeconds`. */
export const STATUS_POLL_BACKOFF_RATE = 2;

/** Step Functions' ceiling for a retrier's `MaxAttempts`. */
export const STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS = 99_999_999;

/**
 * Headroom over the polls that fit in the deadline on average. Full jitter can make a run of
 * delays short; tripling the mean puts running out of attempts before the deadline dozens of
 * standard deviations away, while the deadline itself (checked by the poll task) ends the loop.
 */
const ATTEMPTS_SAFETY_FACTOR = 3;

/** `MaxAttempts` of the poll task's retrier: enough polls to outlast the export deadline. */
export function statusPollMaxAttempts(
  polling: Pick<
    PollingConfig,
    'exportDeadlineSeconds' | 'statusPollIntervalSeconds' | 'statusPollMaxDelaySeconds'
  >,
): number {
  return retryAttemptsToOutlast(polling.exportDeadlineSeconds, {
    intervalSeconds: polling.statusPollIntervalSeconds,
    maxDelaySeconds: polling.statusPollMaxDelaySeconds,
  });
}

/** The create task's retry while the upstream is throttled, paced or down: quick at first, then once a minute. */
export const CREATE_RETRY_INTERVAL_SECONDS = 2;
export const CREATE_RETRY_MAX_DELAY_SECONDS = 60;
export const CREATE_RETRY_BACKOFF_RATE = 2;

/** `MaxAttempts` of the create task's retrier: enough to keep trying until the export deadline. */
export function createRetryMaxAttempts(polling: Pick<PollingConfig, 'exportDeadlineSeconds'>): number {
  return retryAttemptsToOutlast(polling.exportDeadlineSeconds, {
    intervalSeconds: CREATE_RETRY_INTERVAL_SECONDS,
    maxDelaySeconds: CREATE_RETRY_MAX_DELAY_SECONDS,
  });
}

/**
 * Attempts of a retrier doubling from `intervalSeconds` to `maxDelaySeconds` with full jitter
 * that outlast `deadlineSeconds`. Full jitter draws each delay uniformly from zero to the
 * backed-off interval, so a delay averages half of it.
 */
function retryAttemptsToOutlast(
  deadlineSeconds: number,
  {
    intervalSeconds: firstIntervalSeconds,
    maxDelaySeconds,
  }: { intervalSeconds: number; maxDelaySeconds: number },
): number {
  let meanElapsedSeconds = 0;
  let attempts = 0;
  let intervalSeconds = firstIntervalSeconds;
  // Backing off: at most log2(maxDelay / interval) attempts before the cap.
  while (intervalSeconds < maxDelaySeconds && meanElapsedSeconds < deadlineSeconds) {
    meanElapsedSeconds += intervalSeconds / 2;
    intervalSeconds *= STATUS_POLL_BACKOFF_RATE;
    attempts += 1;
  }
  // At the cap: every delay averages half of it.
  const remainingSeconds = Math.max(0, deadlineSeconds - meanElapsedSeconds);
  attempts += Math.ceil(remainingSeconds / (maxDelaySeconds / 2));
  return Math.min(STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS, attempts * ATTEMPTS_SAFETY_FACTOR);
}
