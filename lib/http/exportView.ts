import { type ArchiveView, archiveView } from '../archive/archivedFiles';
import type { ExportCost } from '../exports/cost/exportCost';
import type { ExportUsage } from '../exports/cost/exportUsage';
import { exportUsageAndCost } from '../exports/cost/totalOfExports';
import { archiveFileCount } from '../exports/record/ExportArchive';
import {
  type ExportOrigin,
  type ExportRecord,
  type ExportRequest,
  type ExportSource,
  itemsWithin,
  QueuePriority,
} from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import { AWS_PRICE_TABLE } from '../settings/settingsTable';

/**
 * A Lambda response may not pass 6 MB, and an export may have thousands of 4 KB links. A view
 * lists the links that fit in this many bytes (in order), so even a page of 100 exports (4.8 MB
 * of links at most) stays under the limit; `linkCount` says how many there are,
 * `linksTruncated` that some were left out. Every file is in the archive (`GET /exports/{exportId}/files`).
 */
export const MAX_VIEW_LINK_BYTES = 48 * 1024;

/** An export as the API shows it: no storage bookkeeping (version) and no idempotency key. */
export interface ExportView {
  exportId: string;
  spotId: string;
  status: ExportStatus;
  upstreamStatus?: string;
  upstreamExportId?: string;
  request: ExportRequest;
  /** The first links, as many as fit in MAX_VIEW_LINK_BYTES. */
  links: string[];
  /** How many links the export has. */
  linkCount: number;
  /** Present (true) when `links` holds only the first ones. */
  linksTruncated?: true;
  requestedAt: string;
  startedAt?: string;
  completedAt?: string;
  lastPolledAt?: string;
  pollCount: number;
  /** Present (true) when the start asked for it: someone waits, so polls come close around the expected end. */
  urgent?: true;
  source: ExportSource;
  /** The schedule whose run planned the export, or the backfill it is a window of. */
  origin?: ExportOrigin;
  /** While QUEUED: where it waits in its spot's queue. */
  queue?: QueueView;
  /** When it left its spot's queue and took the spot. */
  dequeuedAt?: string;
  failureReason?: string;
  /** While REQUESTED after a create attempt was put off: why the export still waits for the upstream. */
  upstreamWait?: UpstreamWaitView;
  /** The archive of the export's files (`GET /exports/{id}/files` lists them with download URLs). */
  archive: ArchiveSummaryView;
  /** What it used so far: transitions, invocations, upstream calls, table units, archive bytes. */
  usage: ExportUsage;
  /** Its estimated AWS charges at the settings' price table (region and date stated). */
  cost: ExportCost;
}

/** The archive's state and what it holds, without download URLs. */
export interface ArchiveSummaryView extends ArchiveView {
  files: number;
  rows?: number;
}

/** A queued export's place: scheduled runs and API starts ahead of backfill windows, first in first out within each. */
export interface QueueView {
  /** 1 = next to start once the spot frees; absent when not read (a page of a listing that is not of QUEUED exports). */
  position?: number;
  priority: 'first' | 'backfill';
  enqueuedAt: string;
}

export interface UpstreamWaitView {
  /** Create attempts so far. */
  attempts: number;
  /** `throttled`, `unavailable`, `auth-paced` or `timeout`. */
  lastErrorKind?: string;
  lastErrorAt?: string;
  /** When the upstream (or the auth pacer) said the next attempt may go, if it said. */
  nextAttemptAt?: string;
}

/** `queuePosition`: the export's place in its spot's queue, when QUEUED and read. */
export function exportView(record: ExportRecord, queuePosition?: number): ExportView {
  const links = itemsWithin(record.links, MAX_VIEW_LINK_BYTES);
  return {
    exportId: record.exportId,
    spotId: record.spotId,
    status: record.status,
    ...(record.upstreamStatus !== undefined && { upstreamStatus: record.upstreamStatus }),
    ...(record.upstreamExportId !== undefined && { upstreamExportId: record.upstreamExportId }),
    request: record.request,
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
  };
}

function queueOf(record: ExportRecord, position: number | undefined): { queue?: QueueView } {
  if (record.status !== ExportStatus.QUEUED || record.queue === undefined) return {};
  return {
    queue: {
      ...(position !== undefined && { position }),
      priority: record.queue.priority === QueuePriority.BACKFILL ? 'backfill' : 'first',
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
