import { abortExport } from './abortExport';
import { checkExport } from './checkExport';
import type { ExportRecord } from './ExportRecord';
import { ExportStatus, isTerminal } from './ExportStatus';
import { ExportAlreadyFinishedError, ReconcileFailedError } from './errors';
import { isoAt } from './isoAt';
import { isTransientFailure } from './isTransientFailure';
import type { ExportDependencies } from './ports';
import { ensurePollingWorkflow } from './startWorkflow';

/** Records repaired per reconciler run; the rest wait for the next run. */
export const RECONCILE_BATCH_SIZE = 25;
const MS_PER_SECOND = 1000;
const EXECUTION_ATTEMPT_SUFFIX = /-r(\d+)$/;

export interface ReconcileSummary {
  examined: number;
  finished: number;
  workflowsRestarted: number;
  failures: number;
}

/**
 * @throws ReconcileFailedError after the whole sweep when a record failed for a reason that is
 *   not passing (e.g. a missing grant), so the run fails visibly (logged at ERROR, retried, DLQ).
 *
 * Sweeps active exports nobody has polled for a while (a workflow died, a deploy
 * happened, an abort was interrupted) and brings each one forward: poll it, resend
 * a pending abort, and give a still-running export a new workflow if its own is gone.
 * One record's failure does not stop the sweep.
 */
export async function reconcileExports(
  deps: ExportDependencies,
  batchSize = RECONCILE_BATCH_SIZE,
): Promise<ReconcileSummary> {
  const staleBefore = isoAt(deps.now() - deps.settings.reconcileStaleAfterSeconds * MS_PER_SECOND);
  const stale = await deps.store.findActiveNotPolledSince(staleBefore, batchSize);
  const summary: ReconcileSummary = {
    examined: stale.length,
    finished: 0,
    workflowsRestarted: 0,
    failures: 0,
  };
  const unexpected: { exportId: string; error: unknown }[] = [];
  for (const record of stale) {
    try {
      const next = await reconcileOne(deps, record);
      if (isTerminal(next.status)) summary.finished += 1;
      else if (next.workflowExecutionName !== record.workflowExecutionName) summary.workflowsRestarted += 1;
    } catch (error) {
      summary.failures += 1;
      // A passing outage is the next run's; anything else (a missing grant, a bug) must be seen.
      if (!isTransientFailure(error)) unexpected.push({ exportId: record.exportId, error });
    }
  }
  if (unexpected.length > 0) throw new ReconcileFailedError(summary, unexpected);
  return summary;
}

async function reconcileOne(deps: ExportDependencies, record: ExportRecord): Promise<ExportRecord> {
  const command = { spotId: record.spotId, exportId: record.exportId };
  const next =
    record.status === ExportStatus.ABORTING
      ? await finishInterruptedAbort(deps, command)
      : await checkExport(deps, { ...command, mode: 'reconcile' });
  if (isTerminal(next.status)) return next;
  const executionName = next.workflowExecutionName;
  if (executionName !== undefined && (await deps.workflows.isRunning(executionName))) return next;
  const restarted = await ensurePollingWorkflow(deps, next, nextAttempt(executionName));
  deps.metrics.count('WorkflowsRestarted');
  return restarted;
}

/** Resends a pending abort; when the upstream finished the export first, its outcome stands. */
async function finishInterruptedAbort(
  deps: ExportDependencies,
  command: { spotId: string; exportId: string },
): Promise<ExportRecord> {
  try {
    return await abortExport(deps, { ...command, reason: 'requested' });
  } catch (error) {
    if (error instanceof ExportAlreadyFinishedError) return error.current;
    throw error;
  }
}

function nextAttempt(executionName: string | undefined): number {
  if (executionName === undefined) return 0;
  const match = EXECUTION_ATTEMPT_SUFFIX.exec(executionName);
  return match ? Number(match[1]) + 1 : 1;
}
