import { finishInterruptedBackfills } from '../backfill/createBackfill';
import type { BackfillDependencies } from '../backfill/ports';
import { WindowState } from '../coverage/CoverageLedger';
import { advanceWindow } from '../coverage/coverageWindows';
import type { FleetDependencies } from '../fleet/ports';
import { trackFreshness } from '../fleet/trackFreshness';
import { abortExport } from '../lifecycle/abortExport';
import { checkExport } from '../lifecycle/checkExport';
import { startNextQueued } from '../queue/spotQueue';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { ExportAlreadyFinishedError } from '../record/errors';
import { isTransientFailure } from '../record/failureReasons';
import { restateWindow } from '../restatement/restateWindow';
import { isoAt } from '../time/instants';
import { ensurePollingWorkflow, startWorkflowExecution } from '../workflow/startWorkflow';
import { ReconcileFailedError } from './errors';

/** Records repaired per reconciler run; the rest wait for the next run. */
export const RECONCILE_BATCH_SIZE = 25;
/**
 * How long one sweep records the windows of backfills whose creation was interrupted; a long plan
 * goes on in the next sweep. Well within the reconcile function's 5 minutes.
 */
export const RECONCILE_BACKFILL_RECORDING_BUDGET_SECONDS = 60;
const MS_PER_SECOND = 1000;
const EXECUTION_ATTEMPT_SUFFIX = /-r(\d+)$/;

export interface ReconcileSummary {
  /** Active exports looked at (not polled for a while). */
  examined: number;
  /** Of those, the ones that turned out finished. */
  finished: number;
  /** Of those, the ones whose lost workflow was started again. */
  workflowsRestarted: number;
  /** Queued exports started because their spot was free (a lost start after a release, a crash). */
  queuedStarted: number;
  /** COMPLETED exports whose archive was left unfinished, given a workflow that archives them. */
  archivesRestarted: number;
  /** Coverage windows that were due: retried, their export recorded, or their outcome settled. */
  windowsAdvanced: number;
  /** Backfills whose creation was interrupted, now recorded to their end. */
  backfillsFinished: number;
  /** COMPLETED exports from before the archive was indexed, put in the reconciler's index. */
  legacyArchivesIndexed: number;
  /** Configured spots behind their freshness target (measured given the freshness marks only). */
  staleSpots: number;
  failures: number;
}

/**
 * @throws ReconcileFailedError after the whole sweep when a record failed for a reason that is
 *   not passing (e.g. a missing grant), so the run fails visibly (logged at ERROR, retried, DLQ).
 *
 * Repairs what a lost workflow, a crash or an interrupted step left behind, oldest first, a
 * batch of each per run:
 * - active exports nobody has polled for a while: poll, resend a pending abort, give a
 *   still-running export a new workflow if its own is gone;
 * - COMPLETED exports whose archive never finished: a workflow that archives them;
 * - coverage windows that are due: retried after their cooldown, their export recorded or their
 *   outcome settled if a crash lost it; covered ones restated at their ages (lib/exports/restatement);
 * - backfills whose creation was interrupted: their remaining windows recorded and queued;
 * - queued exports whose spot is free: started;
 * - given the freshness marks, every configured spot measured against its freshness target
 *   (metrics, and `Coverage Stale` / `Coverage Fresh` once per episode).
 * One item's failure does not stop the sweep.
 */
export async function reconcileExports(
  deps: BackfillDependencies & Partial<Pick<FleetDependencies, 'freshnessMarks'>>,
  batchSize = RECONCILE_BATCH_SIZE,
): Promise<ReconcileSummary> {
  const staleBefore = isoAt(deps.now() - deps.settings.reconcileStaleAfterSeconds * MS_PER_SECOND);
  const stale = await deps.store.findActiveNotPolledSince(staleBefore, batchSize);
  const summary: ReconcileSummary = {
    examined: stale.length,
    finished: 0,
    workflowsRestarted: 0,
    queuedStarted: 0,
    archivesRestarted: 0,
    windowsAdvanced: 0,
    backfillsFinished: 0,
    legacyArchivesIndexed: 0,
    staleSpots: 0,
    failures: 0,
  };
  const unexpected: { exportId: string; error: unknown }[] = [];
  // One item's failure does not stop the sweep: a passing outage is the next run's; anything else
  // (a missing grant, a bug) is thrown once the sweep is over, so it is seen.
  const attempt = async (exportId: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      summary.failures += 1;
      if (!isTransientFailure(error)) unexpected.push({ exportId, error });
    }
  };
  for (const record of stale) {
    await attempt(record.exportId, async () => {
      const next = await reconcileOne(deps, record);
      if (isTerminal(next.status)) summary.finished += 1;
      else if (next.workflowExecutionName !== record.workflowExecutionName) summary.workflowsRestarted += 1;
    });
  }
  await attempt('legacy archives', async () => {
    summary.legacyArchivesIndexed = await deps.store.indexLegacyArchives();
  });
  if (deps.settings.archiving) {
    for (const record of await deps.store.findArchivePending(isoAt(deps.now()), batchSize)) {
      await attempt(record.exportId, async () => {
        if (await restartArchiveWorkflow(deps, record)) summary.archivesRestarted += 1;
      });
    }
  }
  await attempt('interrupted backfills', async () => {
    const recordUntilMs = deps.now() + RECONCILE_BACKFILL_RECORDING_BUDGET_SECONDS * MS_PER_SECOND;
    summary.backfillsFinished = await finishInterruptedBackfills(deps, batchSize, recordUntilMs);
  });
  for (const window of await deps.coverage.findDueWindows(isoAt(deps.now()), batchSize)) {
    await attempt(window.exportId, async () => {
      // A covered window is due for its restatement; any other, for its own export.
      const advanced =
        window.state === WindowState.COVERED
          ? await restateWindow(deps, window)
          : await advanceWindow(deps, window);
      if (advanced !== 'nothing to do') summary.windowsAdvanced += 1;
    });
  }
  // Last: the windows just retried, and the spots the sweep freed, may have queued exports to start.
  const queuedSpots = new Set((await deps.store.findQueued(batchSize)).map((record) => record.spotId));
  for (const spotId of queuedSpots) {
    await attempt(spotId, async () => {
      if ((await startNextQueued(deps, spotId)) !== undefined) summary.queuedStarted += 1;
    });
  }
  const { freshnessMarks } = deps;
  if (freshnessMarks !== undefined) {
    await attempt('freshness', async () => {
      summary.staleSpots = (await trackFreshness({ ...deps, freshnessMarks })).stale.length;
    });
  }
  if (unexpected.length > 0) throw new ReconcileFailedError(summary, unexpected);
  return summary;
}

/**
 * A COMPLETED export whose archive never finished (a crash, a lost or timed-out workflow, a record
 * from before the archive existed) gets a workflow again: its create and poll tasks find it
 * COMPLETED at once and its archive task archives it (or records it FAILED once the links expired,
 * which the window's retries then answer). The execution's name is fixed per lapsed claim, so two
 * sweeps before the new run claims the archive start one workflow. False while a workflow of it runs.
 */
async function restartArchiveWorkflow(deps: BackfillDependencies, record: ExportRecord): Promise<boolean> {
  if (
    record.workflowExecutionName !== undefined &&
    (await deps.workflows.isRunning(record.workflowExecutionName))
  )
    return false;
  const lapsedAt = record.archive?.claimedUntil ?? record.completedAt ?? record.requestedAt;
  const executionName = `${record.exportId}-a${Math.floor(Date.parse(lapsedAt) / MS_PER_SECOND)}`;
  if (!(await startWorkflowExecution(deps, record, executionName))) return false;
  deps.metrics.count('ArchivesRestarted');
  return true;
}

async function reconcileOne(deps: BackfillDependencies, record: ExportRecord): Promise<ExportRecord> {
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
  deps: BackfillDependencies,
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
