import { windowsBetween } from '../coverage/runSchedule';
import { isoAt } from '../time/instants';
import { FLEET_LOOKBACK_DAYS } from './fleetStatus';
import type { FleetDependencies, FreshnessMark } from './ports';
import { spotFreshness } from './spotFreshness';

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 24 * 60 * 60 * MS_PER_SECOND;
/** Spots measured per sweep at most, of those due; the rest are measured by the next sweeps. */
export const FRESHNESS_SWEEP_MAX_SPOTS = 1000;

export interface FreshnessSweep {
  /** Spots measured by this sweep: the unmarked and the due. */
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
 * The reconciler's freshness watch, each run. A spot is measured against its target when it has no
 * mark yet, or when its mark is due: a stale spot at every run, a fresh one once its `coveredUntil`
 * (nothing covered yet: since when the watch first measured it) plus its target has passed —
 * before that it cannot be stale, as `coveredUntil` never moves back (covered hours stay covered,
 * new windows start where the schedule had planned up to). The runs thus read what may have
 * changed, not every spot's ledger. For each spot measured, how far behind it is and how many are
 * stale are published as metrics (the freshness alarm watches them); a spot that falls behind its
 * target is announced `Coverage Stale` once, when its episode begins, and `Coverage Fresh` once it
 * catches up (the mark in the table makes it once, whatever the number of runs or concurrent
 * reconcilers). A spot without a target (no schedule, none configured) is not measured: nothing is
 * due from it.
 */
export async function trackFreshness(deps: FleetDependencies): Promise<FreshnessSweep> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const sweep: FreshnessSweep = {
    spots: 0,
    stale: [],
    becameStale: [],
    becameFresh: [],
    unannounced: [],
  };
  const targets = new Map<string, number>();
  for (const [spotId, targetSeconds] of Object.entries(deps.settings.freshnessTargets ?? {})) {
    if (targetSeconds !== null) targets.set(spotId, targetSeconds);
  }
  const [unmarked, due] = await Promise.all([
    deps.freshnessMarks.unmarked([...targets.keys()]),
    deps.freshnessMarks.due(isoAt(nowMs + 1), FRESHNESS_SWEEP_MAX_SPOTS),
  ]);
  const toMeasure = new Map<string, FreshnessMark>();
  for (const spotId of unmarked) toMeasure.set(spotId, await firstMark(deps, spotId, at));
  for (const mark of due) {
    // A spot no longer watched leaves the index: nothing is due from it.
    if (!targets.has(mark.spotId)) {
      const { checkAt: _dropped, ...unwatched } = mark;
      await deps.freshnessMarks.change(unwatched, mark.stale);
      continue;
    }
    toMeasure.set(mark.spotId, mark);
  }
  for (const [spotId, mark] of toMeasure) {
    const targetSeconds = targets.get(spotId) as number;
    sweep.spots += 1;
    const [windows, watermarks] = await Promise.all([
      windowsBetween(deps.coverage, spotId, nowMs - FLEET_LOOKBACK_DAYS * MS_PER_DAY, nowMs),
      deps.coverage.listWatermarks(spotId),
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
    const becomes = freshness.stale !== mark.stale;
    const silentSince = freshness.coveredUntil ?? mark.watchedSince ?? null;
    const next: FreshnessMark = {
      ...mark,
      stale: freshness.stale,
      since: becomes ? at : mark.since,
      coveredUntil: freshness.coveredUntil,
      checkAt: nextCheckAt(silentSince, freshness.stale, targetSeconds, nowMs),
    };
    // A spot still stale stays due (its checkAt has passed): nothing to write until it changes.
    if (!becomes && freshness.stale && mark.checkAt !== undefined) continue;
    const changed = await deps.freshnessMarks.change(next, mark.stale);
    if (!changed || !becomes) continue;
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
      // The episode's event is not lost: the mark goes back to what it was (due), so the next
      // sweep sees the change again and announces it then.
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

/**
 * The first mark of a spot the watch has not measured yet: fresh, watched since now, due now (it
 * is measured at once, and again by the next sweep should this one not get to write its measure).
 */
async function firstMark(deps: FleetDependencies, spotId: string, at: string): Promise<FreshnessMark> {
  const first: FreshnessMark = { spotId, stale: false, since: at, watchedSince: at, checkAt: at };
  if (await deps.freshnessMarks.change(first, undefined)) return first;
  // Another reconciler wrote it first: use theirs.
  return (await deps.freshnessMarks.get(spotId)) ?? first;
}

/**
 * When a spot is measured next: a stale one at the next run; a fresh one once it could be stale,
 * when it has been silent (nothing covered since) for its target.
 */
function nextCheckAt(
  silentSince: string | null,
  stale: boolean,
  targetSeconds: number,
  nowMs: number,
): string {
  if (stale) return isoAt(nowMs);
  const fromMs = silentSince === null ? nowMs : Date.parse(silentSince);
  return isoAt(Math.max(nowMs, fromMs + targetSeconds * MS_PER_SECOND));
}
