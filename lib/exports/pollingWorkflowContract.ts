/**
 * The contract between the polling workflow (Step Functions, defined once in infra)
 * and the handlers it invokes. The state machine's Retry/Catch key on these names.
 */
export const PollingWorkflowErrors = {
  /** Thrown by the poll task while the upstream still processes: the Retry with backoff and jitter is the loop. */
  STILL_PROCESSING: 'ExportStillProcessing',
  /** Thrown by the poll task past the deadline: the Catch routes to the abort task. */
  POLLING_TIMED_OUT: 'ExportPollingTimedOut',
  /** A transient upstream or AWS failure: retried like a poll that learned nothing. */
  UPSTREAM_UNAVAILABLE: 'UpstreamUnavailable',
  /** Thrown by the create task when the create could not be sent yet (throttled, paced, unavailable). */
  CREATE_DEFERRED: 'ExportCreateDeferred',
  /** Thrown by the create task after the upstream refused the create; the record is FAILED. */
  CREATE_REJECTED: 'ExportCreateRejected',
  /** Thrown by the archive task for passing trouble (a 5xx from a link, storage unavailable): retried with backoff. */
  ARCHIVE_RETRY: 'ExportArchiveRetry',
} as const;

export type PollingWorkflowError = (typeof PollingWorkflowErrors)[keyof typeof PollingWorkflowErrors];

/** Execution input, given by the start use case. */
export interface PollingWorkflowInput {
  spotId: string;
  exportId: string;
  /** What the spot's history says an export takes; the first poll happens after it. */
  firstPollDelaySeconds: number;
  /** ISO instant after which the export is aborted upstream and marked ABORTED (reason: timeout). */
  deadline: string;
}

/** Input of the create task, the workflow's first step. */
export interface CreateTaskInput {
  action: 'create';
  spotId: string;
  exportId: string;
  deadline: string;
}

/**
 * Output of the create task: the state the rest of the workflow reads. The first wait is
 * learned when the create is accepted (zero when the export is already finished).
 */
export interface CreateTaskOutput {
  spotId: string;
  exportId: string;
  deadline: string;
  firstPollDelaySeconds: number;
}

/** Input of the check-status task. */
export interface PollTaskInput {
  action: 'poll';
  spotId: string;
  exportId: string;
  deadline: string;
}

/**
 * Output of the check-status task once the export is terminal. The links stay in the record:
 * they may be many and long, and a state's payload is capped at 256 KB.
 */
export interface PollTaskOutput {
  spotId: string;
  exportId: string;
  status: string;
  fileCount: number;
}

/** Input of the archive task, after the poll saw the export COMPLETED. */
export interface ArchiveTaskInput {
  action: 'archive';
  spotId: string;
  exportId: string;
}

/** Input of the task that records a FAILED archive once the workflow stopped retrying. */
export interface ArchiveFailedTaskInput {
  action: 'archiveFailed';
  spotId: string;
  exportId: string;
  /** The Catch's `{Error, Cause}` of the last attempt. */
  error?: { Error?: string; Cause?: string };
}

/** Output of the archive task. */
export interface ArchiveTaskOutput {
  spotId: string;
  exportId: string;
  archiveStatus: string;
  fileCount: number;
}

/** Input of the abort task on the timeout path. */
export interface TimeoutAbortTaskInput {
  action: 'abortOnTimeout';
  spotId: string;
  exportId: string;
}

/** Execution names are derived from the export id, so a retried start cannot launch a second workflow. */
export function pollingExecutionName(exportId: string, attempt = 0): string {
  return attempt === 0 ? exportId : `${exportId}-r${attempt}`;
}
