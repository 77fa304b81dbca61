import { type CoverageWindow, WindowState } from '../coverage/CoverageLedger';
import type { ExportRecord } from '../record/ExportRecord';
import { type BackfillRecord, BackfillState } from './BackfillRecord';
import type { BackfillWindowCounts, BackfillWindowProgress } from './backfillProgressSchema';

const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 3_600_000;

/** Where one window of a backfill stands. */
export const BackfillWindowState = {
  /** Not recorded in the ledger yet: the backfill is still being recorded. */
  PENDING: 'PENDING',
  /** Its export waits in the spot's queue. */
  QUEUED: 'QUEUED',
  /** Its export holds the spot (or is being archived). */
  RUNNING: 'RUNNING',
  /** Its export failed for a reason that may pass: exported again after a cooldown. */
  RETRYING: 'RETRYING',
  /** Its data is archived. */
  DONE: 'DONE',
  /** Given up (see `reason`); another backfill of the range exports it again. */
  GAP: 'GAP',
  /** Taken back from the ledger by the backfill's abort. */
  WITHDRAWN: 'WITHDRAWN',
} as const;

export type BackfillWindowState = (typeof BackfillWindowState)[keyof typeof BackfillWindowState];

/** Where the backfill as a whole stands. */
export const BackfillStatus = {
  /** Windows are still queued, running or retrying (or being recorded). */
  RUNNING: 'RUNNING',
  /** Every window is done or a gap. */
  COMPLETED: 'COMPLETED',
  ABORTED: 'ABORTED',
} as const;

export type BackfillStatus = (typeof BackfillStatus)[keyof typeof BackfillStatus];

export interface BackfillProgress {
  status: BackfillStatus;
  counts: BackfillWindowCounts;
  /** Rows of the windows archived so far. */
  rowsArchived: number;
  /** From its creation to now, or to its last window's end once finished. */
  elapsedSeconds: number;
  /** What is left, from the spot's recent export durations; absent without any history. */
  etaSeconds?: number;
  windows: BackfillWindowProgress[];
}

/** What the progress is computed from, read by the use case. */
export interface BackfillProgressInputs {
  record: BackfillRecord;
  /** The ledger's window at each planned window's bounds (by `windowKey`), absent when there is none. */
  ledger: ReadonlyMap<string, CoverageWindow>;
  /** Exports of the spot waiting in its queue. */
  queuedExportIds: ReadonlySet<string>;
  /** The exports of the backfill holding the spot, to count their time so far against the ETA. */
  running: readonly ExportRecord[];
  /** The spot's recent COMPLETED exports, newest first. */
  recentCompleted: readonly ExportRecord[];
  nowMs: number;
}

export function windowKey(window: { from: string; until: string }): string {
  return `${window.from}#${window.until}`;
}

/** Where each window of a backfill stands, the counts, the rows so far and an ETA. */
export function backfillProgress(inputs: BackfillProgressInputs): BackfillProgress {
  const { record } = inputs;
  const windows = record.windows.map((planned) =>
    windowProgress(record, planned, inputs.ledger.get(windowKey(planned)), inputs.queuedExportIds),
  );
  const counts = countWindows(windows);
  const rowsArchived = windows.reduce(
    (sum, window) => sum + (window.state === BackfillWindowState.DONE ? (window.rows ?? 0) : 0),
    0,
  );
  const unfinished = counts.pending + counts.queued + counts.running + counts.retrying;
  const status =
    record.state === BackfillState.ABORTED
      ? BackfillStatus.ABORTED
      : record.recording || unfinished > 0
        ? BackfillStatus.RUNNING
        : BackfillStatus.COMPLETED;
  const endedMs =
    status === BackfillStatus.RUNNING ? inputs.nowMs : lastEndMs(record, inputs.ledger, inputs.nowMs);
  const waiting = windows.filter(
    (window) =>
      window.state === BackfillWindowState.PENDING ||
      window.state === BackfillWindowState.QUEUED ||
      window.state === BackfillWindowState.RETRYING,
  );
  const etaSeconds =
    status === BackfillStatus.RUNNING
      ? estimateRemainingSeconds({
          backfillId: record.backfillId,
          waitingWindows: waiting.length,
          waitingHours: waiting.reduce((sum, window) => sum + hoursBetween(window.from, window.until), 0),
          running: inputs.running,
          recentCompleted: inputs.recentCompleted,
          nowMs: inputs.nowMs,
        })
      : 0;
  return {
    status,
    counts,
    rowsArchived,
    elapsedSeconds: Math.max(0, Math.round((endedMs - Date.parse(record.createdAt)) / MS_PER_SECOND)),
    ...(etaSeconds !== undefined && { etaSeconds }),
    windows,
  };
}

function windowProgress(
  record: BackfillRecord,
  planned: { from: string; until: string },
  window: CoverageWindow | undefined,
  queued: ReadonlySet<string>,
): BackfillWindowProgress {
  const bounds = { from: planned.from, until: planned.until };
  const ours = window?.source.kind === 'backfill' && window.source.backfillId === record.backfillId;
  // A gap still waiting to be refilled by this backfill is not its outcome yet.
  if (window === undefined || (!ours && window.state === WindowState.GAP && record.recording)) {
    const state =
      record.recording && record.state !== BackfillState.ABORTED
        ? BackfillWindowState.PENDING
        : BackfillWindowState.WITHDRAWN;
    return { ...bounds, state };
  }
  const attempt = { exportId: window.exportId };
  switch (window.state) {
    case WindowState.COVERED:
      return { ...bounds, state: BackfillWindowState.DONE, ...attempt, rows: window.rows ?? 0 };
    case WindowState.GAP:
      return {
        ...bounds,
        state: BackfillWindowState.GAP,
        ...attempt,
        ...(window.reason !== undefined && { reason: window.reason }),
      };
    case WindowState.RETRYING:
      return {
        ...bounds,
        state: BackfillWindowState.RETRYING,
        ...attempt,
        ...(window.reason !== undefined && { reason: window.reason }),
      };
    default:
      return {
        ...bounds,
        state: queued.has(window.exportId) ? BackfillWindowState.QUEUED : BackfillWindowState.RUNNING,
        ...attempt,
      };
  }
}

function countWindows(windows: readonly BackfillWindowProgress[]): BackfillWindowCounts {
  const count = (state: BackfillWindowState) => windows.filter((window) => window.state === state).length;
  return {
    total: windows.length,
    done: count(BackfillWindowState.DONE),
    running: count(BackfillWindowState.RUNNING),
    queued: count(BackfillWindowState.QUEUED),
    retrying: count(BackfillWindowState.RETRYING),
    gaps: count(BackfillWindowState.GAP),
    pending: count(BackfillWindowState.PENDING),
    withdrawn: count(BackfillWindowState.WITHDRAWN),
  };
}

/** When a finished backfill ended: its last window covered (or its abort). */
function lastEndMs(
  record: BackfillRecord,
  ledger: ReadonlyMap<string, CoverageWindow>,
  nowMs: number,
): number {
  if (record.abortedAt !== undefined) return Date.parse(record.abortedAt);
  const ends = record.windows
    .map((window) => ledger.get(windowKey(window))?.coveredAt)
    .filter((at): at is string => at !== undefined)
    .map((at) => Date.parse(at));
  return ends.length === 0 ? nowMs : Math.max(...ends);
}

/** How long one export held the spot: from taking it (leaving the queue, else its start) to its end. */
export function spotHeldSeconds(record: ExportRecord): number | undefined {
  if (record.completedAt === undefined) return undefined;
  const seconds =
    (Date.parse(record.completedAt) - Date.parse(record.dequeuedAt ?? record.requestedAt)) / MS_PER_SECOND;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

export interface RemainingTimeInputs {
  backfillId: string;
  /** Windows not started yet (queued, retrying, not recorded yet). */
  waitingWindows: number;
  /** The hours of range those windows cover. */
  waitingHours: number;
  /** Exports of the backfill holding the spot now. */
  running: readonly ExportRecord[];
  /** The spot's recent COMPLETED exports. */
  recentCompleted: readonly ExportRecord[];
  nowMs: number;
}

/**
 * Seconds until the backfill's windows are all exported, one after the other as the upstream
 * runs them, at the pace of recent exports: the median seconds a finished export held the spot
 * per hour of its range (an export takes longer the more hours it covers), times the hours still
 * waiting, plus what is left of each running window. The backfill's own finished windows are the
 * best guide; until there is one, the spot's recent exports of a date range. A running window
 * that has held the spot longer than that pace allows shows the pace is slower: its own pace so
 * far is used instead, so the ETA grows while it overruns rather than standing still.
 * Undefined when the spot has no finished export of a date range to learn from.
 */
export function estimateRemainingSeconds(inputs: RemainingTimeInputs): number | undefined {
  const own = inputs.recentCompleted.filter((record) => record.origin?.backfillId === inputs.backfillId);
  const sample = own.length > 0 ? own : inputs.recentCompleted;
  const learned = median(sample.map(secondsPerRangeHour).filter((seconds) => seconds !== undefined));
  if (learned === undefined)
    return inputs.waitingWindows === 0 && inputs.running.length === 0 ? 0 : undefined;
  const heldSoFar = (record: ExportRecord) =>
    Math.max(0, (inputs.nowMs - Date.parse(record.dequeuedAt ?? record.requestedAt)) / MS_PER_SECOND);
  const pace = Math.max(
    learned,
    ...inputs.running.map((record) => heldSoFar(record) / (rangeHoursOf(record) ?? Number.POSITIVE_INFINITY)),
  );
  const runningLeft = inputs.running.reduce(
    (sum, record) => sum + Math.max(0, pace * (rangeHoursOf(record) ?? 0) - heldSoFar(record)),
    0,
  );
  return Math.round(pace * inputs.waitingHours + runningLeft);
}

/**
 * How long an export of `windowHours` is expected to hold the spot, at the pace of the spot's
 * recent exports of a date range (per hour of range); undefined without any.
 */
export function expectedWindowSeconds(
  windowHours: number,
  recentCompleted: readonly ExportRecord[],
): number | undefined {
  const pace = median(recentCompleted.map(secondsPerRangeHour).filter((seconds) => seconds !== undefined));
  return pace === undefined ? undefined : pace * windowHours;
}

/** Seconds an export held the spot per hour of the range it covers; undefined for a conversation. */
function secondsPerRangeHour(record: ExportRecord): number | undefined {
  const held = spotHeldSeconds(record);
  const hours = rangeHoursOf(record);
  return held === undefined || hours === undefined || hours <= 0 ? undefined : held / hours;
}

function rangeHoursOf(record: ExportRecord): number | undefined {
  return record.request.kind === 'dateRange'
    ? hoursBetween(record.request.from, record.request.until)
    : undefined;
}

function hoursBetween(from: string, until: string): number {
  return (Date.parse(until) - Date.parse(from)) / MS_PER_HOUR;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
