import { publishOrCount } from '../coverage/publishOrCount';
import { startNextQueuedLater } from '../queue/spotQueue';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { recordExportOutcomeLater } from '../restatement/recordExportOutcome';
import type { LifecycleDependencies } from './ports';

/**
 * After a write made the export terminal (COMPLETED, FAILED, ABORTED): free the spot, tell the
 * world, count it, write what it means for its coverage window, and start the spot's next queued
 * export at once. Called once, by the writer that won the transition.
 */
export async function onTerminal(deps: LifecycleDependencies, record: ExportRecord): Promise<void> {
  if (!isTerminal(record.status)) return;
  const released = await deps.spotLocks.release(record.spotId, record.exportId);
  // A refused announcement is counted; the window and the queue behind the export still move on.
  await publishOrCount(deps, () => deps.events.publishTerminal(record));
  deps.metrics.count(
    record.status === ExportStatus.COMPLETED
      ? 'ExportsCompleted'
      : record.status === ExportStatus.ABORTED
        ? 'ExportsAborted'
        : 'ExportsFailed',
  );
  // Its window, if it exports one, is covered or tried again (a COMPLETED one once archived).
  await recordExportOutcomeLater(deps, record);
  // A queued export that ends frees nothing; one that held the spot hands it on.
  if (released) await startNextQueuedLater(deps, record.spotId);
}
