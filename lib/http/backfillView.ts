import type { BackfillRecord, BackfillWindow } from '../exports/backfill/BackfillRecord';
import type {
  BackfillProgress,
  BackfillStatus,
  BackfillWindowCounts,
  BackfillWindowProgress,
} from '../exports/backfill/backfillProgress';

const MS_PER_HOUR = 3_600_000;

/** What a backfill planned: the windows it exports and the stretches the ledger already held. */
export interface BackfillPlanView {
  windowCount: number;
  windows: BackfillWindow[];
  skipped: BackfillWindow[];
  /** Hours of the range the ledger already held (covered, in flight or retrying). */
  skippedHours: number;
}

/** A backfill as the API shows it, without its progress (the answer to its creation). */
export interface BackfillView {
  backfillId: string;
  spotId: string;
  from: string;
  until: string;
  windowHours: number;
  createdAt: string;
  abortedAt?: string;
  /** True while its windows are still being recorded (the reconciler finishes a long plan). */
  recording: boolean;
  plan: BackfillPlanView;
}

/** A backfill with where it stands. */
export interface BackfillProgressView extends BackfillView {
  status: BackfillStatus;
  progress: {
    windows: BackfillWindowCounts;
    rowsArchived: number;
    elapsedSeconds: number;
    /** Seconds left, from the spot's recent export durations; absent with no history to learn from. */
    etaSeconds?: number;
  };
  windows: BackfillWindowProgress[];
}

export function backfillView(record: BackfillRecord): BackfillView {
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

export function backfillProgressView(
  record: BackfillRecord,
  progress: BackfillProgress,
): BackfillProgressView {
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
