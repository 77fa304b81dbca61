import { type ErasureRecord, ErasureStatus, erasureIdOf, USER_ID_PATTERN } from './ErasureRecord';
import {
  erasureExecutionName,
  erasureResumeExecutionName,
  erasureWorkflowInput,
} from './erasureWorkflowContract';
import { ErasureAlreadyExistsError, InvalidUserIdError } from './errors';
import type { ErasureStore, ErasureWorkflows, SuppressionList } from './ports';

export interface RequestErasureDependencies {
  erasures: ErasureStore;
  suppressions: SuppressionList;
  /** Runs each erasure asked for (or asked for again) to its end. */
  erasureWorkflows: ErasureWorkflows;
  /** Epoch ms. */
  now: () => number;
}

export interface RequestErasureResult {
  record: ErasureRecord;
  /** False when the request is an erasure of the same user asked for before. */
  created: boolean;
  /**
   * Why its workflow could not be started, when it could not: the erasure is recorded all the
   * same, and the reconciler starts it (a RUNNING erasure nobody holds).
   */
  startFailure?: unknown;
}

/**
 * Asks for a user to be erased from a spot's archive. The user joins the spot's suppression list
 * first, so every export archived from now on is stored without their rows; then the erasure is
 * recorded RUNNING, and its workflow started (the run rewrites what is archived already). Two
 * requests for the same user are one erasure, started once; a FAILED one is taken up again by a
 * workflow of its own.
 * @throws InvalidUserIdError before anything is written
 */
export async function requestErasure(
  deps: RequestErasureDependencies,
  command: { spotId: string; userId: string },
): Promise<RequestErasureResult> {
  const { spotId, userId } = command;
  if (!USER_ID_PATTERN.test(userId)) throw new InvalidUserIdError();
  const erasureId = erasureIdOf(spotId, userId);
  const at = new Date(deps.now()).toISOString();
  await deps.suppressions.suppress(spotId, userId, erasureId, at);
  try {
    const record = await deps.erasures.create({
      spotId,
      erasureId,
      userId,
      status: ErasureStatus.RUNNING,
      requestedAt: at,
      updatedAt: at,
      exportsDone: [],
      filesRead: 0,
      files: [],
    });
    return { record, created: true, ...(await startWorkflow(deps, record, erasureExecutionName(erasureId))) };
  } catch (error) {
    if (!(error instanceof ErasureAlreadyExistsError) || error.existing === undefined) throw error;
    const existing = error.existing;
    // Its workflow runs already (a start that was lost is the reconciler's to make).
    if (existing.status !== ErasureStatus.FAILED) return { record: existing, created: false };
    const { reason: _reason, verification: _verification, ...rest } = existing;
    const retried = await deps.erasures.save({ ...rest, status: ErasureStatus.RUNNING, updatedAt: at });
    return {
      record: retried,
      created: false,
      ...(await startWorkflow(deps, retried, erasureResumeExecutionName(retried))),
    };
  }
}

/** Starts the erasure's workflow; a refused start is answered, not thrown: the erasure is recorded. */
async function startWorkflow(
  deps: RequestErasureDependencies,
  record: ErasureRecord,
  executionName: string,
): Promise<{ startFailure?: unknown }> {
  try {
    await deps.erasureWorkflows.start(executionName, erasureWorkflowInput(record, executionName));
    return {};
  } catch (startFailure) {
    return { startFailure };
  }
}
