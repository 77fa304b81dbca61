/**
 * The contract between the polling workflow (the Step Functions state machine, defined once in
 * infra/PollingWorkflow.ts) and the handlers its tasks invoke (functions/workflow-task.ts and
 * functions/archive.ts): the execution's input, each task's input and output, and the error
 * names the state machine's Retry/Catch key on. The state machine builds each task's payload
 * from `WORKFLOW_TASK_FIELDS`; the handlers read it with `parseWorkflowTask`
 * (./workflowTaskInput.ts, apart so that the code that only needs these names builds no schema).
 */

/**
 * Error names thrown by the tasks on purpose, for the state machine to act on. Lambda reports an
 * error's `name` as its type, so each class in ./errors.ts is named exactly this string.
 */
export const WorkflowErrorNames = {
  /** Thrown by the poll task while the upstream still processes: the Retry with backoff and jitter is the loop. */
  STILL_PROCESSING: 'ExportStillProcessing',
  /**
   * Thrown by the poll task instead while the export is within its expected end: a Retry of its own
   * polls again within seconds, without backoff, so the end is seen as it happens.
   */
  FINISHING: 'ExportFinishing',
  /** Thrown by the create and poll tasks past the deadline: the Catch routes to the timeout abort. */
  POLLING_TIMED_OUT: 'ExportPollingTimedOut',
  /** A transient upstream or AWS failure met by a poll: retried like a poll that learned nothing. */
  UPSTREAM_UNAVAILABLE: 'UpstreamUnavailable',
  /** Thrown by the create task when the create could not be sent yet (throttled, paced, unavailable). */
  CREATE_DEFERRED: 'ExportCreateDeferred',
  /** Thrown by the create task after the upstream refused the create; the record is FAILED. */
  CREATE_REJECTED: 'ExportCreateRejected',
  /** Thrown by the archive task for passing trouble (a 5xx from a link, storage unavailable): retried with backoff. */
  ARCHIVE_RETRY: 'ExportArchiveRetry',
} as const;

export type WorkflowErrorName = (typeof WorkflowErrorNames)[keyof typeof WorkflowErrorNames];

/** Execution input, given by whoever starts the workflow (a start, the reconciler, the queue). */
export interface PollingWorkflowInput {
  spotId: string;
  exportId: string;
  /** The first poll happens this long after the create; the create task replaces it with the learned wait. */
  firstPollDelaySeconds: number;
  /** ISO instant after which the export is aborted upstream and marked ABORTED (reason: timeout). */
  deadline: string;
}

/** Execution names are derived from the export id, so a retried start cannot launch a second workflow. */
export function pollingExecutionName(exportId: string, attempt = 0): string {
  return attempt === 0 ? exportId : `${exportId}-r${attempt}`;
}

/** Which handler each task invokes. */
export const WorkflowTaskHandlers = {
  create: 'workflow-task',
  poll: 'workflow-task',
  abortOnTimeout: 'workflow-task',
  archive: 'archive',
  archiveFailed: 'archive',
} as const;

export type WorkflowTaskAction = keyof typeof WorkflowTaskHandlers;

/**
 * The named errors each task may throw on purpose (besides unexpected failures): the state
 * machine's Retry and Catch may key on these and on nothing else of the task's own.
 */
export const WORKFLOW_TASK_ERRORS = {
  create: [
    WorkflowErrorNames.CREATE_DEFERRED,
    WorkflowErrorNames.CREATE_REJECTED,
    WorkflowErrorNames.POLLING_TIMED_OUT,
  ],
  poll: [
    WorkflowErrorNames.STILL_PROCESSING,
    WorkflowErrorNames.FINISHING,
    WorkflowErrorNames.POLLING_TIMED_OUT,
    WorkflowErrorNames.UPSTREAM_UNAVAILABLE,
  ],
  abortOnTimeout: [],
  archive: [WorkflowErrorNames.ARCHIVE_RETRY],
  archiveFailed: [],
} as const satisfies Record<WorkflowTaskAction, readonly WorkflowErrorName[]>;

/** Where a payload field comes from in the state's input, and whether it is a string or an object. */
export interface WorkflowTaskField {
  path: string;
  type: 'string' | 'object';
}

const SPOT_ID: WorkflowTaskField = { path: '$.spotId', type: 'string' };
const EXPORT_ID: WorkflowTaskField = { path: '$.exportId', type: 'string' };
const DEADLINE: WorkflowTaskField = { path: '$.deadline', type: 'string' };

/** Each task's payload besides `action`: the state machine builds it from these paths. */
export const WORKFLOW_TASK_FIELDS = {
  create: { spotId: SPOT_ID, exportId: EXPORT_ID, deadline: DEADLINE },
  poll: { spotId: SPOT_ID, exportId: EXPORT_ID, deadline: DEADLINE },
  abortOnTimeout: { spotId: SPOT_ID, exportId: EXPORT_ID },
  archive: { spotId: SPOT_ID, exportId: EXPORT_ID },
  // The Catch puts the last attempt's `{Error, Cause}` beside the state's input.
  archiveFailed: { spotId: SPOT_ID, exportId: EXPORT_ID, error: { path: '$.archiveError', type: 'object' } },
} as const satisfies Record<WorkflowTaskAction, Record<string, WorkflowTaskField>>;

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

/**
 * Output of the poll task once the export is terminal. The links stay in the record: they may
 * be many and long, and a state's payload is capped at 256 KB.
 */
export interface PollTaskOutput {
  spotId: string;
  exportId: string;
  status: string;
  fileCount: number;
}

/**
 * Output of the timeout abort: the export's status once the abort is settled. An export that
 * completed before the abort took is archived next, so the output carries what the archive reads.
 */
export interface TimeoutAbortTaskOutput {
  spotId: string;
  exportId: string;
  status: string;
}

/** Output of the archive tasks. */
export interface ArchiveTaskOutput {
  spotId: string;
  exportId: string;
  archiveStatus: string;
  fileCount: number;
}

/** The action a task event names, when it names one of `actions`; whether it is well-formed is `parseWorkflowTask`'s job. */
export function workflowTaskAction<A extends WorkflowTaskAction>(
  event: unknown,
  actions: readonly A[],
): A | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const action = (event as { action?: unknown }).action;
  return actions.find((known) => known === action);
}
