import type { BackfillDependencies } from '../backfill/ports';

/** Whether a spot was last announced stale, and since when: one `Coverage Stale` per episode. */
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
}

/** The spots' freshness marks; single-item conditional writes. */
export interface FreshnessMarks {
  get(spotId: string): Promise<FreshnessMark | undefined>;
  /**
   * Writes `mark` while the stored one's `stale` is still `previousStale` (undefined: none stored).
   * True when this call changed it: the caller announces the change; false when another run did.
   */
  change(mark: FreshnessMark, previousStale: boolean | undefined): Promise<boolean>;
}

/** What the fleet's views and its freshness watch touch: everything backfills do, and the marks. */
export interface FleetDependencies extends BackfillDependencies {
  freshnessMarks: FreshnessMarks;
}
