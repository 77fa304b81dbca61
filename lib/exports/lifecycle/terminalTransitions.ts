import { publishOrCount } from '../coverage/publishOrCount';
import { startNextQueuedLater } from '../queue/spotQueue';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { isTransientFailure } from '../record/failureReasons';
import { recordExportOutcomeLater } from '../restatement/recordExportOutcome';
import type { LifecycleDependencies } from './ports';

/**
 * After a write made the export terminal (COMPLETED, FAILED, ABORTED): free the spot, tell the
 * world, count it, write what it means for its coverage window, and start the spot's next queued
 * export at once. Called once, by the writer that won the transition: so no step may keep the
 * others from running. A release the table refused for a passing reason (throttling) is tried
 * again at the end; meanwhile the lock names an export that has ended, which the next start of
 * the spot takes over.
 */
export async function onTerminal(deps: LifecycleDependencies, record: ExportRecord): Promise<void> {
  if (!isTerminal(record.status)) return;
  let released = await releaseUnlessRefused(deps, record);
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
  released ??= await releaseUnlessRefused(deps, record);
  // A queued export that ends frees nothing; one that held the spot (or may still) hands it on.
  if (released !== false) await startNextQueuedLater(deps, record.spotId);
}

/** Releases the export's spot lock: whether it held it, or undefined when the table refused for now. */
async function releaseUnlessRefused(
  deps: LifecycleDependencies,
  record: ExportRecord,
): Promise<boolean | undefined> {
  try {
    return await deps.spotLocks.release(record.spotId, record.exportId);
  } catch (error) {
    if (!isTransientFailure(error)) throw error;
    return undefined;
  }
}
