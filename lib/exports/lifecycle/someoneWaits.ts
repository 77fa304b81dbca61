import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import type { LifecycleDependencies } from './ports';

/**
 * Whether anyone waits for this export to end: a caller who asked for it urgently, or whatever the
 * spot's queue holds behind it (a queued export, a backfill window), which starts only once this
 * one is seen done. Only then are polls worth spending close around its expected end; otherwise
 * the first poll comes when most of the spot's exports had ended and later ones back off. Asked
 * afresh at each poll, so a queue that fills while the export runs switches it to close polling.
 * A queue that cannot be read counts as waiting: a few more polls cost less than a late find.
 */
export async function someoneWaitsFor(
  deps: Pick<LifecycleDependencies, 'store'>,
  record: ExportRecord,
): Promise<boolean> {
  if (record.urgent === true) return true;
  try {
    const queued = await deps.store.listExports(record.spotId, { status: ExportStatus.QUEUED, limit: 1 });
    return queued.items.length > 0;
  } catch {
    return true;
  }
}
