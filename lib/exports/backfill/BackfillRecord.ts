import type { CoverageWindow } from '../coverage/CoverageLedger';
import { timeSortedId } from '../record/exportId';

/**
 * A backfill: a range of a spot's history planned into windows of at most 730 hours, each
 * exported by an ordinary export queued behind the spot's scheduled runs. The record keeps the
 * plan; where each window stands is the coverage ledger's (./CoverageLedger.ts).
 */

/** What the caller wants of the backfill; how far it got is read from the ledger. */
export const BackfillState = {
  /** Its windows are (being) exported. */
  ACTIVE: 'ACTIVE',
  /** Aborted: its unfinished windows were withdrawn and their exports aborted. */
  ABORTED: 'ABORTED',
} as const;

export type BackfillState = (typeof BackfillState)[keyof typeof BackfillState];

/** One planned window `[from, until)`, RFC 3339 UTC, whole seconds. */
export interface BackfillWindow {
  from: string;
  until: string;
}

/** A window planned by default spans the upstream's longest range: fewest exports. */
export const DEFAULT_BACKFILL_WINDOW_HOURS = 730;
/**
 * The most windows one backfill plans: its record holds the plan, and one record must stay far
 * below DynamoDB's 400 KB item limit (about 60 bytes a window). 1,000 windows of 730 hours span
 * 83 years; a longer range with short windows is split into several backfills.
 */
export const MAX_BACKFILL_WINDOWS = 1000;

/** Backfills listed per page unless `limit` says otherwise; each is read with its progress. */
export const BACKFILL_LIST_DEFAULT_LIMIT = 20;
export const BACKFILL_LIST_MAX_LIMIT = 50;

export interface BackfillRecord {
  spotId: string;
  /** Ours, from `newBackfillId`. */
  backfillId: string;
  /** The range asked for. A gap refilled in place may reach past it. */
  from: string;
  until: string;
  windowHours: number;
  /** The plan: the windows to export, by start. */
  windows: BackfillWindow[];
  /** What the ledger already held in the range when it was planned (covered, in flight, retrying), merged. */
  skipped: BackfillWindow[];
  /**
   * `"refresh": true`: the covered windows of the range, exported again (each a new version of its
   * window, which stays covered by the older one until the new one is archived).
   */
  refreshed?: BackfillWindow[];
  state: BackfillState;
  /**
   * True until every window of the plan is recorded in the ledger with its export queued; a
   * creation interrupted before that (a crash, a timeout, a long plan) is finished by the reconciler.
   */
  recording: boolean;
  createdAt: string;
  abortedAt?: string;
  idempotencyKey?: string;
  /** Incremented on every write. */
  version: number;
}

export type NewBackfillRecord = Omit<BackfillRecord, 'version'>;

/** Whether a window of the ledger was planned by this backfill. */
export function isWindowOfBackfill(window: CoverageWindow, backfillId: string): boolean {
  return window.source.kind === 'backfill' && window.source.backfillId === backfillId;
}

const BACKFILL_ID_PREFIX = 'bf_';
export const BACKFILL_ID_PATTERN = /^bf_[0-9a-hjkmnp-tv-z]{26}$/;

/** `bf_` + 10 chars of epoch milliseconds + 16 random chars, like an export id: sorts by creation time. */
export function newBackfillId(nowMs: number = Date.now()): string {
  return timeSortedId(BACKFILL_ID_PREFIX, nowMs);
}

export function isValidBackfillId(value: unknown): value is string {
  return typeof value === 'string' && BACKFILL_ID_PATTERN.test(value);
}
