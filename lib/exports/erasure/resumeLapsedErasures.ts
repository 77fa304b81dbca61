import { erasureResumeExecutionName, erasureWorkflowInput } from './erasureWorkflowContract';
import type { ErasureStore, ErasureWorkflows } from './ports';

export interface ResumeErasuresDependencies {
  erasures: Pick<ErasureStore, 'findRunning'>;
  erasureWorkflows: ErasureWorkflows;
  /** Epoch ms. */
  now: () => number;
}

export interface ResumeErasuresSummary {
  /** RUNNING erasures nobody held since before the cut-off, given a workflow. */
  erasuresResumed: number;
  erasureResumeFailures: number;
}

/** Erasures given a new workflow per sweep; the rest wait for the next sweep. */
export const RESUME_ERASURES_BATCH_SIZE = 25;
const MS_PER_SECOND = 1000;

/**
 * The reconciler's part for erasures: a RUNNING erasure whose lease lapsed `graceSeconds` ago (its
 * workflow died, timed out, or handed over), or that no run has held for that long (a start that
 * was lost), is given a new execution, which resumes it where it was. The execution's name is made
 * from the lapsed state, so two sweeps that find the same one start it once.
 */
export async function resumeLapsedErasures(
  deps: ResumeErasuresDependencies,
  graceSeconds: number,
  batchSize = RESUME_ERASURES_BATCH_SIZE,
): Promise<ResumeErasuresSummary> {
  const before = new Date(deps.now() - graceSeconds * MS_PER_SECOND).toISOString();
  const lapsed = await deps.erasures.findRunning(before, batchSize);
  const summary: ResumeErasuresSummary = { erasuresResumed: 0, erasureResumeFailures: 0 };
  for (const record of lapsed) {
    const executionName = erasureResumeExecutionName(record);
    try {
      await deps.erasureWorkflows.start(executionName, erasureWorkflowInput(record, executionName));
      summary.erasuresResumed++;
    } catch {
      // The next sweep finds it again.
      summary.erasureResumeFailures++;
    }
  }
  return summary;
}
