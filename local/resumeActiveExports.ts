import type { ArchiveRecords } from '../lib/archive/ports';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import {
  RECONCILE_BATCH_SIZE,
  type ReconcileSummary,
  reconcileExports,
} from '../lib/exports/reconciler/reconcileExports';
import { ArchiveStatus } from '../lib/exports/record/ExportArchive';
import { isoAt } from '../lib/exports/time/instants';

/** Bounds the boot sweep (25 exports each) even if records keep failing to reconcile. */
export const MAX_RESUME_BATCHES = 40;
const MS_PER_SECOND = 1000;
/** Sorts after every instant: every archive claim, lapsed or not. */
const END_OF_TIME = '~';

/**
 * After a restart nothing of the last run is running: every active export is reconciled at once
 * (the reconciler's own path with "not polled since boot" as the staleness), which polls it and
 * starts a new workflow for each one still running upstream; archives the last run was writing
 * are its no more (their claims are ended, so the reconciler archives them at once, not after
 * their lease); and the reconciler's other sweeps (queued exports, due windows) run too.
 */
export async function resumeActiveExports(
  deps: ExportDependencies,
  bootedAtMs: number,
  archives?: ArchiveRecords,
): Promise<ReconcileSummary> {
  if (archives !== undefined) await lapsePreBootArchiveClaims(deps, archives, bootedAtMs);
  const total: ReconcileSummary = {
    examined: 0,
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
  for (let batch = 0; batch < MAX_RESUME_BATCHES; batch += 1) {
    // Records this sweep already polled are newer than the boot, so each batch brings new ones.
    const sinceBootSeconds = Math.max(0, (deps.now() - bootedAtMs) / MS_PER_SECOND);
    const summary = await reconcileExports({
      ...deps,
      settings: { ...deps.settings, reconcileStaleAfterSeconds: sinceBootSeconds },
    });
    for (const key of Object.keys(total) as (keyof ReconcileSummary)[]) total[key] += summary[key];
    if (summary.examined < RECONCILE_BATCH_SIZE || summary.failures === summary.examined) break;
  }
  return total;
}

async function lapsePreBootArchiveClaims(
  deps: ExportDependencies,
  archives: ArchiveRecords,
  bootedAtMs: number,
): Promise<void> {
  const bootedAt = isoAt(bootedAtMs);
  for (const record of await deps.store.findArchivePending(
    END_OF_TIME,
    RECONCILE_BATCH_SIZE * MAX_RESUME_BATCHES,
  )) {
    const { archive } = record;
    if (archive?.status !== ArchiveStatus.PENDING || archive.runId === undefined) continue;
    if ((archive.claimedAt ?? '') >= bootedAt) continue;
    await archives.lapseClaim(record.spotId, record.exportId, archive.runId, bootedAt);
  }
}
