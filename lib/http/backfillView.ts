import type { BackfillRecord } from '../exports/backfill/BackfillRecord';
import type { BackfillProgress } from '../exports/backfill/backfillProgress';
import type { BackfillView } from './backfillViewSchema';

const MS_PER_HOUR = 3_600_000;

/** What a backfill's record alone says: its answer without where it stands. */
type BackfillRecordView = Omit<BackfillView, 'status' | 'progress' | 'windows'>;

export function backfillView(record: BackfillRecord): BackfillRecordView {
  return {
    backfillId: record.backfillId,
    spotId: record.spotId,
    from: record.from,
    until: record.until,
    windowHours: record.windowHours,
    createdAt: record.createdAt,
    ...(record.abortedAt !== undefined && { abortedAt: record.abortedAt }),
    recording: record.recording,
    plan: {
      windowCount: record.windows.length,
      windows: record.windows,
      skipped: record.skipped,
      skippedHours: record.skipped.reduce(
        (sum, window) => sum + (Date.parse(window.until) - Date.parse(window.from)) / MS_PER_HOUR,
        0,
      ),
    },
  };
}

/** A backfill as every backfill route answers it: its plan and where each of its windows stands. */
export function backfillProgressView(record: BackfillRecord, progress: BackfillProgress): BackfillView {
  return {
    ...backfillView(record),
    status: progress.status,
    progress: {
      windows: progress.counts,
      rowsArchived: progress.rowsArchived,
      elapsedSeconds: progress.elapsedSeconds,
      ...(progress.etaSeconds !== undefined && { etaSeconds: progress.etaSeconds }),
    },
    windows: progress.windows,
  };
}

/** Where a backfill can be read. */
export function backfillLocation(spotId: string, backfillId: string): string {
  return `/spots/${encodeURIComponent(spotId)}/backfills/${encodeURIComponent(backfillId)}`;
}
