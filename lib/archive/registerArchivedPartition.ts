import type { ExportRecord } from '../exports/record/ExportRecord';
import { archivePartitionDate } from './archiveKeys';
import type { TablePartitions } from './ports';

/**
 * Registers the table partition an export's Parquet files were stored in (the export's spot
 * and partition date), so a query that runs next sees them. Called once the files are stored
 * and before the archive is recorded: a failure is retried with the archive, and registering
 * again is harmless.
 */
export async function registerArchivedPartition(
  partitions: TablePartitions,
  record: Pick<ExportRecord, 'spotId' | 'request' | 'requestedAt'>,
): Promise<void> {
  await partitions.register(record.spotId, archivePartitionDate(record.request, record.requestedAt));
}
