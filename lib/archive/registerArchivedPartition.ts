import { CatalogStatus } from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import type { ExportMetrics } from '../exports/record/ports';
import { archivePartitionDate } from './archiveKeys';
import type { ArchiveRecords, TablePartitions } from './ports';

/** Earlier exports whose partition one archive run registers, once the catalog took its own. */
export const CATALOG_CATCH_UP_BATCH_SIZE = 25;

export interface CatalogDependencies {
  partitions: TablePartitions;
  archives: Pick<ArchiveRecords, 'findCatalogPending' | 'recordCatalogRegistered'>;
  metrics: ExportMetrics;
}

/** The catalog's state to record with an export's archive. */
export type CatalogOutcome =
  | { catalog: typeof CatalogStatus.REGISTERED }
  | { catalog: typeof CatalogStatus.PENDING; catalogReason: string };

/**
 * Registers the table partition an export's Parquet files were stored in (the export's spot
 * and partition date), so a query that runs next sees them. Never throws: the files are stored
 * whatever the catalog answers (a timeout the SDK does not retry, throttling, a refusal), so the
 * archive is recorded ARCHIVED with the catalog PENDING and the reason, and a later run catches up.
 */
export async function registerArchivedPartition(
  deps: CatalogDependencies,
  record: Pick<ExportRecord, 'spotId' | 'request' | 'requestedAt'>,
): Promise<CatalogOutcome> {
  try {
    await deps.partitions.register(record.spotId, archivePartitionDate(record.request, record.requestedAt));
    return { catalog: CatalogStatus.REGISTERED };
  } catch (error) {
    deps.metrics.count('CatalogRegistrationsDeferred');
    return { catalog: CatalogStatus.PENDING, catalogReason: reasonOf(error) };
  }
}

/**
 * Registers the partitions of earlier exports the catalog did not take, oldest first, and records
 * each one REGISTERED; run once the catalog took a partition again. Stops at the first refusal
 * (the catalog is still failing: the next run tries again). Returns how many caught up.
 */
export async function catchUpCatalog(
  deps: CatalogDependencies,
  limit = CATALOG_CATCH_UP_BATCH_SIZE,
): Promise<number> {
  let caughtUp = 0;
  try {
    for (const record of await deps.archives.findCatalogPending(limit)) {
      await deps.partitions.register(record.spotId, archivePartitionDate(record.request, record.requestedAt));
      if (await deps.archives.recordCatalogRegistered(record.spotId, record.exportId)) caughtUp += 1;
    }
  } catch {
    // Still pending, still findable: the next archive run tries again.
  }
  if (caughtUp > 0) deps.metrics.count('CatalogRegistrationsCaughtUp', caughtUp);
  return caughtUp;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
