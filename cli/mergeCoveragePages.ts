import type { SpotCoverage } from '../lib/exports/coverage/spotCoverageSchema';
import { type Interval, mergeIntervals, wholeSecondInstant } from '../lib/exports/time/intervals';

/** Hours are added to the thousandth, as the API gives them. */
const HOUR_DECIMALS_FACTOR = 1000;
const SUMMARY_HOURS = [
  'hours',
  'coveredHours',
  'inFlightHours',
  'gapHours',
  'notPlannedHours',
  'overlapHours',
  'provisionalHours',
  'restatementsWaiting',
] as const;

/**
 * The pages of one range as one answer of the same shape: pages follow each other without
 * overlap, so intervals are joined where pages meet, lists concatenated (each window is on one
 * page) and the summaries added. The watermarks are the last page's.
 */
export function mergeCoveragePages(pages: readonly SpotCoverage[]): SpotCoverage {
  const [first] = pages;
  const last = pages.at(-1);
  if (first === undefined || last === undefined) throw new RangeError('there is no page to merge');
  const summary = { ...first.summary };
  for (const key of SUMMARY_HOURS) {
    const total = pages.reduce((sum, page) => sum + page.summary[key], 0);
    summary[key] = Math.round(total * HOUR_DECIMALS_FACTOR) / HOUR_DECIMALS_FACTOR;
  }
  const { nextToken: _lastToken, ...lastWithoutToken } = last;
  return {
    ...lastWithoutToken,
    range: first.range,
    page: { from: first.page.from, until: last.page.until },
    covered: joined(pages.flatMap((page) => page.covered)),
    provisional: joined(pages.flatMap((page) => page.provisional)),
    coveredWindows: pages.flatMap((page) => page.coveredWindows),
    overlaps: joined(pages.flatMap((page) => page.overlaps)),
    gaps: pages.flatMap((page) => page.gaps),
    inFlight: pages.flatMap((page) => page.inFlight),
    summary,
    ...(last.nextToken !== undefined && { nextToken: last.nextToken }),
  };
}

function joined(intervals: readonly { from: string; until: string }[]): { from: string; until: string }[] {
  return mergeIntervals(intervals.map(intervalOf)).map((interval) => ({
    from: wholeSecondInstant(interval.fromMs),
    until: wholeSecondInstant(interval.untilMs),
  }));
}

function intervalOf(interval: { from: string; until: string }): Interval {
  return { fromMs: Date.parse(interval.from), untilMs: Date.parse(interval.until) };
}
