import { windowsBetween } from '../coverage/runSchedule';
import { isoAt } from '../time/instants';
import { FLEET_LOOKBACK_DAYS } from './fleetStatus';
import type { FleetDependencies, FreshnessMark } from './ports';
import { spotFreshness } from './spotFreshness';

const MS_PER_DAY = 24 * 60 * 60 * 1000;

export interface FreshnessSweep {
  /** Configured spots with a target looked at. */
  spots: number;
  stale: string[];
  /** Spots announced stale by this sweep (their episode began). */
  becameStale: string[];
  /** Spots announced fresh by this sweep (their episode ended). */
  becameFresh: string[];
  /** Spots whose change could not be announced: their mark is put back, the next sweep tries again. */
  unannounced: string[];
}

/**
 * The reconciler's freshness watch, each run: every configured spot with a target is measured
 * against it; how far behind each is, and how many are stale, are published as metrics (the
 * freshness alarm watches them); a spot that falls behind its target is announced `Coverage
 * Stale` once, when its episode begins, and `Coverage Fresh` once it catches up (the mark in the
 * table makes it once, whatever the number of runs or concurrent reconcilers). A spot without a
 * target (no schedule, none configured) is not measured: nothing is due from it.
 */
export async function trackFreshness(deps: FleetDependencies): Promise<FreshnessSweep> {
  const nowMs = deps.now();
  const sweep: FreshnessSweep = {
    spots: 0,
    stale: [],
    becameStale: [],
    becameFresh: [],
    unannounced: [],
  };
  for (const [spotId, targetSeconds] of Object.entries(deps.settings.freshnessTargets ?? {})) {
    if (targetSeconds === null) continue;
    sweep.spots += 1;
    const at = isoAt(nowMs);
    const [windows, watermarks, mark] = await Promise.all([
      windowsBetween(deps.coverage, spotId, nowMs - FLEET_LOOKBACK_DAYS * MS_PER_DAY, nowMs),
      deps.coverage.listWatermarks(spotId),
      watchedMark(deps, spotId, at),
    ]);
    const freshness = spotFreshness({
      windows,
      watermarks,
      targetSeconds,
      nowMs,
      ...(mark.watchedSince !== undefined && { watchedSince: mark.watchedSince }),
    });
    if (freshness.hoursBehind !== null)
      deps.metrics.level?.('HoursBehind', freshness.hoursBehind, { SpotId: spotId });
    if (freshness.stale) sweep.stale.push(spotId);
    if (freshness.stale === mark.stale) continue;
    const changed = await deps.freshnessMarks.change(
      { ...mark, stale: freshness.stale, since: at },
      mark.stale,
    );
    if (!changed) continue;
    try {
      await deps.events.publishCoverageFreshness?.({
        spotId,
        stale: freshness.stale,
        coveredUntil: freshness.coveredUntil,
        hoursBehind: freshness.hoursBehind,
        freshnessTargetHours: freshness.freshnessTargetHours,
        at,
      });
    } catch {
      // The episode's event is not lost: the mark goes back to what it was, so the next sweep
      // sees the change again and announces it then.
      await deps.freshnessMarks.change(mark, freshness.stale);
      sweep.unannounced.push(spotId);
      continue;
    }
    (freshness.stale ? sweep.becameStale : sweep.becameFresh).push(spotId);
  }
  deps.metrics.count('StaleSpots', sweep.stale.length);
  if (sweep.unannounced.length > 0)
    deps.metrics.count('FreshnessEventsUnannounced', sweep.unannounced.length);
  return sweep;
}

/** The spot's mark; the first time the watch measures a spot, a fresh one that says since when. */
async function watchedMark(deps: FleetDependencies, spotId: string, at: string): Promise<FreshnessMark> {
  const stored = await deps.freshnessMarks.get(spotId);
  if (stored !== undefined) return stored;
  const first: FreshnessMark = { spotId, stale: false, since: at, watchedSince: at };
  if (await deps.freshnessMarks.change(first, undefined)) return first;
  // Another reconciler wrote it first: use theirs.
  return (await deps.freshnessMarks.get(spotId)) ?? first;
}
