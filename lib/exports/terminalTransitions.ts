import type { ExportRecord } from './ExportRecord';
import { ExportStatus, isTerminal } from './ExportStatus';
import type { ExportDependencies } from './ports';

/**
 * After a write made the export terminal (COMPLETED, FAILED, ABORTED): free the spot, tell the
 * world, count it. Called once, by the writer that won the transition.
 */
export async function onTerminal(
  deps: Pick<ExportDependencies, 'spotLocks' | 'events' | 'metrics'>,
  record: ExportRecord,
): Promise<void> {
  if (!isTerminal(record.status)) return;
  await deps.spotLocks.release(record.spotId, record.exportId);
  await deps.events.publishTerminal(record);
  deps.metrics.count(
    record.status === ExportStatus.COMPLETED
      ? 'ExportsCompleted'
      : record.status === ExportStatus.ABORTED
        ? 'ExportsAborted'
        : 'ExportsFailed',
  );
}
