import { erasureExecutionName, erasureWorkflowInput } from '../lib/exports/erasure/erasureWorkflowContract';
import type { ErasureStore, ErasureWorkflows } from '../lib/exports/erasure/ports';

/** At most this many RUNNING erasures are taken up at a start. */
export const RESUME_ERASURES_AT_START = 100;
/** Later than any lease: at a start every RUNNING erasure is taken up, its lease held by no living run. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/**
 * At a start, every RUNNING erasure gets its workflow again, where it was. One runtime holds a
 * data directory at a time (./instanceGuard.ts), so a run recorded on the erasure belonged to a
 * runtime that stopped or died: the new execution takes that run's name, and so re-enters its
 * lease instead of waiting for it to lapse. Answers how many were taken up.
 */
export async function resumeRunningErasures(
  erasures: Pick<ErasureStore, 'findRunning'>,
  workflows: ErasureWorkflows,
): Promise<number> {
  const running = await erasures.findRunning(END_OF_TIME, RESUME_ERASURES_AT_START);
  for (const record of running) {
    const executionName = record.runId ?? erasureExecutionName(record.erasureId);
    await workflows.start(executionName, erasureWorkflowInput(record, executionName));
  }
  return running.length;
}
