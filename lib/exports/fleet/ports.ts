import type { BackfillDependencies } from '../backfill/ports';

/**
 * Whether a spot was last announced stale, and since when: one `Coverage Stale` per episode; and
 * when the freshness watch must measure it again.
 */
export interface FreshnessMark {
  spotId: string;
  stale: boolean;
  /** When the spot became stale (or fresh again). */
  since: string;
  /**
   * When the watch first measured the spot: a spot whose schedules have planned nothing since is
   * behind by the time since then (a schedule that never fired is as silent as one that stopped).
   */
  watchedSince?: string;
  /** `coveredUntil` as last measured (null: nothing covered); absent on marks written before it was kept. */
  coveredUntil?: string | null;
  /**
   * When the watch measures the spot next: a fresh spot cannot fall behind its target before its
   * `coveredUntil` plus the target, since `coveredUntil` never moves back; a stale one, at the next
   * sweep. Absent: never (a spot no longer watched).
   */
  checkAt?: string;
}

/** The spots' freshness marks; single-item conditional writes. */
export interface FreshnessMarks {
  get(spotId: string): Promise<FreshnessMark | undefined>;
  /**
   * Writes `mark` while the stored one's `stale` is still `previousStale` (undefined: none stored).
   * True when this call wrote it (the caller announces a change of `stale`); false when another
   * run changed it first.
   */
  change(mark: FreshnessMark, previousStale: boolean | undefined): Promise<boolean>;
  /** The marks whose `checkAt` is before `beforeIso`, soonest first, at most `limit`. */
  due(beforeIso: string, limit: number): Promise<FreshnessMark[]>;
  /** Those of `spotIds` that have no mark yet (a mark, once written, is never deleted). */
  unmarked(spotIds: readonly string[]): Promise<string[]>;
}

/** What the fleet's views and its freshness watch touch: everything backfills do, and the marks. */
export interface FleetDependencies extends BackfillDependencies {
  freshnessMarks: FreshnessMarks;
}
