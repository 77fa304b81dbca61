import type { ArchiveEvents } from '../lib/archive/ports';
import {
  type ArchiveEventDetail,
  archiveEventDetail,
  type CoverageGapDetail,
  coverageGapDetail,
  type ErasureCompletedDetail,
  EXPORT_EVENT_SOURCE,
  type ExportEventDetail,
  ExportEventDetailType,
  erasureCompletedDetail,
  exportEventDetail,
} from '../lib/events/EventBridgeExportEvents';
import type { CoverageWindow } from '../lib/exports/coverage/CoverageLedger';
import type { CoverageFreshnessChange, ExportEvents } from '../lib/exports/coverage/ports';
import type { ErasureRecord } from '../lib/exports/erasure/ErasureRecord';
import type { ErasureEvents } from '../lib/exports/erasure/ports';
import type { ExportRecord } from '../lib/exports/record/ExportRecord';
import { ExportStatus } from '../lib/exports/record/ExportStatus';

/** An event as it would have been put on the bus. */
export interface LocalExportEvent {
  time: string;
  source: typeof EXPORT_EVENT_SOURCE;
  detailType: ExportEventDetailType;
  detail:
    | ExportEventDetail
    | ArchiveEventDetail
    | CoverageGapDetail
    | CoverageFreshnessChange
    | ErasureCompletedDetail;
}

export interface LocalExportEventsOptions {
  /** Where the one-line summary of each event goes. */
  say?: (line: string) => void;
  /** Epoch ms. */
  now?: () => number;
  /** Named in `Export Archived` events. */
  archiveBucketName?: string;
}

/** The newest events kept; older ones are dropped so a long run does not grow without bound. */
export const MAX_KEPT_EXPORT_EVENTS = 1_000;

const DETAIL_TYPES: Partial<Record<ExportStatus, ExportEventDetailType>> = {
  [ExportStatus.COMPLETED]: ExportEventDetailType.COMPLETED,
  [ExportStatus.FAILED]: ExportEventDetailType.FAILED,
  [ExportStatus.ABORTED]: ExportEventDetailType.ABORTED,
};

/** EventBridge on one machine: terminal exports are announced with one line each and kept in memory. */
export class LocalExportEvents implements ExportEvents, ArchiveEvents, ErasureEvents {
  readonly #events: LocalExportEvent[] = [];
  readonly #options: LocalExportEventsOptions;

  constructor(options: LocalExportEventsOptions = {}) {
    this.#options = options;
  }

  get events(): readonly LocalExportEvent[] {
    return this.#events;
  }

  async publishTerminal(record: ExportRecord): Promise<void> {
    const detailType = DETAIL_TYPES[record.status];
    if (detailType === undefined) return;
    const detail = exportEventDetail(record);
    this.#keep(detailType, detail);
    // Links are bearer URLs: counted, never printed.
    const files = detail.linkCount > 0 ? `, ${detail.linkCount} file(s)` : '';
    const reason = detail.failureReason === undefined ? '' : ` (${detail.failureReason})`;
    this.#options.say?.(`event   ${detailType}: ${detail.spotId} ${detail.exportId}${files}${reason}`);
  }

  async publishArchived(record: ExportRecord): Promise<void> {
    const detail = archiveEventDetail(record, this.#options.archiveBucketName);
    this.#keep(ExportEventDetailType.ARCHIVED, detail);
    // The event lists the first files only; the record's totals count them all.
    const rows = record.archive?.rows ?? detail.files.reduce((sum, file) => sum + file.rows, 0);
    this.#options.say?.(
      `event   ${ExportEventDetailType.ARCHIVED}: ${detail.spotId} ${detail.exportId}, ${detail.fileCount} file(s), ${rows} row(s)`,
    );
  }

  async publishCoverageGap(window: CoverageWindow): Promise<void> {
    const detail = coverageGapDetail(window);
    this.#keep(ExportEventDetailType.COVERAGE_GAP, detail);
    this.#options.say?.(
      `event   ${ExportEventDetailType.COVERAGE_GAP}: ${detail.spotId} ${detail.from} – ${detail.until}: ${detail.reason}`,
    );
  }

  async publishCoverageFreshness(change: CoverageFreshnessChange): Promise<void> {
    const detailType = change.stale
      ? ExportEventDetailType.COVERAGE_STALE
      : ExportEventDetailType.COVERAGE_FRESH;
    this.#keep(detailType, change);
    this.#options.say?.(
      `event   ${detailType}: ${change.spotId} covered until ${change.coveredUntil ?? 'nothing'}, ${change.hoursBehind ?? '–'} h behind (target ${change.freshnessTargetHours} h)`,
    );
  }

  async publishErasureCompleted(record: ErasureRecord): Promise<void> {
    const detail = erasureCompletedDetail(record);
    this.#keep(ExportEventDetailType.ERASURE_COMPLETED, detail);
    this.#options.say?.(
      `event   ${ExportEventDetailType.ERASURE_COMPLETED}: ${detail.spotId} ${detail.erasureId}, ${detail.filesRewritten} file(s) rewritten, ${detail.rowsRemoved} row(s) removed`,
    );
  }

  #keep(detailType: ExportEventDetailType, detail: LocalExportEvent['detail']): void {
    this.#events.push({
      time: new Date((this.#options.now ?? Date.now)()).toISOString(),
      source: EXPORT_EVENT_SOURCE,
      detailType,
      detail,
    });
    if (this.#events.length > MAX_KEPT_EXPORT_EVENTS) this.#events.shift();
  }
}
