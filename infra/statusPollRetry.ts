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
/**
 * A create put off until a long deadline would try so often that the execution's history fills
 * up: the cap grows with the deadline (60 s up to 12 hours, then a 720th of the deadline).
 */
const CREATE_RETRY_CAP_SHARE_OF_DEADLINE = 720;

/** The create retrier's cap for this deadline. */
export function createRetryMaxDelaySeconds(polling: Pick<PollingConfig, 'exportDeadlineSeconds'>): number {
  return Math.max(
    CREATE_RETRY_MAX_DELAY_SECONDS,
    Math.ceil(polling.exportDeadlineSeconds / CREATE_RETRY_CAP_SHARE_OF_DEADLINE),
  );
}

/** `MaxAttempts` of the create task's retrier: enough to keep trying until the export deadline. */
export function createRetryMaxAttempts(polling: Pick<PollingConfig, 'exportDeadlineSeconds'>): number {
  return retryAttemptsToOutlast(polling.exportDeadlineSeconds, {
    intervalSeconds: CREATE_RETRY_INTERVAL_SECONDS,
    maxDelaySeconds: createRetryMaxDelaySeconds(polling),
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

/** Attempts of the retriers outside the loops: the timeout abort, the archive, recording its failure. */
export const TRANSIENT_RETRY_MAX_ATTEMPTS = 6;
export const ARCHIVE_RETRY_MAX_ATTEMPTS = 6;

/** Step Functions ends a Standard execution that reaches this many history events. */
export const STEP_FUNCTIONS_MAX_HISTORY_EVENTS = 25_000;
/** A Lambda task attempt writes TaskScheduled, TaskStarted and TaskSucceeded or TaskFailed. */
const EVENTS_PER_TASK_ATTEMPT = 3;
/**
 * Everything but the task attempts, generously: execution started and ended, each state
 * entered and exited (11 states at most on one path), the first wait's two events.
 */
const FIXED_HISTORY_EVENTS = 40;

export interface HistoryBudget {
  /** The most history events one execution can write. */
  worstCaseEvents: number;
  /** The sum, for an error message. */
  arithmetic: string;
}

/**
 * The worst case of one execution's history: every retrier using all its attempts (full jitter
 * can make delays short, so only `MaxAttempts` bounds them), three events per task attempt.
 */
export function workflowHistoryBudget(
  polling: Pick<
    PollingConfig,
    'exportDeadlineSeconds' | 'statusPollIntervalSeconds' | 'statusPollMaxDelaySeconds'
  >,
): HistoryBudget {
  const attempts = {
    create: createRetryMaxAttempts(polling),
    poll: statusPollMaxAttempts(polling),
    // AbortOnTimeout, ArchiveFiles and RecordArchiveFailure, each with its own retrier.
    others: 2 * TRANSIENT_RETRY_MAX_ATTEMPTS + ARCHIVE_RETRY_MAX_ATTEMPTS,
  };
  const total = attempts.create + attempts.poll + attempts.others;
  const worstCaseEvents = total * EVENTS_PER_TASK_ATTEMPT + FIXED_HISTORY_EVENTS;
  return {
    worstCaseEvents,
    arithmetic:
      `(${attempts.create} create + ${attempts.poll} poll + ${attempts.others} other task attempts) × ` +
      `${EVENTS_PER_TASK_ATTEMPT} events + ${FIXED_HISTORY_EVENTS} = ${worstCaseEvents}`,
  };
}
