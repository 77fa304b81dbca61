import { setTimeout as sleep } from 'node:timers/promises';
import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { ArchiveEvents } from '../archive/ports';
import type { CoverageWindow } from '../exports/coverage/CoverageLedger';
import type { CoverageFreshnessChange, ExportEvents } from '../exports/coverage/ports';
import { type ErasureRecord, rowsRemovedBy } from '../exports/erasure/ErasureRecord';
import type { ErasureEvents } from '../exports/erasure/ports';
import { type ArchivedFile, archiveFileCount } from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import { itemsWithin } from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import { ExportEventPublishError } from './errors';

/** The `source` of every event this system puts on the bus. */
export const EXPORT_EVENT_SOURCE = 'openweb-exports';

/** One `detail-type` per terminal status, so rules can match on it alone. */
export const ExportEventDetailType = {
  COMPLETED: 'Export Completed',
  FAILED: 'Export Failed',
  ABORTED: 'Export Aborted',
  /** A second event for a COMPLETED export, once its files are in the archive. */
  ARCHIVED: 'Export Archived',
  /** A window of a spot will not be exported again: its hours are missing until someone fills them. */
  COVERAGE_GAP: 'Coverage Gap',
  /** A spot fell behind its freshness target: data stopped arriving (once per episode). */
  COVERAGE_STALE: 'Coverage Stale',
  /** A stale spot caught up with its freshness target again. */
  COVERAGE_FRESH: 'Coverage Fresh',
  /** A user is erased from every archived file of a spot, and the check at the end found none of their rows. */
  ERASURE_COMPLETED: 'Erasure Completed',
} as const;

export type ExportEventDetailType = (typeof ExportEventDetailType)[keyof typeof ExportEventDetailType];

/**
 * EventBridge refuses an event over 256 KB. A link may be 4 KB and an export may have many, so
 * an event carries the links that fit in this many bytes (in order) and says how many there are;
 * the archive (`GET /exports/{exportId}/files`) has every file. The same bound holds the archive
 * event's file list.
 */
export const MAX_EVENT_LIST_BYTES = 128 * 1024;

/** The event's `detail`. Absent fields are left out. */
export interface ExportEventDetail {
  spotId: string;
  exportId: string;
  status: ExportStatus;
  /** The first links, as many as fit in MAX_EVENT_LIST_BYTES. */
  links: string[];
  /** How many links the export has. */
  linkCount: number;
  /** Present (true) when `links` holds only the first ones; the archive has every file. */
  linksTruncated?: true;
  upstreamExportId?: string;
  completedAt?: string;
  failureReason?: string;
}

/** The `detail` of `Export Archived`: where each file is, with its checksum and row count. */
export interface ArchiveEventDetail {
  spotId: string;
  exportId: string;
  status: ExportStatus;
  /** The archive bucket, when known to the publisher. */
  bucket?: string;
  archivedAt?: string;
  /** The first files, as many as fit in MAX_EVENT_LIST_BYTES. */
  files: Omit<ArchivedFile, 'sourceLink'>[];
  fileCount: number;
  /** Present (true) when `files` holds only the first ones: `GET /exports/{exportId}/files` lists them all. */
  filesTruncated?: true;
}

export interface EventBridgeExportEventsOptions {
  client: EventBridgeClient;
  /** Name or ARN of the bus. */
  eventBusName: string;
  /** Named in `Export Archived` events. */
  archiveBucketName?: string;
  /** Waits between sends of a refused entry; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How often an entry is sent (the first send included) while EventBridge refuses it for a passing
 * reason. The SDK retries a refused call, never a refused entry of an accepted call: this does.
 */
export const PUT_EVENTS_MAX_SENDS = 3;
/** The pause before the second send of a refused entry; each later one doubles it. */
export const PUT_EVENTS_RESEND_DELAY_MS = 100;

const DETAIL_TYPES: Partial<Record<ExportStatus, ExportEventDetailType>> = {
  [ExportStatus.COMPLETED]: ExportEventDetailType.COMPLETED,
  [ExportStatus.FAILED]: ExportEventDetailType.FAILED,
  [ExportStatus.ABORTED]: ExportEventDetailType.ABORTED,
};

/** Announces terminal exports on EventBridge, so consumers react without polling. */
export class EventBridgeExportEvents implements ExportEvents, ArchiveEvents, ErasureEvents {
  readonly #client: EventBridgeClient;
  readonly #eventBusName: string;
  readonly #archiveBucketName: string | undefined;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: EventBridgeExportEventsOptions) {
    this.#client = options.client;
    this.#eventBusName = options.eventBusName;
    this.#archiveBucketName = options.archiveBucketName;
    this.#sleep = options.sleep ?? sleep;
  }

  async publishTerminal(record: ExportRecord): Promise<void> {
    const detailType = DETAIL_TYPES[record.status];
    // Only the end of an export is news; intermediate states are not announced.
    if (detailType === undefined) return;
    await this.#put(record, detailType, exportEventDetail(record));
  }

  async publishArchived(record: ExportRecord): Promise<void> {
    await this.#put(
      record,
      ExportEventDetailType.ARCHIVED,
      archiveEventDetail(record, this.#archiveBucketName),
    );
  }

  async publishCoverageGap(window: CoverageWindow): Promise<void> {
    await this.#put(
      { exportId: window.exportId },
      ExportEventDetailType.COVERAGE_GAP,
      coverageGapDetail(window),
    );
  }

  async publishCoverageFreshness(change: CoverageFreshnessChange): Promise<void> {
    await this.#put(
      { exportId: change.spotId },
      change.stale ? ExportEventDetailType.COVERAGE_STALE : ExportEventDetailType.COVERAGE_FRESH,
      change,
    );
  }

  async publishErasureCompleted(record: ErasureRecord): Promise<void> {
    await this.#put(
      { exportId: record.erasureId },
      ExportEventDetailType.ERASURE_COMPLETED,
      erasureCompletedDetail(record),
    );
  }

  async #put(
    record: Pick<ExportRecord, 'exportId'>,
    detailType: ExportEventDetailType,
    detail: object,
  ): Promise<void> {
    const entry = {
      EventBusName: this.#eventBusName,
      Source: EXPORT_EVENT_SOURCE,
      DetailType: detailType,
      Detail: JSON.stringify(detail),
    };
    for (let send = 1; ; send++) {
      const output = await this.#client.send(new PutEventsCommand({ Entries: [entry] }));
      // PutEvents answers 200 even when it refused the entry; the count is the only signal.
      if ((output.FailedEntryCount ?? 0) === 0) return;
      const error = new ExportEventPublishError(record.exportId, output.Entries?.[0]?.ErrorCode, send);
      if (!error.retryable || send >= PUT_EVENTS_MAX_SENDS) throw error;
      await this.#sleep(PUT_EVENTS_RESEND_DELAY_MS * 2 ** (send - 1));
    }
  }
}

export function exportEventDetail(record: ExportRecord): ExportEventDetail {
  const links = itemsWithin(record.links, MAX_EVENT_LIST_BYTES);
  return {
    spotId: record.spotId,
    exportId: record.exportId,
    status: record.status,
    links,
    linkCount: record.links.length,
    ...(links.length < record.links.length && { linksTruncated: true as const }),
    ...(record.upstreamExportId !== undefined && { upstreamExportId: record.upstreamExportId }),
    ...(record.completedAt !== undefined && { completedAt: record.completedAt }),
    ...(record.failureReason !== undefined && { failureReason: record.failureReason }),
  };
}

/** The `detail` of `Coverage Gap`: the spot, the window, why, and the exports that tried. */
export interface CoverageGapDetail {
  spotId: string;
  from: string;
  until: string;
  reason: string;
  attempts: number;
  exportIds: string[];
  /** `schedule`, `backfill` or `api`, and the schedule's name or the backfill's id. */
  source: CoverageWindow['source'];
}

export function coverageGapDetail(window: CoverageWindow): CoverageGapDetail {
  return {
    spotId: window.spotId,
    from: window.from,
    until: window.until,
    reason: window.reason ?? 'no reason recorded',
    attempts: window.attempts,
    exportIds: window.exportIds,
    source: window.source,
  };
}

/**
 * The `detail` of `Erasure Completed`: what was done, never who. The user id is left out (the
 * erasure id is a hash of the spot and the user, and the record behind the API keeps the id for
 * whoever may read it); no row, name or file content either.
 */
export interface ErasureCompletedDetail {
  spotId: string;
  erasureId: string;
  /** Archived CSV files read. */
  filesRead: number;
  /** Files rewritten without the user (each with its Parquet copy, when the archive writes the table). */
  filesRewritten: number;
  rowsRemoved: number;
  completedAt?: string;
}

export function erasureCompletedDetail(record: ErasureRecord): ErasureCompletedDetail {
  return {
    spotId: record.spotId,
    erasureId: record.erasureId,
    filesRead: record.filesRead,
    filesRewritten: record.files.length,
    rowsRemoved: rowsRemovedBy(record),
    ...(record.completedAt !== undefined && { completedAt: record.completedAt }),
  };
}

export function archiveEventDetail(record: ExportRecord, bucket?: string): ArchiveEventDetail {
  const all = (record.archive?.files ?? []).map(({ name, key, bytes, sha256, rows }) => ({
    name,
    key,
    bytes,
    sha256,
    rows,
  }));
  const files = itemsWithin(all, MAX_EVENT_LIST_BYTES);
  const fileCount = archiveFileCount(record.archive);
  return {
    spotId: record.spotId,
    exportId: record.exportId,
    status: record.status,
    ...(bucket !== undefined && { bucket }),
    ...(record.archive?.archivedAt !== undefined && { archivedAt: record.archive.archivedAt }),
    files,
    fileCount,
    ...(files.length < fileCount && { filesTruncated: true as const }),
  };
}
