import { type CoverageWindow, WindowState } from '../coverage/CoverageLedger';
import { abortExport } from '../lifecycle/abortExport';
import { isActive } from '../record/ExportStatus';
import { ExportAlreadyFinishedError, ExportNotFoundError } from '../record/errors';
import { isoAt } from '../time/instants';
import { type BackfillRecord, BackfillState, isWindowOfBackfill } from './BackfillRecord';
import { BackfillNotFoundError } from './errors';
import type { BackfillDependencies } from './ports';
import { type BackfillReport, backfillProgressOf } from './readBackfill';

/** Tries of withdrawing a window that changed under the abort (a retry started a new attempt). */
const WITHDRAW_ATTEMPTS = 3;

export interface AbortBackfillCommand {
  spotId: string;
  backfillId: string;
}

/**
 * Stops a backfill: it is marked ABORTED, then each of its unfinished windows is withdrawn from
 * the ledger (its hours free to plan again) and its export aborted: a queued one leaves the queue
 * with nothing sent upstream, the running one is aborted upstream. Finished windows stay as they
 * are (archived data is kept; a gap stays a gap). Queued windows go first, so the end of the
 * running export starts none of them. Repeating it is safe.
 * @throws BackfillNotFoundError
 */
export async function abortBackfill(
  deps: BackfillDependencies,
  command: AbortBackfillCommand,
): Promise<BackfillReport> {
  const { spotId, backfillId } = command;
  const found = await deps.backfills.get(spotId, backfillId);
  if (found === undefined) throw new BackfillNotFoundError(spotId, backfillId);
  const record =
    found.state === BackfillState.ABORTED
      ? found
      : await deps.backfills.markAborted(spotId, backfillId, isoAt(deps.now()));
  if (found.state !== BackfillState.ABORTED) deps.metrics.count('BackfillsAborted');
  await withdrawBackfillWindows(deps, record);
  return { record, progress: await backfillProgressOf(deps, record) };
}

/** Withdraws every unfinished window of an aborted backfill, the running ones last. */
export async function withdrawBackfillWindows(
  deps: BackfillDependencies,
  record: BackfillRecord,
): Promise<void> {
  const running: { from: string; until: string }[] = [];
  for (const planned of record.windows) {
    const window = await deps.coverage.getWindow(record.spotId, planned.from, planned.until);
    if (window === undefined || !isUnfinishedWindowOf(window, record.backfillId)) continue;
    if (window.state === WindowState.IN_FLIGHT) {
      const exported = await deps.store.getExport(record.spotId, window.exportId);
      if (exported !== undefined && isActive(exported.status)) {
        running.push(planned);
        continue;
      }
    }
    await withdrawWindow(deps, record, planned);
  }
  for (const planned of running) await withdrawWindow(deps, record, planned);
  // A repeated abort whose first try deleted the running window but could not abort its export.
  const lock = await deps.spotLocks.get(record.spotId);
  if (lock !== undefined) {
    const holder = await deps.store.getExport(record.spotId, lock.exportId);
    if (holder?.origin?.backfillId === record.backfillId && isActive(holder.status))
      await abortQuietly(deps, record.spotId, holder.exportId);
  }
}

/**
 * Takes the window out of the ledger (only while unfinished and still this backfill's), then
 * aborts its export: removed first, the abort writes no gap for it and announces none.
 */
async function withdrawWindow(
  deps: BackfillDependencies,
  record: BackfillRecord,
  planned: { from: string; until: string },
): Promise<void> {
  for (let attempt = 0; attempt < WITHDRAW_ATTEMPTS; attempt += 1) {
    const window = await deps.coverage.getWindow(record.spotId, planned.from, planned.until);
    if (window === undefined || !isUnfinishedWindowOf(window, record.backfillId)) return;
    const removed = await deps.coverage.deleteWindow(
      record.spotId,
      planned.from,
      planned.until,
      window.exportId,
      { expectedStates: [WindowState.IN_FLIGHT, WindowState.RETRYING] },
    );
    if (!removed) continue;
    if (window.state === WindowState.IN_FLIGHT) await abortQuietly(deps, record.spotId, window.exportId);
    return;
  }
}

/** Aborts an export, unless it ended first or was never recorded. */
async function abortQuietly(deps: BackfillDependencies, spotId: string, exportId: string): Promise<void> {
  try {
    await abortExport(deps, { spotId, exportId, reason: 'requested' });
  } catch (error) {
    if (error instanceof ExportAlreadyFinishedError || error instanceof ExportNotFoundError) return;
    throw error;
  }
}

function isUnfinishedWindowOf(window: CoverageWindow, backfillId: string): boolean {
  return (
    isWindowOfBackfill(window, backfillId) &&
    (window.state === WindowState.IN_FLIGHT || window.state === WindowState.RETRYING)
  );
}
