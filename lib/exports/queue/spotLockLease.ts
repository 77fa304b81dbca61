import type { ExportSettings } from '../record/ExportSettings';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { SpotBusyError } from './errors';
import type { QueueDependencies } from './ports';

const MS_PER_SECOND = 1000;

/** Extra lock lease beyond the deadline, so the lock outlives the workflow that releases it. */
export const SPOT_LOCK_DEADLINE_MARGIN_SECONDS = 15 * 60;

/**
 * How long an export holds its spot without renewal: as long as the export may run, plus a
 * margin, so no second export starts while the upstream is slow. The one lease formula.
 */
export function exportLockLeaseSeconds(settings: Pick<ExportSettings, 'exportDeadlineSeconds'>): number {
  return settings.exportDeadlineSeconds + SPOT_LOCK_DEADLINE_MARGIN_SECONDS;
}

/** Takes (or renews) the spot for an export for the export's lease. @throws SpotBusyError */
export async function holdSpotLock(
  deps: Pick<QueueDependencies, 'spotLocks' | 'settings'>,
  spotId: string,
  exportId: string,
): Promise<void> {
  await deps.spotLocks.acquire(spotId, exportId, { leaseSeconds: exportLockLeaseSeconds(deps.settings) });
}

/**
 * Takes the spot for this export. A holder that is not running any more is freed first: one that
 * finished but lost its release to a crash, or a start that died between taking the lock and
 * recording its export (no record, or a record still QUEUED, once the start lease is over).
 * @throws SpotBusyError while another export runs
 */
export async function takeSpotLock(
  deps: Pick<QueueDependencies, 'store' | 'spotLocks' | 'settings' | 'now'>,
  spotId: string,
  exportId: string,
): Promise<void> {
  try {
    await holdSpotLock(deps, spotId, exportId);
  } catch (error) {
    if (!(error instanceof SpotBusyError) || error.lock === undefined) throw error;
    const holder = await deps.store.getExport(spotId, error.lock.exportId);
    const acquiredMs = Date.parse(error.lock.acquiredAt);
    // A start (or a dequeue) that died between taking the lock and recording the export's move.
    const startAbandoned =
      (holder === undefined || holder.status === ExportStatus.QUEUED) &&
      deps.now() > acquiredMs + deps.settings.startLockLeaseSeconds * MS_PER_SECOND;
    if (!startAbandoned && (holder === undefined || !isTerminal(holder.status))) throw error;
    await deps.spotLocks.release(spotId, error.lock.exportId);
    await holdSpotLock(deps, spotId, exportId);
  }
}
