import { MAX_EXPORT_RANGE_HOURS } from '../requests/exportRequestLimits';
import { type Interval, splitInterval, subtractIntervals } from '../time/intervals';
import type { CoverageWindow } from './CoverageLedger';
import { WindowState } from './CoverageLedger';

const MS_PER_HOUR = 3_600_000;

/** The longest window an export may cover: the upstream's limit. */
export const MAX_WINDOW_HOURS = MAX_EXPORT_RANGE_HOURS;

/** Which windows already account for their hours when planning: only a GAP is planned again, and only when asked. */
export function occupiedBy(windows: readonly CoverageWindow[], { refillGaps = false } = {}): Interval[] {
  return windows
    .filter((window) => window.state !== WindowState.GAP || !refillGaps)
    .map((window) => ({ fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) }));
}

/**
 * The windows to export for `range`: its hours that no window of the ledger accounts for
 * (covered, in flight, retrying; a gap unless it is being refilled), each free stretch cut into
 * windows of at most `maxWindowHours` from its start. Deterministic: the same ledger and range
 * give the same windows, so a planner that runs twice (a redelivered schedule, a crash and a
 * retry) finds every window the first run recorded and plans nothing twice.
 */
export function planWindows(
  range: Interval,
  occupied: readonly Interval[],
  maxWindowHours: number,
): Interval[] {
  if (!(maxWindowHours > 0 && maxWindowHours <= MAX_WINDOW_HOURS)) {
    throw new RangeError(`a window may span 1 to ${MAX_WINDOW_HOURS} hours`);
  }
  return subtractIntervals(range, occupied).flatMap((free) =>
    splitInterval(free, maxWindowHours * MS_PER_HOUR),
  );
}
