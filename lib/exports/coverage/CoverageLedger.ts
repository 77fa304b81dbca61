import type { WindowSource } from './spotCoverageSchema';

/**
 * The coverage ledger: per spot, the time windows of date-range exports and where each stands,
 * and per schedule how far it has planned. A publisher answers "which hours of which spots do I
 * have?" from it, and the schedules, retries and backfills plan from it so no hour is exported
 * twice and none is forgotten.
 */

/** Where a window stands. */
export const WindowState = {
  /** An export is queued, running or archiving for it. */
  IN_FLIGHT: 'IN_FLIGHT',
  /** Its export failed for a reason that may pass: exported again once the cooldown ends. */
  RETRYING: 'RETRYING',
  /** Its data is archived (with archiving off: its export COMPLETED). */
  COVERED: 'COVERED',
  /** Given up: every attempt failed, or the upstream refused the request itself. `reason` says why. */
  GAP: 'GAP',
} as const;

export type WindowState = (typeof WindowState)[keyof typeof WindowState];

/**
 * One archived export of a window: the window's data as the upstream read it. The first version is
 * the export that covered it; each restatement adds one.
 */
export interface WindowVersion {
  exportId: string;
  /** When the upstream read the data (the export's upstream start; its request when not known). */
  exportedAt: string;
  /**
   * The restatement age it answered (`P1D`), or `refresh` for a backfill's re-export of covered
   * hours; absent for the export that first covered the window.
   */
  age?: string;
}

/** Where a window's restatement stands; the window itself stays COVERED throughout. */
export const RestatementState = {
  /** Due, but the spot's budget of restatements for the day is spent: it starts on a later day. */
  WAITING: 'WAITING',
  /** Its export is queued, running or archiving. */
  IN_FLIGHT: 'IN_FLIGHT',
  /** Its export failed for a reason that may pass: exported again after the cooldown. */
  RETRYING: 'RETRYING',
  /** Archived: a version of its own. */
  ARCHIVED: 'ARCHIVED',
  /** Every attempt failed: the window stays covered by its older version. */
  GIVEN_UP: 'GIVEN_UP',
} as const;

export type RestatementState = (typeof RestatementState)[keyof typeof RestatementState];

/** The current (or last) restatement of a covered window: exporting it again at `age`. */
export interface WindowRestatement {
  /** The restatement age it answers, from the window's `restate`; `refresh` for a backfill's re-export. */
  age: string;
  /** A refresh: the backfill that asked for it (not counted in the daily budget). */
  backfillId?: string;
  state: RestatementState;
  /** The export of the current (or last) attempt; absent while WAITING. */
  exportId?: string;
  /** Every export that attempted it, oldest first. */
  exportIds: string[];
  attempts: number;
  /** When it was found due. */
  dueSince: string;
  /** RETRYING, WAITING: when it may start. */
  nextAttemptAt?: string;
  /** RETRYING, GIVEN_UP: why the last attempt did not archive; WAITING: why it waits. */
  reason?: string;
}

/** Who planned a window (its shape is the coverage answer's, ./spotCoverageSchema.ts). */
export type { WindowSource };

/** One window `[from, until)` of a spot. Instants are RFC 3339 UTC, whole seconds. */
export interface CoverageWindow {
  spotId: string;
  from: string;
  until: string;
  state: WindowState;
  source: WindowSource;
  /** The export of the current (or last) attempt. */
  exportId: string;
  /** Every export that attempted or covered this window, oldest first. */
  exportIds: string[];
  /** Exports started for it (by its planner and its retries). */
  attempts: number;
  plannedAt: string;
  /** RETRYING: when the next attempt may start. */
  nextAttemptAt?: string;
  /** RETRYING, GAP: why the last attempt did not cover it. */
  reason?: string;
  /** COVERED: rows archived, and when. */
  rows?: number;
  coveredAt?: string;
  /**
   * The ages (ISO 8601 durations, ascending) at which the window is exported again once covered:
   * its schedule's `restate`. Absent or empty: never restated.
   */
  restate?: string[];
  /** COVERED: every archived export of it, oldest first. */
  versions?: WindowVersion[];
  /** COVERED: its current or last restatement. */
  restatement?: WindowRestatement;
  /** Restatement ages given up on: they are not tried again. */
  givenUpAges?: string[];
  /**
   * When the reconciler must look at it: an IN_FLIGHT window's export is checked (started if it was
   * never recorded, its outcome settled if it was missed), a RETRYING one is attempted again. Absent
   * once COVERED or a GAP.
   */
  dueAt?: string;
  version: number;
}

export type NewCoverageWindow = Omit<CoverageWindow, 'version'>;

/** A schedule's watermark: every hour of the spot before `until` is planned by it (or was there already). */
export interface ScheduleWatermark {
  spotId: string;
  schedule: string;
  until: string;
  updatedAt: string;
  /** The schedule's restatement ages as of its last run: backfill windows of the spot follow them. */
  restate?: string[];
}

export interface WindowPage {
  windows: CoverageWindow[];
  /** Absent on the last page. */
  nextToken?: string;
}

/** A conditional change of a window, guarded by the export it names (and its version, when given). */
export interface WindowUpdate {
  /** Only while the window names this export. */
  expectedExportId?: string;
  /** Only while the window is in one of these states. */
  expectedStates?: readonly WindowState[];
  changes: Partial<Omit<CoverageWindow, 'spotId' | 'from' | 'until' | 'version'>>;
  /** Fields to delete (`dueAt`: the reconciler need not look at it again). */
  remove?: readonly ('nextAttemptAt' | 'reason' | 'dueAt' | 'restatement')[];
  /** Only at this version. */
  expectedVersion?: number;
}

/** The ledger's store; single-item conditional writes. */
export interface CoverageLedger {
  /**
   * Records a window, unless one with the same bounds is there already: a GAP is replaced only
   * with `replaceGap` (that is how a gap is filled). `created` tells whether this call wrote it;
   * otherwise `window` is the one found.
   */
  claimWindow(
    window: NewCoverageWindow,
    options?: { replaceGap?: boolean },
  ): Promise<{ window: CoverageWindow; created: boolean }>;
  getWindow(spotId: string, from: string, until: string): Promise<CoverageWindow | undefined>;
  /**
   * @returns the window as written, or undefined when its guard refused the change (another
   *   attempt, or a state that moved on).
   */
  updateWindow(
    spotId: string,
    from: string,
    until: string,
    update: WindowUpdate,
  ): Promise<CoverageWindow | undefined>;
  /**
   * Removes a window that still names `exportId` (and is in one of `expectedStates`, when given):
   * an aborted backfill withdraws its unfinished windows. True when this call removed it.
   */
  deleteWindow(
    spotId: string,
    from: string,
    until: string,
    exportId: string,
    options?: { expectedStates?: readonly WindowState[] },
  ): Promise<boolean>;
  /** Windows that overlap `[from, until)`, by start; paged. @throws InvalidPaginationTokenError */
  listWindows(
    spotId: string,
    options: { from: string; until: string; limit: number; nextToken?: string },
  ): Promise<WindowPage>;
  /** Windows whose `dueAt` is before `beforeIso`, earliest first; eventually consistent. */
  findDueWindows(beforeIso: string, limit: number): Promise<CoverageWindow[]>;
  getWatermark(spotId: string, schedule: string): Promise<ScheduleWatermark | undefined>;
  /** Moves a schedule's watermark forward to `until` (never back); answers the watermark as it is. */
  advanceWatermark(
    spotId: string,
    schedule: string,
    until: string,
    updatedAt: string,
    restate?: readonly string[],
  ): Promise<ScheduleWatermark>;
  listWatermarks(spotId: string): Promise<ScheduleWatermark[]>;
  /**
   * Takes one of the spot's `limit` restatements of the UTC `day` (`YYYY-MM-DD`): false when the
   * day's are all taken. One conditional write; a day's count is kept until it expires.
   */
  takeRestatementBudget(spotId: string, day: string, limit: number): Promise<boolean>;
}
