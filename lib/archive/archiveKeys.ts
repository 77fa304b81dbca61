import type { ExportRequest } from '../exports/record/ExportRecord';
import { commentRowsPartitionPrefix } from '../lake/commentRowsTable';

/** Every archived object lives under this prefix; the archive function may write nowhere else. */
export const ARCHIVE_KEY_PREFIX = 'exports/';

/**
 * Every table file lives under this prefix (the `comment_rows` table's under `tables/comments/`);
 * the archive function may write there too, nowhere else.
 */
export const TABLES_KEY_PREFIX = 'tables/';

/**
 * Hive-style partitions, so query engines (Athena, Spark, DuckDB) prune by spot and day:
 * `exports/spot=<spotId>/date=<YYYY-MM-DD>/<exportId>/<n>.csv.gz`. The date is the window's
 * start for a date-range export, the day it was requested for a conversation export.
 */
export function archiveObjectKey(
  spotId: string,
  exportId: string,
  partitionDate: string,
  fileNumber: number,
): string {
  return `${ARCHIVE_KEY_PREFIX}spot=${spotId}/date=${partitionDate}/${exportId}/${fileNumber}.csv.gz`;
}

/**
 * The manifest beside the export's files. The leading `_` makes query engines (Athena, Hive,
 * Spark) skip it when they read the folder as CSV.
 */
export function archiveManifestKey(spotId: string, exportId: string, partitionDate: string): string {
  return `${ARCHIVE_KEY_PREFIX}spot=${spotId}/date=${partitionDate}/${exportId}/_manifest.json`;
}

/** `YYYY-MM-DD` (UTC) of the partition an export's files go to. */
export function archivePartitionDate(request: ExportRequest, requestedAt: string): string {
  const instant = request.kind === 'dateRange' ? request.from : requestedAt;
  return new Date(instant).toISOString().slice(0, 10);
}

/**
 * The Parquet file of an export's `<n>`th CSV, in the `comment_rows` table's partition of the
 * same spot and day as the raw one:
 * `tables/comments/spot=<spotId>/date=<YYYY-MM-DD>/<exportId>-<n>.parquet`.
 */
export function commentTableObjectKey(
  spotId: string,
  exportId: string,
  partitionDate: string,
  fileNumber: number,
): string {
  return `${commentRowsPartitionPrefix(spotId, partitionDate)}${exportId}-${fileNumber}.parquet`;
}

const REVISABLE_KEY = /^(.*?)(?:\.r(\d+))?(\.csv\.gz|\.parquet)$/;

/**
 * The key of the next revision of an archived data file, beside it: `…/3.csv.gz` → `…/3.r1.csv.gz`
 * → `…/3.r2.csv.gz`, `…/<exportId>-3.parquet` → `…/<exportId>-3.r1.parquet`. A rewritten file
 * (an erasure) gets a key of its own, so the manifest switches from the old file to the new one
 * in one write, and a reader never sees a file that disagrees with the manifest it read.
 */
export function revisedObjectKey(key: string): string {
  const match = REVISABLE_KEY.exec(key);
  if (match === null) throw new RangeError(`${key} is not an archived data file`);
  const [, stem, revision, extension] = match;
  return `${stem}.r${Number(revision ?? 0) + 1}${extension}`;
}
