import { type CoverageWindow, WindowState } from '../coverage/CoverageLedger';
import { planWindows } from '../coverage/planWindows';
import { type Interval, mergeIntervals, subtractIntervals } from '../time/intervals';

export interface BackfillPlan {
  /** The windows to export, by start. */
  windows: Interval[];
  /** Of those, the gaps of the ledger exported again with their own bounds. */
  refilledGaps: Interval[];
  /** What the ledger already holds in the range (covered, in flight, retrying), merged and clipped to it. */
  skipped: Interval[];
}

/**
 * The windows a backfill of `range` exports: every hour of it that no window of the ledger holds
 * (covered, in flight or retrying), cut into windows of at most `windowHours` from the start of
 * each free stretch. A gap is what a backfill is for: a GAP window whose hours nothing else holds
 * is planned again with its own bounds, so the ledger replaces it in place (its history kept),
 * even where it reaches past the range; the hours of a gap that something else now partly holds
 * are planned like free hours. Deterministic: the same ledger and range give the same plan.
 * @throws RangeError when `windowHours` is not 1 to 730
 */
export function planBackfill(
  range: Interval,
  known: readonly CoverageWindow[],
  windowHours: number,
): BackfillPlan {
  const held = known.filter((window) => window.state !== WindowState.GAP).map(intervalOf);
  const refilledGaps: Interval[] = [];
  for (const gap of known.filter((window) => window.state === WindowState.GAP).map(intervalOf)) {
    const inRange = gap.fromMs < range.untilMs && gap.untilMs > range.fromMs;
    const free = subtractIntervals(gap, [...held, ...refilledGaps]);
    const wholeIsFree =
      free.length === 1 && free[0]?.fromMs === gap.fromMs && free[0]?.untilMs === gap.untilMs;
    if (inRange && wholeIsFree) refilledGaps.push(gap);
  }
  const fresh = planWindows(range, [...held, ...refilledGaps], windowHours);
  const skipped = mergeIntervals(held)
    .map((interval) => ({
      fromMs: Math.max(interval.fromMs, range.fromMs),
      untilMs: Math.min(interval.untilMs, range.untilMs),
    }))
    .filter((interval) => interval.untilMs > interval.fromMs);
  return {
    windows: [...refilledGaps, ...fresh].sort((a, b) => a.fromMs - b.fromMs),
    refilledGaps: refilledGaps.sort((a, b) => a.fromMs - b.fromMs),
    skipped,
  };
}

function intervalOf(window: CoverageWindow): Interval {
  return { fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) };
}
