import { MAX_EXPECTED_END_SECONDS } from '../lib/exports/lifecycle/expectedExportDuration';
import { MAX_FINISHING_GRACE_SECONDS } from '../lib/exports/lifecycle/pollExportForWorkflow';
import { WorkflowErrorNames } from '../lib/exports/workflow/workflowContract';

/**
 * Every retry, backoff and timeout of the polling state machine, in one place: each task's
 * timeout, each retrier's errors, interval, cap, rate and attempts, the execution's own timeout
 * (computed from the longest path) and the bound on its history.
 */

/** Step Functions' ceiling for a retrier's `MaxAttempts`. */
export const STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS = 99_999_999;
/** Step Functions ends a Standard execution that reaches this many history events. */
export const STEP_FUNCTIONS_MAX_HISTORY_EVENTS = 25_000;

// ---- Task timeouts -----------------------------------------------------------------------------

/** The workflow-task function's timeout: one create, poll or abort, with its upstream retries. */
export const WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS = 60;
/** The archive function streams files of up to a few hundred MB: Lambda's longest timeout. */
export const ARCHIVE_FUNCTION_TIMEOUT_SECONDS = 15 * 60;
/**
 * A task's own timeout is its function's plus this: the function times out first and Lambda
 * reports `Sandbox.Timedout`; the task timeout (`States.Timeout`) catches an invocation Lambda
 * never answered.
 */
export const TASK_TIMEOUT_MARGIN_SECONDS = 30;
/** Recording a FAILED archive is one table write: it never needs the archive's 15 minutes. */
export const RECORD_ARCHIVE_FAILURE_TIMEOUT_SECONDS = 60;

export const WORKFLOW_TASK_TIMEOUT_SECONDS =
  WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS + TASK_TIMEOUT_MARGIN_SECONDS;
export const ARCHIVE_TASK_TIMEOUT_SECONDS = ARCHIVE_FUNCTION_TIMEOUT_SECONDS + TASK_TIMEOUT_MARGIN_SECONDS;

// ---- Error names -------------------------------------------------------------------------------

/**
 * The Lambda service's own passing failures, retried like the task's transient errors: AWS's
 * recommended list for Lambda tasks (and CDK's default retry).
 */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
] as const;

/**
 * A task that ran out of time: the function timed out (`Sandbox.Timedout`; `Lambda.Unknown`
 * when the runtime died without saying why) or the task's own timeout passed (`States.Timeout`,
 * raised only for a task with `TimeoutSeconds`).
 */
export const TASK_TIMEOUT_ERRORS = ['Sandbox.Timedout', 'Lambda.Unknown', 'States.Timeout'] as const;

/** Failures worth retrying on their own short schedule: the upstream or Lambda hiccupped. */
export const TRANSIENT_TASK_ERRORS = [
  WorkflowErrorNames.UPSTREAM_UNAVAILABLE,
  ...LAMBDA_SERVICE_ERRORS,
  ...TASK_TIMEOUT_ERRORS,
] as const;

/** What the tasks outside the loops retry (the timeout abort, recording a failed archive). */
export const OTHER_TASK_RETRY_ERRORS = [...LAMBDA_SERVICE_ERRORS, ...TASK_TIMEOUT_ERRORS] as const;

/**
 * What the poll task's one retrier repeats: "still processing", and transient trouble as a poll
 * that learned nothing. One retrier means one budget, bounded by the deadline, so no number of
 * hiccups over a long export exhausts it.
 */
export const POLL_RETRY_ERRORS = [WorkflowErrorNames.STILL_PROCESSING, ...TRANSIENT_TASK_ERRORS] as const;

/** What the poll task's second retrier repeats: a poll within the export's expected end. */
export const FINISHING_POLL_RETRY_ERRORS = [WorkflowErrorNames.FINISHING] as const;

/** What the create task's retrier repeats: a create that could not be sent yet, and Lambda hiccups. */
export const CREATE_RETRY_ERRORS = [
  WorkflowErrorNames.CREATE_DEFERRED,
  ...LAMBDA_SERVICE_ERRORS,
  ...TASK_TIMEOUT_ERRORS,
] as const;

/** What the archive task's retrier repeats: a download or storage hiccup, Lambda's own, a timeout. */
export const ARCHIVE_RETRY_ERRORS = [
  WorkflowErrorNames.ARCHIVE_RETRY,
  ...LAMBDA_SERVICE_ERRORS,
  ...TASK_TIMEOUT_ERRORS,
] as const;

// ---- Retriers ----------------------------------------------------------------------------------

/** One retrier's schedule: delays start at `intervalSeconds`, grow by `backoffRate`, stop at `maxDelaySeconds`. */
export interface RetrySchedule {
  intervalSeconds: number;
  maxDelaySeconds: number;
  backoffRate: number;
  maxAttempts: number;
}

/** Each poll waits twice as long as the one before, up to `statusPollMaxDelaySeconds`. */
export const STATUS_POLL_BACKOFF_RATE = 2;

/** The create task's retry while the upstream is throttled, paced or down: quick at first, then once a minute. */
export const CREATE_RETRY_INTERVAL_SECONDS = 2;
export const CREATE_RETRY_MAX_DELAY_SECONDS = 60;
export const CREATE_RETRY_BACKOFF_RATE = 2;
/**
 * A create put off until a long deadline would try so often that the execution's history fills
 * up: the cap grows with the deadline (60 s up to 12 hours, then a 720th of the deadline).
 */
const CREATE_RETRY_CAP_SHARE_OF_DEADLINE = 720;

/**
 * Polls within an export's expected end: a few seconds apart at first (full jitter), growing
 * gently, so an end near the expected one is seen within seconds and a wide window costs few
 * polls. The poll task asks for it only inside that window and only while someone waits for the
 * export (something queued behind it, or an urgent start: lib/exports/lifecycle/someoneWaits.ts);
 * the window lasts at most the expected end's span and its grace
 * (lib/exports/lifecycle/expectedExportDuration.ts, pollExportForWorkflow.ts):
 * the attempts cover that three times over, at the first interval.
 */
export const FINISHING_POLL_INTERVAL_SECONDS = 5;
export const FINISHING_POLL_BACKOFF_RATE = 1.5;
export const FINISHING_POLL_MAX_DELAY_SECONDS = 30;
const FINISHING_WINDOW_MAX_SECONDS = MAX_EXPECTED_END_SECONDS + MAX_FINISHING_GRACE_SECONDS;
export const FINISHING_POLL_RETRY: RetrySchedule = {
  intervalSeconds: FINISHING_POLL_INTERVAL_SECONDS,
  maxDelaySeconds: FINISHING_POLL_MAX_DELAY_SECONDS,
  backoffRate: FINISHING_POLL_BACKOFF_RATE,
  // Full jitter makes a delay half the interval on average.
  maxAttempts: Math.ceil(FINISHING_WINDOW_MAX_SECONDS / (FINISHING_POLL_INTERVAL_SECONDS / 2)) * 3,
};

/** The timeout abort and the record of a failed archive: a few quick retries. */
export const OTHER_TASK_RETRY: RetrySchedule = {
  intervalSeconds: 5,
  maxDelaySeconds: 120,
  backoffRate: 2,
  maxAttempts: 6,
};

/** The archive: a download or upload hiccup passes within minutes; a link that stays broken is recorded FAILED. */
export const ARCHIVE_RETRY: RetrySchedule = {
  intervalSeconds: 10,
  maxDelaySeconds: 300,
  backoffRate: 2,
  maxAttempts: 6,
};

/**
 * Headroom over the attempts that fit in the deadline on average. Full jitter can make a run of
 * delays short; tripling the mean puts running out of attempts before the deadline dozens of
 * standard deviations away, while the deadline itself (checked by the tasks) ends the loop.
 */
const ATTEMPTS_SAFETY_FACTOR = 3;

/** What the retriers are computed from: the stack configuration's `polling` (stackConfig.ts validates it with them). */
interface PollConfig {
  exportDeadlineSeconds: number;
  statusPollIntervalSeconds: number;
  statusPollMaxDelaySeconds: number;
}
type DeadlineConfig = Pick<PollConfig, 'exportDeadlineSeconds'>;

/** The poll task's retrier: the poll loop itself, enough attempts to outlast the export deadline. */
export function statusPollRetry(polling: PollConfig): RetrySchedule {
  const schedule = {
    intervalSeconds: polling.statusPollIntervalSeconds,
    maxDelaySeconds: polling.statusPollMaxDelaySeconds,
    backoffRate: STATUS_POLL_BACKOFF_RATE,
  };
  return { ...schedule, maxAttempts: attemptsToOutlast(polling.exportDeadlineSeconds, schedule) };
}

/** The create task's retrier: keeps trying until the export deadline. */
export function createRetry(polling: DeadlineConfig): RetrySchedule {
  const schedule = {
    intervalSeconds: CREATE_RETRY_INTERVAL_SECONDS,
    maxDelaySeconds: Math.max(
      CREATE_RETRY_MAX_DELAY_SECONDS,
      Math.ceil(polling.exportDeadlineSeconds / CREATE_RETRY_CAP_SHARE_OF_DEADLINE),
    ),
    backoffRate: CREATE_RETRY_BACKOFF_RATE,
  };
  return { ...schedule, maxAttempts: attemptsToOutlast(polling.exportDeadlineSeconds, schedule) };
}

/**
 * Attempts of a retrier growing by `backoffRate` from `intervalSeconds` to `maxDelaySeconds`
 * with full jitter that outlast `deadlineSeconds`. Full jitter draws each delay uniformly from
 * zero to the backed-off interval, so a delay averages half of it.
 */
function attemptsToOutlast(deadlineSeconds: number, schedule: Omit<RetrySchedule, 'maxAttempts'>): number {
  let meanElapsedSeconds = 0;
  let attempts = 0;
  let intervalSeconds = schedule.intervalSeconds;
  // Backing off: at most log(maxDelay / interval) attempts before the cap.
  while (intervalSeconds < schedule.maxDelaySeconds && meanElapsedSeconds < deadlineSeconds) {
    meanElapsedSeconds += intervalSeconds / 2;
    intervalSeconds *= schedule.backoffRate;
    attempts += 1;
  }
  // At the cap: every delay averages half of it.
  const remainingSeconds = Math.max(0, deadlineSeconds - meanElapsedSeconds);
  attempts += Math.ceil(remainingSeconds / (schedule.maxDelaySeconds / 2));
  return Math.min(STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS, attempts * ATTEMPTS_SAFETY_FACTOR);
}

/** The longest a task with this retrier can take: every attempt timing out, every delay at its cap. */
export function worstCaseTaskSeconds(schedule: RetrySchedule, taskTimeoutSeconds: number): number {
  let delaysSeconds = 0;
  let delay = schedule.intervalSeconds;
  for (let attempt = 0; attempt < schedule.maxAttempts; attempt += 1) {
    delaysSeconds += Math.min(delay, schedule.maxDelaySeconds);
    delay *= schedule.backoffRate;
  }
  return (schedule.maxAttempts + 1) * taskTimeoutSeconds + delaysSeconds;
}

// ---- The execution -----------------------------------------------------------------------------

/** Slack on top of the computed longest path: state transitions, cold starts, clock differences. */
export const STATE_MACHINE_TIMEOUT_MARGIN_SECONDS = 5 * 60;

export interface ExecutionBudget {
  /** The execution's timeout. */
  timeoutSeconds: number;
  /** The sum, for an error message or a reader. */
  arithmetic: string;
}

/**
 * The execution's timeout: the longest path through the state machine. The create and poll loops
 * end at the deadline (the first wait is capped at it), noticed at most one retry delay and one
 * task later; then either the timeout abort or the archive (and recording its failure) with all
 * their retries.
 */
export function executionTimeout(polling: PollConfig): ExecutionBudget {
  const noticeSeconds =
    Math.max(createRetry(polling).maxDelaySeconds, polling.statusPollMaxDelaySeconds) +
    WORKFLOW_TASK_TIMEOUT_SECONDS;
  const abortSeconds = worstCaseTaskSeconds(OTHER_TASK_RETRY, WORKFLOW_TASK_TIMEOUT_SECONDS);
  const archiveSeconds =
    worstCaseTaskSeconds(ARCHIVE_RETRY, ARCHIVE_TASK_TIMEOUT_SECONDS) +
    worstCaseTaskSeconds(OTHER_TASK_RETRY, RECORD_ARCHIVE_FAILURE_TIMEOUT_SECONDS);
  const afterSeconds = Math.max(abortSeconds, archiveSeconds);
  const timeoutSeconds =
    polling.exportDeadlineSeconds + noticeSeconds + afterSeconds + STATE_MACHINE_TIMEOUT_MARGIN_SECONDS;
  return {
    timeoutSeconds,
    arithmetic:
      `${polling.exportDeadlineSeconds} deadline + ${noticeSeconds} to notice it + ` +
      `max(${abortSeconds} abort, ${archiveSeconds} archive) + ${STATE_MACHINE_TIMEOUT_MARGIN_SECONDS} margin`,
  };
}

/** A Lambda task attempt writes TaskScheduled, TaskStarted and TaskSucceeded or TaskFailed (or TaskTimedOut). */
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
export function workflowHistoryBudget(polling: PollConfig): HistoryBudget {
  const attempts = {
    create: createRetry(polling).maxAttempts + 1,
    poll: statusPollRetry(polling).maxAttempts + FINISHING_POLL_RETRY.maxAttempts + 1,
    // AbortOnTimeout, ArchiveFiles and RecordArchiveFailure, each with its own retrier.
    others: 2 * (OTHER_TASK_RETRY.maxAttempts + 1) + ARCHIVE_RETRY.maxAttempts + 1,
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
