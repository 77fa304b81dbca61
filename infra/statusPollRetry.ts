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

/**
 * `MaxAttempts` of the poll task's "still processing" retrier: enough polls to outlast the
 * export deadline. Full jitter draws each delay uniformly from zero to the backed-off
 * interval, so a delay averages half of it.
 */
export function statusPollMaxAttempts(
  polling: Pick<
    PollingConfig,
    'exportDeadlineSeconds' | 'statusPollIntervalSeconds' | 'statusPollMaxDelaySeconds'
  >,
): number {
  const deadlineSeconds = polling.exportDeadlineSeconds;
  let meanElapsedSeconds = 0;
  let attempts = 0;
  let intervalSeconds = polling.statusPollIntervalSeconds;
  // Backing off: at most log2(maxDelay / interval) polls before the cap.
  while (intervalSeconds < polling.statusPollMaxDelaySeconds && meanElapsedSeconds < deadlineSeconds) {
    meanElapsedSeconds += intervalSeconds / 2;
    intervalSeconds *= STATUS_POLL_BACKOFF_RATE;
    attempts += 1;
  }
  // At the cap: every delay averages half of it.
  const remainingSeconds = Math.max(0, deadlineSeconds - meanElapsedSeconds);
  attempts += Math.ceil(remainingSeconds / (polling.statusPollMaxDelaySeconds / 2));
  return Math.min(STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS, attempts * ATTEMPTS_SAFETY_FACTOR);
}
