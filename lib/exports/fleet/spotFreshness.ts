import { type CoverageWindow, type ScheduleWatermark, WindowState } from '../coverage/CoverageLedger';
import { hoursOf } from '../coverage/coverageOfWindows';
import { mergeIntervals, subtractIntervals, wholeSecondInstant } from '../time/intervals';

const MS_PER_SECOND = 1000;

/** How far a spot's data reaches, against its freshness target. */
export interface SpotFreshness {
  /**
   * The end of the newest stretch such that every hour the spot's schedules planned before it is
   * covered (a spot without schedules: the end of its newest covered window); null when nothing is.
   */
  coveredUntil: string | null;
  /**
   * Now − `coveredUntil`, in hours (to the thousandth); with nothing covered, the hours since the
   * watch first measured the spot (a target given), else null.
   */
  hoursBehind: number | null;
  /** How far behind the spot may fall; null: it has no target (no schedule, none configured). */
  freshnessTargetHours: number | null;
  /** Behind by more than its target. A spot without a target is never stale. */
  stale: boolean;
}

export interface SpotFreshnessInputs {
  /** The spot's windows over the stretch looked at (the last days), any order. */
  windows: readonly CoverageWindow[];
  watermarks: readonly ScheduleWatermark[];
  /** Seconds; null or undefined: no target. */
  targetSeconds: number | null | undefined;
  nowMs: number;
  /**
   * When the freshness watch first measured the spot, if it has: with nothing covered or planned
   * since, the spot is behind by the time since then.
   */
  watchedSince?: string;
}

/**
 * The spot's freshness, from the ledger: a window its schedules planned that is not covered yet
 * (in flight, retrying, a gap) holds `coveredUntil` at its start, however much is covered after
 * it; with every planned window covered, it is where the schedules have planned up to. A
 * schedule that stopped firing plans nothing, so `coveredUntil` stays and the spot falls behind.
 * One that never fired has no `coveredUntil`: with a target, it falls behind from the moment the
 * watch first measured it.
 */
export function spotFreshness(inputs: SpotFreshnessInputs): SpotFreshness {
  const { windows, watermarks, nowMs } = inputs;
  const targetSeconds = inputs.targetSeconds ?? null;
  const coveredUntilMs = coveredUntilOf(windows, watermarks);
  const silentSinceMs =
    coveredUntilMs ??
    (targetSeconds !== null && inputs.watchedSince !== undefined
      ? Date.parse(inputs.watchedSince)
      : undefined);
  const behindMs = silentSinceMs === undefined ? undefined : Math.max(0, nowMs - silentSinceMs);
  return {
    coveredUntil: coveredUntilMs === undefined ? null : wholeSecondInstant(coveredUntilMs),
    hoursBehind: behindMs === undefined ? null : hoursOf(behindMs),
    freshnessTargetHours: targetSeconds === null ? null : hoursOf(targetSeconds * MS_PER_SECOND),
    stale: targetSeconds !== null && behindMs !== undefined && behindMs > targetSeconds * MS_PER_SECOND,
  };
}

function coveredUntilOf(
  windows: readonly CoverageWindow[],
  watermarks: readonly ScheduleWatermark[],
): number | undefined {
  const intervalOf = (window: CoverageWindow) => ({
    fromMs: Date.parse(window.from),
    untilMs: Date.parse(window.until),
  });
  const covered = mergeIntervals(
    windows.filter((window) => window.state === WindowState.COVERED).map(intervalOf),
  );
  const scheduled = mergeIntervals(
    windows.filter((window) => window.source.kind === 'schedule').map(intervalOf),
  );
  const firstMissingMs = scheduled
    .flatMap((interval) => subtractIntervals(interval, covered))
    .reduce<number | undefined>((first, part) => Math.min(first ?? part.fromMs, part.fromMs), undefined);
  if (firstMissingMs !== undefined) return firstMissingMs;
  const plannedUntil = [
    ...watermarks.map((watermark) => Date.parse(watermark.until)),
    ...scheduled.map((interval) => interval.untilMs),
  ];
  if (plannedUntil.length > 0) return Math.max(...plannedUntil);
  const coveredEnds = covered.map((interval) => interval.untilMs);
  return coveredEnds.length > 0 ? Math.max(...coveredEnds) : undefined;
}
