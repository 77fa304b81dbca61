import { archiveView } from '../archive/archivedFiles';
import type { ArchiveSummaryView } from '../archive/archivedFilesSchema';
import { exportUsageAndCost } from '../exports/cost/totalOfExports';
import { archiveFileCount } from '../exports/record/ExportArchive';
import { type ExportRecord, itemsWithin, QueuePriority } from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import { AWS_PRICE_TABLE } from '../settings/settingsTable';
import type { ExportView, QueueView, UpstreamWaitView } from './exportViewSchema';

/**
 * A Lambda response may not pass 6 MB, and an export may have thousands of 4 KB links. A view
 * lists the links that fit in this many bytes (in order), so even a page of 100 exports (4.8 MB
 * of links at most) stays under the limit; `linkCount` says how many there are,
 * `linksTruncated` that some were left out. Every file is in the archive (`GET /exports/{exportId}/files`).
 */
export const MAX_VIEW_LINK_BYTES = 48 * 1024;

/** `queuePosition`: the export's place in its spot's queue, when QUEUED and read. */
export function exportView(record: ExportRecord, queuePosition?: number): ExportView {
  const links = itemsWithin(record.links, MAX_VIEW_LINK_BYTES);
  return {
    exportId: record.exportId,
    spotId: record.spotId,
    status: record.status,
    ...(record.upstreamStatus !== undefined && { upstreamStatus: record.upstreamStatus }),
    ...(record.upstreamExportId !== undefined && { upstreamExportId: record.upstreamExportId }),
    // The record keeps the request as the request schema accepted it (a schedule or backfill sets
    // no file options), so its delimiter is one the schema allows.
    request: record.request as ExportView['request'],
    links,
    linkCount: record.links.length,
    ...(links.length < record.links.length && { linksTruncated: true as const }),
    requestedAt: record.requestedAt,
    ...(record.startedAt !== undefined && { startedAt: record.startedAt }),
    ...(record.completedAt !== undefined && { completedAt: record.completedAt }),
    ...(record.lastPolledAt !== undefined && { lastPolledAt: record.lastPolledAt }),
    pollCount: record.pollCount,
    ...(record.urgent === true && { urgent: true as const }),
    source: record.source,
    ...(record.origin !== undefined && { origin: record.origin }),
    ...queueOf(record, queuePosition),
    ...(record.dequeuedAt !== undefined && { dequeuedAt: record.dequeuedAt }),
    ...(record.failureReason !== undefined && { failureReason: record.failureReason }),
    ...upstreamWaitOf(record),
    archive: archiveSummary(record),
    ...exportUsageAndCost(record, AWS_PRICE_TABLE),
  };
}

function archiveSummary(record: ExportRecord): ArchiveSummaryView {
  const { archive } = record;
  const files = archiveFileCount(archive);
  const rows = archive?.rows ?? archive?.files.reduce((sum, file) => sum + file.rows, 0);
  return {
    ...archiveView(record),
    files,
    ...(files > 0 && rows !== undefined && { rows }),
    ...(archive?.catalog !== undefined && { catalog: archive.catalog }),
    ...(archive?.catalogReason !== undefined && { catalogReason: archive.catalogReason }),
    ...(archive?.rowsSuppressed !== undefined && { rowsSuppressed: archive.rowsSuppressed }),
  };
}

function queueOf(record: ExportRecord, position: number | undefined): { queue?: QueueView } {
  if (record.status !== ExportStatus.QUEUED || record.queue === undefined) return {};
  return {
    queue: {
      ...(position !== undefined && { position }),
      priority:
        record.queue.priority === QueuePriority.BACKFILL
          ? 'backfill'
          : record.queue.priority === QueuePriority.RESTATEMENT
            ? 'restatement'
            : 'first',
      enqueuedAt: record.queue.enqueuedAt,
    },
  };
}

function upstreamWaitOf(record: ExportRecord): { upstreamWait?: UpstreamWaitView } {
  if (record.status !== ExportStatus.REQUESTED || record.createAttempts === undefined) return {};
  const wait = record.lastUpstreamWait;
  return {
    upstreamWait: {
      attempts: record.createAttempts,
      ...(wait !== undefined && { lastErrorKind: wait.kind, lastErrorAt: wait.at }),
      ...(record.nextCreateAttemptAt !== undefined && { nextAttemptAt: record.nextCreateAttemptAt }),
    },
  };
}

/** Where an export can be read back. */
export function exportLocation(exportId: string): string {
  return `/exports/${exportId}`;
}
