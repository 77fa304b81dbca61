import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { WindowOutcomeDependencies } from '../exports/coverage/coverageWindows';
import { publishOrCount } from '../exports/coverage/publishOrCount';
import type { SuppressionList } from '../exports/erasure/ports';
import {
  type ArchivedFile,
  ArchiveStatus,
  CatalogStatus,
  type ExportArchive,
  INLINE_FILES_MAX_BYTES,
} from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import { itemsWithin } from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import type { ExportStore } from '../exports/record/ExportStore';
import { isTransientFailure } from '../exports/record/failureReasons';
import { recordExportOutcomeLater } from '../exports/restatement/recordExportOutcome';
import { checkDownloadLink } from '../openweb/downloadLinkPolicy';
import {
  archiveManifestKey,
  archiveObjectKey,
  archivePartitionDate,
  commentTableObjectKey,
} from './archiveKeys';
import { archiveManifest } from './archiveManifest';
import { archiveZipFile, type ZipEntryParquetOptions } from './archiveZipFile';
import { downloadToFile } from './downloadToFile';
import { ArchiveClaimRefusedError, ArchiveRejectedError, ArchiveRetryableError } from './errors';
import type { ArchiveEvents, ArchiveRecords, ArchiveSettings, ArchiveWriter, TablePartitions } from './ports';
import { type CatalogOutcome, catchUpCatalog, registerArchivedPartition } from './registerArchivedPartition';
import type { PartitionRepairResult, TablePartitionRepair } from './TablePartitionRepair';

/**
 * What an archive run touches: the record, its archive state, the bucket, the table's catalog, the
 * bus, and the coverage ledger (a window is covered once its data is archived).
 */
export interface ArchiveDependencies extends WindowOutcomeDependencies {
  store: Pick<ExportStore, 'getExport'>;
  archives: ArchiveRecords;
  archiveWriter: ArchiveWriter;
  /**
   * The comment rows table's partitions: the export's is registered once its Parquet files are
   * stored (and those the catalog refused before, once it takes one again).
   */
  partitions: TablePartitions;
  /**
   * Registers the partitions the bucket holds and the catalog does not (a new database, a lost
   * registration), a few spots per run once the catalog took the export's own; undefined where
   * the query engine reads partitions from the keys (DuckDB, locally).
   */
  partitionRepair?: Pick<TablePartitionRepair, 'repair'>;
  archiveEvents: ArchiveEvents;
  archiveSettings: ArchiveSettings;
  /** The spot's erased users: their rows are left out of every file before it is written. */
  suppressions: Pick<SuppressionList, 'suppressedUsers'>;
  fetch?: typeof fetch;
}

export interface ArchiveExportCommand {
  spotId: string;
  exportId: string;
  /**
   * Who is archiving; by default the export's workflow execution, so the workflow's own retries
   * re-enter their claim while any other run waits for it.
   */
  runId?: string;
  /** Re-archive an ARCHIVED or FAILED export (same keys, same bytes). */
  force?: boolean;
}

export interface ArchiveExportResult {
  /** `skipped`: not a COMPLETED export, or already archived and not forced. */
  outcome: 'archived' | 'failed' | 'skipped';
  record: ExportRecord | undefined;
  /** What the partition repair did after this archive, when it ran. */
  partitionRepair?: PartitionRepairResult;
}

const MS_PER_SECOND = 1000;
/** The upstream's delimiter when the request names none. */
const DEFAULT_CSV_DELIMITER = ',';

/**
 * Keeps a COMPLETED export's data: every link is checked against the download policy,
 * downloaded to a scratch file, and every CSV inside stored gzip-compressed under its
 * Hive-style key with its size, SHA-256 and row count, its rows also as a Parquet file of the
 * `comment_rows` table under `tables/comments/` and the table's partition of the export
 * registered in the catalog (both skipped when `archiveSettings.writeTable` is off); then the
 * list of every file written goes in a manifest beside them, last (the record keeps the totals
 * and only the first files). The run claims the archive first and records the result only while it still holds the claim; the keys and bytes are the same
 * on every run, so a re-run after a crash converges on the same objects.
 * @throws ArchiveRetryableError for passing trouble (the workflow retries the task);
 *   a refused link or a corrupt zip is recorded as a FAILED archive instead
 */
export async function archiveExport(
  deps: ArchiveDependencies,
  command: ArchiveExportCommand,
): Promise<ArchiveExportResult> {
  const { spotId, exportId } = command;
  const existing = await deps.store.getExport(spotId, exportId);
  if (existing === undefined || existing.status !== ExportStatus.COMPLETED) {
    return { outcome: 'skipped', record: existing };
  }
  const runId = command.runId ?? workflowRunId(existing);
  if (isFinal(existing) && command.force !== true) return { outcome: 'skipped', record: existing };

  const nowMs = deps.now();
  let claimed: ExportRecord;
  try {
    claimed = await deps.archives.claim(spotId, exportId, {
      runId,
      now: new Date(nowMs).toISOString(),
      claimedUntil: new Date(nowMs + deps.archiveSettings.claimLeaseSeconds * MS_PER_SECOND).toISOString(),
      ...(command.force === true && { force: true }),
    });
  } catch (error) {
    if (!(error instanceof ArchiveClaimRefusedError)) throw error;
    if (isFinal(error.current)) return { outcome: 'skipped', record: error.current };
    throw new ArchiveRetryableError(`another run is archiving export ${exportId}`, { cause: error });
  }

  let summary: ExportArchive;
  let catalog: CatalogOutcome | undefined;
  try {
    const files = await storeEveryFile(deps, claimed);
    // Before the manifest and the record: once either says ARCHIVED, a query sees the rows.
    // A re-run registers again, which is harmless. Nothing is registered when no Parquet file
    // was written (`writeTable` off): the partition would point at no files. Whatever the
    // catalog answers, the files are stored: it never fails the archive (PENDING, caught up later).
    if (files.some((file) => file.parquet !== undefined)) {
      catalog = await registerArchivedPartition(deps, claimed);
    }
    summary = await storeManifest(deps, claimed, files);
  } catch (error) {
    if (error instanceof ArchiveRejectedError) {
      const record = await recordFailure(deps, claimed, runId, error.message);
      await recordExportOutcomeLater(deps, record);
      return { outcome: 'failed', record };
    }
    // Storage or table trouble that passes: the workflow retries, and this run re-enters its claim.
    if (isTransientFailure(error) && !(error instanceof ArchiveRetryableError)) {
      throw new ArchiveRetryableError(
        `archiving export ${exportId} met a passing failure: ${(error as Error).name}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  let record: ExportRecord;
  try {
    record = await deps.archives.finish(spotId, exportId, runId, {
      ...summary,
      ...catalog,
      archivedAt: new Date(deps.now()).toISOString(),
    });
  } catch (error) {
    // Our claim lapsed and another run took over: its result stands (the same keys and bytes).
    if (!(error instanceof ArchiveClaimRefusedError)) throw error;
    if (isFinal(error.current)) return { outcome: 'skipped', record: error.current };
    throw new ArchiveRetryableError(`another run took over the archive of export ${exportId}`, {
      cause: error,
    });
  }
  // The archive is recorded: a refused announcement is counted, and the window is still covered.
  await publishOrCount(deps, () => deps.archiveEvents.publishArchived(record));
  await recordExportOutcomeLater(deps, record);
  // The catalog took this partition: it takes others again, so those it refused earlier follow.
  if (catalog?.catalog !== CatalogStatus.REGISTERED) return { outcome: 'archived', record };
  await catchUpCatalog(deps);
  // Partitions no export's registration made (another database's, lost ones): bounded, never throws.
  const partitionRepair = await deps.partitionRepair?.repair(spotId);
  if (partitionRepair?.failure !== undefined) deps.metrics.count('PartitionRepairsFailed');
  if ((partitionRepair?.registered ?? 0) > 0)
    deps.metrics.count('PartitionsRepaired', partitionRepair?.registered);
  return { outcome: 'archived', record, ...(partitionRepair !== undefined && { partitionRepair }) };
}

/**
 * Records a FAILED archive after the workflow gave up retrying. Only a PENDING archive is
 * failed: one that was archived meanwhile stays ARCHIVED.
 */
export async function failArchive(
  deps: ArchiveDependencies,
  command: { spotId: string; exportId: string; runId?: string; reason: string },
): Promise<ExportRecord | undefined> {
  const record = await deps.store.getExport(command.spotId, command.exportId);
  if (record?.archive?.status !== ArchiveStatus.PENDING) return record;
  let failed: ExportRecord | undefined;
  try {
    failed = await recordFailure(deps, record, command.runId ?? workflowRunId(record), command.reason);
  } catch (error) {
    if (error instanceof ArchiveClaimRefusedError) return error.current;
    throw error;
  }
  await recordExportOutcomeLater(deps, failed);
  return failed;
}

function isFinal(record: ExportRecord | undefined): boolean {
  const status = record?.archive?.status;
  return status === ArchiveStatus.ARCHIVED || status === ArchiveStatus.FAILED;
}

/** The run id of the export's own workflow execution. */
export function workflowRunId(record: ExportRecord): string {
  return `workflow:${record.workflowExecutionName ?? record.exportId}`;
}

async function recordFailure(
  deps: ArchiveDependencies,
  record: ExportRecord,
  runId: string,
  reason: string,
): Promise<ExportRecord> {
  return deps.archives.finish(record.spotId, record.exportId, runId, {
    status: ArchiveStatus.FAILED,
    files: [],
    reason,
  });
}

async function storeEveryFile(deps: ArchiveDependencies, record: ExportRecord): Promise<ArchivedFile[]> {
  const partitionDate = archivePartitionDate(record.request, record.requestedAt);
  const { writeTable } = deps.archiveSettings;
  // Checked before anything is fetched: no request goes to a host the policy refuses.
  record.links.forEach((link, index) => {
    const rejection = checkDownloadLink(link, deps.archiveSettings.downloadPolicy);
    if (rejection !== undefined)
      throw new ArchiveRejectedError(`link ${index + 1} is refused by the download policy (${rejection})`);
  });
  // Read once the archive is claimed: a user suppressed before the claim is left out; one suppressed
  // later is swept by the erasure, which waits for this archive to finish.
  const suppressed = await deps.suppressions.suppressedUsers(record.spotId);
  const without =
    suppressed.length === 0
      ? undefined
      : { delimiter: record.request.delimiter ?? DEFAULT_CSV_DELIMITER, userIds: new Set(suppressed) };
  const scratch = await mkdtemp(join(tmpdir(), 'openweb-archive-'));
  try {
    const files: ArchivedFile[] = [];
    let fileNumber = 0;
    for (const [index, link] of record.links.entries()) {
      const zipPath = join(scratch, `${index + 1}.zip`);
      await downloadToFile(link, index + 1, zipPath, {
        timeoutMs: deps.archiveSettings.downloadTimeoutMs,
        ...(deps.fetch !== undefined && { fetch: deps.fetch }),
      });
      files.push(
        ...(await archiveZipFile({
          zipPath,
          storage: deps.archiveWriter,
          sourceLink: index + 1,
          nextTarget: () => {
            fileNumber += 1;
            return {
              fileNumber,
              key: archiveObjectKey(record.spotId, record.exportId, partitionDate, fileNumber),
              ...(writeTable && {
                parquetKey: commentTableObjectKey(record.spotId, record.exportId, partitionDate, fileNumber),
              }),
            };
          },
          ...(writeTable && { parquet: parquetOptions(record) }),
          ...(without !== undefined && { without }),
        })),
      );
      await rm(zipPath, { force: true });
    }
    return files;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The export's CSV delimiter and the lineage every row of its Parquet files carries. */
export function parquetOptions(record: ExportRecord): ZipEntryParquetOptions {
  const { request } = record;
  return {
    delimiter: request.delimiter ?? DEFAULT_CSV_DELIMITER,
    lineage: {
      exportId: record.exportId,
      ...(request.kind === 'dateRange' && { windowFrom: request.from, windowUntil: request.until }),
      ...(record.completedAt !== undefined && { exportedAt: record.completedAt }),
    },
  };
}

/**
 * Writes the manifest of every file (the same bytes for the same files, so a re-run converges)
 * and returns the ARCHIVED state to record: totals, the manifest's key and the first files.
 */
async function storeManifest(
  deps: ArchiveDependencies,
  record: ExportRecord,
  files: ArchivedFile[],
): Promise<ExportArchive> {
  const partitionDate = archivePartitionDate(record.request, record.requestedAt);
  const manifestKey = archiveManifestKey(record.spotId, record.exportId, partitionDate);
  const { writeTable } = deps.archiveSettings;
  const manifest = Buffer.from(JSON.stringify(archiveManifest(files, { writeTable })), 'utf8');
  await deps.archiveWriter.put(manifestKey, Readable.from([manifest]), { contentType: 'application/json' });
  return {
    status: ArchiveStatus.ARCHIVED,
    files: itemsWithin(files, INLINE_FILES_MAX_BYTES),
    fileCount: files.length,
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    ...(files.some((file) => file.rowsSuppressed !== undefined) && {
      rowsSuppressed: files.reduce((sum, file) => sum + (file.rowsSuppressed ?? 0), 0),
    }),
    manifestKey,
  };
}
