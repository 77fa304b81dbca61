import {
  coveredMs,
  type Interval,
  mergeIntervals,
  overlappingParts,
  subtractIntervals,
  wholeSecondInstant,
} from '../time/intervals';
import { type CoverageWindow, WindowState } from './CoverageLedger';
import type {
  CoverageGapView,
  CoverageOfWindows,
  CoveredWindowView,
  InstantInterval,
  WindowInFlightView,
} from './spotCoverageSchema';
import { currencyOf, isRestatementWaiting, nextRestatement, WindowCurrency } from './windowVersions';

const MS_PER_HOUR = 3_600_000;
/** Hours are given to the thousandth (3.6 s). */
const HOUR_DECIMALS_FACTOR = 1000;

/**
 * What `windows` say about `part`, a stretch of the range `[rangeFromMs, …)` asked about: each
 * window is clipped to `part` for the hours; the gaps and windows in flight listed are those
 * whose start (or the range's start, for one that began before it) falls in `part`, so a window
 * reaching over into the next page is listed once, on the page it starts in.
 */
export function coverageOfWindows(
  windows: readonly CoverageWindow[],
  part: Interval,
  rangeFromMs: number,
  nowMs: number = Date.now(),
): CoverageOfWindows {
  const clippedOf = (states: readonly WindowState[]) =>
    mergeIntervals(
      windows
        .filter((window) => states.includes(window.state))
        .map((window) => clip(intervalOf(window), part))
        .filter((interval) => interval !== undefined),
    );
  const covered = clippedOf([WindowState.COVERED]);
  const settled = mergeIntervals(
    windows
      .filter((window) => currencyOf(window) === WindowCurrency.SETTLED)
      .map((window) => clip(intervalOf(window), part))
      .filter((interval) => interval !== undefined),
  );
  const provisional = covered.flatMap((interval) => subtractIntervals(interval, settled));
  const inFlightOrCovered = clippedOf([WindowState.COVERED, WindowState.IN_FLIGHT, WindowState.RETRYING]);
  const planned = clippedOf(Object.values(WindowState));
  const inFlightMs = coveredMs(inFlightOrCovered) - coveredMs(covered);
  const gapMs = coveredMs(planned) - coveredMs(inFlightOrCovered);
  const notPlannedMs = coveredMs(subtractIntervals(part, planned));
  const overlaps = overlappingParts(
    windows
      .filter((window) => window.state !== WindowState.GAP)
      .map((window) => clip(intervalOf(window), part))
      .filter((interval) => interval !== undefined),
  );

  const listedHere = windows.filter((window) => {
    const listedAtMs = Math.max(Date.parse(window.from), rangeFromMs);
    return listedAtMs >= part.fromMs && listedAtMs < part.untilMs;
  });
  const gaps = listedHere
    .filter((window) => window.state === WindowState.GAP)
    .map((window): CoverageGapView => {
      const inPage = clip(intervalOf(window), part);
      const open = inPage === undefined ? [] : subtractIntervals(inPage, inFlightOrCovered);
      return {
        from: window.from,
        until: window.until,
        reason: window.reason ?? 'no reason was recorded',
        attempts: window.attempts,
        exportIds: [...window.exportIds],
        source: window.source,
        plannedAt: window.plannedAt,
        openHours: hoursOf(coveredMs(open)),
      };
    });
  const inFlight = listedHere
    .filter((window) => window.state === WindowState.IN_FLIGHT || window.state === WindowState.RETRYING)
    .map(
      (window): WindowInFlightView => ({
        from: window.from,
        until: window.until,
        state: window.state as WindowInFlightView['state'],
        exportId: window.exportId,
        exportIds: [...window.exportIds],
        attempts: window.attempts,
        source: window.source,
        plannedAt: window.plannedAt,
        ...(window.state === WindowState.RETRYING &&
          window.nextAttemptAt !== undefined && { nextAttemptAt: window.nextAttemptAt }),
        ...(window.state === WindowState.RETRYING &&
          window.reason !== undefined && { reason: window.reason }),
      }),
    );

  const coveredWindows = listedHere
    .filter((window) => window.state === WindowState.COVERED)
    .map((window): CoveredWindowView => coveredWindowView(window, nowMs));

  return {
    covered: covered.map(instantsOf),
    provisional: provisional.map(instantsOf),
    coveredWindows,
    overlaps: overlaps.map(instantsOf),
    gaps,
    inFlight,
    summary: {
      hours: hoursOf(part.untilMs - part.fromMs),
      coveredHours: hoursOf(coveredMs(covered)),
      inFlightHours: hoursOf(inFlightMs),
      gapHours: hoursOf(gapMs),
      notPlannedHours: hoursOf(notPlannedMs),
      overlapHours: hoursOf(coveredMs(overlaps)),
      provisionalHours: hoursOf(coveredMs(provisional)),
      restatementsWaiting: coveredWindows.filter((view) => view.restatement?.state === 'WAITING').length,
    },
  };
}

function coveredWindowView(window: CoverageWindow, nowMs: number): CoveredWindowView {
  const currency = currencyOf(window) ?? WindowCurrency.PROVISIONAL;
  const restatement = window.restatement;
  const next =
    restatement?.nextAttemptAt !== undefined &&
    (restatement.state === 'RETRYING' || isRestatementWaiting(window))
      ? restatement.nextAttemptAt
      : (() => {
          const due = nextRestatement(window, nowMs);
          return due === undefined ? undefined : new Date(Math.max(due.dueAtMs, nowMs)).toISOString();
        })();
  return {
    from: window.from,
    until: window.until,
    source: window.source,
    currency,
    versions: (window.versions ?? []).map((version) => ({ ...version })),
    ...(window.restate !== undefined && window.restate.length > 0 && { restate: [...window.restate] }),
    ...(currency === WindowCurrency.PROVISIONAL && next !== undefined && { nextRestatementAt: next }),
    ...(restatement !== undefined && {
      restatement: {
        age: restatement.age,
        state: restatement.state,
        exportIds: [...restatement.exportIds],
        attempts: restatement.attempts,
        dueSince: restatement.dueSince,
        ...(restatement.nextAttemptAt !== undefined && { nextAttemptAt: restatement.nextAttemptAt }),
        ...(restatement.reason !== undefined && { reason: restatement.reason }),
      },
    }),
  };
}

/** Milliseconds as hours, to the thousandth. */
export function hoursOf(ms: number): number {
  return Math.round((ms / MS_PER_HOUR) * HOUR_DECIMALS_FACTOR) / HOUR_DECIMALS_FACTOR;
}

function intervalOf(window: CoverageWindow): Interval {
  return { fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) };
}

function clip(interval: Interval, part: Interval): Interval | undefined {
  const fromMs = Math.max(interval.fromMs, part.fromMs);
  const untilMs = Math.min(interval.untilMs, part.untilMs);
  return untilMs > fromMs ? { fromMs, untilMs } : undefined;
}

function instantsOf(interval: Interval): InstantInterval {
  return { from: wholeSecondInstant(interval.fromMs), until: wholeSecondInstant(interval.untilMs) };
}
