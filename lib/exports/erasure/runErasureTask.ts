import { isTransientFailure } from '../record/failureReasons';
import { WorkflowErrorNames } from '../workflow/workflowContract';
import {
  ERASURE_LEASE_SECONDS,
  ERASURE_SLICE_SECONDS,
  type ErasureTaskOutput,
  type ErasureWorkflowInput,
} from './erasureWorkflowContract';
import { ErasureChangedError, ErasureRetryableError } from './errors';
import { type ErasureDependencies, runErasure } from './runErasure';

const MS_PER_SECOND = 1000;

/**
 * One slice of an erasure, as the workflow's task: the erasure goes on where the last run left
 * it, for ERASURE_SLICE_SECONDS at most, under the execution's lease. Another run that took the
 * erasure over meanwhile makes it `busy`: the workflow waits and looks again (it ends once that
 * run has finished the erasure). Passing trouble is thrown as ErasureRetryableError, which the
 * workflow retries; anything else fails the execution (an alarm), and the reconciler takes the
 * erasure up again once its lease has lapsed.
 */
export async function runErasureTask(
  deps: ErasureDependencies,
  input: ErasureWorkflowInput,
): Promise<ErasureTaskOutput> {
  const next = {
    spotId: input.spotId,
    erasureId: input.erasureId,
    runId: input.runId,
    passes: input.passes + 1,
  };
  try {
    const { outcome } = await runErasure(deps, {
      spotId: input.spotId,
      erasureId: input.erasureId,
      runId: input.runId,
      leaseSeconds: ERASURE_LEASE_SECONDS,
      slice: { untilMs: deps.now() + ERASURE_SLICE_SECONDS * MS_PER_SECOND },
    });
    return { ...next, outcome };
  } catch (error) {
    if (error instanceof ErasureChangedError) return { ...next, outcome: 'busy' };
    // The archive's own passing trouble carries the name the export workflow retries on.
    const passing =
      isTransientFailure(error) ||
      (error instanceof Error && error.name === WorkflowErrorNames.ARCHIVE_RETRY);
    if (passing) throw new ErasureRetryableError(input.erasureId, { cause: error });
    throw error;
  }
}
