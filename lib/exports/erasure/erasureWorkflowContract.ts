import { SPOT_ID_PATTERN } from '../record/spotId';
import { type ErasureRecord, isValidErasureId } from './ErasureRecord';
import type { RunErasureResult } from './runErasure';

/**
 * The erasure workflow's contract (infra/ErasureWorkflow.ts runs it, functions/erasure-task.ts
 * serves its task): the execution's input, which is also the task's, and the task's output, which
 * the state machine's Choice reads and passes on as the next task's input.
 *
 * EraseSlice → outcome: finished → ErasureFinished; more → EraseSlice; busy or waiting →
 * WaitBeforeNextSlice → EraseSlice; a pass count at ERASURE_WORKFLOW_MAX_PASSES ends the
 * execution (ErasureHandedOver): its lease lapses and the reconciler starts the next one.
 */
export interface ErasureWorkflowInput {
  spotId: string;
  erasureId: string;
  /** Who holds the erasure's lease: the execution's name, so a retried task re-enters its own lease. */
  runId: string;
  /** Slices run so far by this execution. */
  passes: number;
}

export interface ErasureTaskOutput extends ErasureWorkflowInput {
  outcome: RunErasureResult['outcome'];
}

/** The task output's fields and values the state machine's Choice reads. */
export const ERASURE_TASK_OUTCOME_PATH = '$.outcome';
export const ERASURE_TASK_PASSES_PATH = '$.passes';

/**
 * Slices one execution runs at most: its history stays below Step Functions' 25,000 events (9
 * events per slice and its wait, 37 if every retry of the slice is spent), however long an
 * archive in progress keeps it waiting.
 */
export const ERASURE_WORKFLOW_MAX_PASSES = 500;
/** How long the workflow waits before the next slice when another run holds the erasure or an archive is in progress. */
export const ERASURE_WAIT_SECONDS = 60;
/** How long one slice goes on beginning exports: well within the task function's 15 minutes. */
export const ERASURE_SLICE_SECONDS = 10 * 60;
/**
 * How long a slice's lease lasts (renewed at every export): longer than a slice's function may run
 * and the wait after it, so an execution keeps its erasure between slices; after a crash another
 * run takes it up once this has passed.
 */
export const ERASURE_LEASE_SECONDS = 20 * 60;

/** Step Functions' longest execution name. */
const EXECUTION_NAME_MAX_LENGTH = 80;
const MS_PER_SECOND = 1000;

/** The first execution of an erasure: its id, so two starts of it are one. */
export function erasureExecutionName(erasureId: string): string {
  return erasureId;
}

/**
 * The execution that takes up an erasure whose run lapsed (or a FAILED one asked for again): the
 * erasure id and the instant of the state it takes up, so two sweeps that find the same lapsed
 * run start one execution, and a later lapse gets a name of its own.
 */
export function erasureResumeExecutionName(record: ErasureRecord): string {
  const since = Math.floor(Date.parse(record.leaseUntil ?? record.updatedAt) / MS_PER_SECOND);
  return `${record.erasureId}-r${since}`.slice(0, EXECUTION_NAME_MAX_LENGTH);
}

/** The input of an execution named `runId` erasing `record`. */
export function erasureWorkflowInput(record: Pick<ErasureRecord, 'spotId' | 'erasureId'>, runId: string) {
  return {
    spotId: record.spotId,
    erasureId: record.erasureId,
    runId,
    passes: 0,
  } satisfies ErasureWorkflowInput;
}

const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

/** Whether a task event is the erasure task's input (the state machine passes the execution's input, then the last output). */
export function isErasureWorkflowInput(event: unknown): event is ErasureWorkflowInput {
  if (typeof event !== 'object' || event === null) return false;
  const { spotId, erasureId, runId, passes } = event as Record<string, unknown>;
  return (
    typeof spotId === 'string' &&
    SPOT_ID_PATTERN.test(spotId) &&
    isValidErasureId(erasureId) &&
    typeof runId === 'string' &&
    RUN_ID_PATTERN.test(runId) &&
    typeof passes === 'number' &&
    Number.isInteger(passes) &&
    passes >= 0
  );
}
