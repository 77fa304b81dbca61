import type { SpotCoverage } from '../lib/exports/coverage/spotCoverageSchema';
import { coveredMs, type Interval, mergeIntervals, subtractIntervals } from '../lib/exports/time/intervals';
import { CLI_NAME } from '../lib/settings/localRuntimeLayout';
import type { FollowUpCommand } from './CliCommand';

const MS_PER_HOUR = 3_600_000;
const HOURS_PER_DAY = 24;
const MS_PER_DAY = HOURS_PER_DAY * MS_PER_HOUR;
/** Hour cells are grouped by this many, a space between groups. */
const HOURS_PER_GROUP = 6;
/** Gaps and windows in flight listed at most; `--json` has them all. */
export const MAX_LISTED_WINDOWS = 20;

/** What an hour cell of the timeline shows. */
export const CoverageCell = {
  COVERED: '#',
  /** Covered, but a restatement of it is still to come (or was given up): its data may still change. */
  PROVISIONAL: '+',
  IN_FLIGHT: '~',
  GAP: 'X',
  NOT_PLANNED: '.',
  OUTSIDE: ' ',
} as const;

export type CoverageCell = (typeof CoverageCell)[keyof typeof CoverageCell];

const LEGEND =
  `${CoverageCell.COVERED} covered (archived)   ${CoverageCell.IN_FLIGHT} in flight or retrying   ` +
  `${CoverageCell.GAP} gap (given up)   ${CoverageCell.NOT_PLANNED} not planned   blank: outside the range`;
const PROVISIONAL_LEGEND = `${CoverageCell.PROVISIONAL} covered, provisional: exported again at its restatement ages, not settled yet`;
const LEGEND_RULE = `An hour shows what holds most of it, and ${CoverageCell.GAP} wherever a gap touches it.`;

/** Where each kind of hour lies: each instant of the range in exactly one of them. */
interface CoverageParts {
  /** Covered and settled (or without restatement ages). */
  covered: Interval[];
  /** Covered, a restatement still to come. */
  provisional: Interval[];
  inFlight: Interval[];
  gap: Interval[];
  notPlanned: Interval[];
}

/**
 * A spot's coverage for a terminal: a timeline of one line per UTC day with a cell per hour and
 * the hours covered that day, a legend, the summary, then the gaps (with their reasons and the
 * command that fills each), the windows in flight and the schedules' watermarks.
 */
export function formatCoverage(
  view: SpotCoverage,
  followUp: FollowUpCommand = (words) => `${CLI_NAME} ${words}`,
): string {
  const range = intervalOf(view.range);
  const parts = partsOf(view, range);
  if (
    view.summary.notPlannedHours >= view.summary.hours &&
    view.gaps.length === 0 &&
    view.inFlight.length === 0
  )
    return `${[
      `Coverage of ${view.spotId} from ${instantText(view.range.from)} to ${instantText(view.range.until)} UTC (${hoursText(view.summary.hours)})`,
      '',
      'Nothing is planned in this range: no scheduled run, backfill or export of a date range recorded a window in it.',
      '',
      ...watermarkLines(view),
    ].join('\n')}\n`;
  const lines = [
    `Coverage of ${view.spotId} from ${instantText(view.range.from)} to ${instantText(view.range.until)} UTC (${hoursText(view.summary.hours)})`,
    '',
    ...timeline(range, parts),
    '',
    LEGEND,
    ...(parts.provisional.length > 0 ? [PROVISIONAL_LEGEND] : []),
    LEGEND_RULE,
    '',
    summaryLine(view.summary),
    '',
    ...gapLines(view, followUp),
    '',
    ...inFlightLines(view),
    '',
    ...watermarkLines(view),
  ];
  return `${lines.join('\n')}\n`;
}

/** The cell of one hour: a gap if any of it is one, else what holds most of it (the less covered on a tie). */
export function cellOf(hour: Interval, parts: CoverageParts): CoverageCell {
  const within = (intervals: Interval[]) => coveredMs(intervals.map((i) => clip(i, hour)).filter(isSome));
  if (within(parts.gap) > 0) return CoverageCell.GAP;
  const shares: [CoverageCell, number][] = [
    [CoverageCell.NOT_PLANNED, within(parts.notPlanned)],
    [CoverageCell.IN_FLIGHT, within(parts.inFlight)],
    [CoverageCell.PROVISIONAL, within(parts.provisional)],
    [CoverageCell.COVERED, within(parts.covered)],
  ];
  const [cell, ms] = shares.reduce((best, share) => (share[1] > best[1] ? share : best));
  return ms > 0 ? cell : CoverageCell.OUTSIDE;
}

function partsOf(view: SpotCoverage, range: Interval): CoverageParts {
  const allCovered = mergeIntervals(view.covered.map(intervalOf));
  const provisional = mergeIntervals(view.provisional.map(intervalOf));
  const covered = subtractAll(allCovered, provisional);
  const inFlight = subtractAll(view.inFlight.map(intervalOf), allCovered);
  const gap = subtractAll(view.gaps.map(intervalOf), [...allCovered, ...inFlight]);
  const notPlanned = subtractIntervals(range, [...allCovered, ...inFlight, ...gap]);
  return { covered, provisional, inFlight, gap, notPlanned };
}

function timeline(range: Interval, parts: CoverageParts): string[] {
  const firstDayMs = Math.floor(range.fromMs / MS_PER_DAY) * MS_PER_DAY;
  const lastDayMs = Math.floor((range.untilMs - 1) / MS_PER_DAY) * MS_PER_DAY;
  const groupWidth = HOURS_PER_GROUP + 1;
  const labels = Array.from({ length: HOURS_PER_DAY / HOURS_PER_GROUP }, (_, group) =>
    String(group * HOURS_PER_GROUP)
      .padStart(2, '0')
      .padEnd(groupWidth),
  ).join('');
  const lines = [`UTC hour    ${labels}  covered`];
  for (let dayMs = firstDayMs; dayMs <= lastDayMs; dayMs += MS_PER_DAY) {
    const day = { fromMs: dayMs, untilMs: dayMs + MS_PER_DAY };
    const cells = Array.from({ length: HOURS_PER_DAY }, (_, hour) => {
      const cell = { fromMs: dayMs + hour * MS_PER_HOUR, untilMs: dayMs + (hour + 1) * MS_PER_HOUR };
      const inRange = clip(cell, range);
      const symbol = inRange === undefined ? CoverageCell.OUTSIDE : cellOf(inRange, parts);
      return (hour > 0 && hour % HOURS_PER_GROUP === 0 ? ' ' : '') + symbol;
    }).join('');
    const coveredToday = coveredMs(
      [...parts.covered, ...parts.provisional].map((i) => clip(i, day)).filter(isSome),
    );
    lines.push(
      `${dayText(dayMs)}  ${cells}  ${hoursText(coveredToday / MS_PER_HOUR).padStart('covered'.length)}`,
    );
  }
  return lines;
}

function summaryLine(summary: SpotCoverage['summary']): string {
  const overlap =
    summary.overlapHours > 0 ? ` ${hoursText(summary.overlapHours)} exported by more than one window.` : '';
  return (
    `In all: ${hoursText(summary.coveredHours)} covered, ${hoursText(summary.inFlightHours)} in flight, ` +
    `${hoursText(summary.gapHours)} gap, ${hoursText(summary.notPlannedHours)} not planned, ` +
    `of ${hoursText(summary.hours)}.${overlap}${restatementText(summary)}`
  );
}

function restatementText(summary: SpotCoverage['summary']): string {
  const provisional =
    summary.provisionalHours > 0
      ? ` ${hoursText(summary.provisionalHours)} of the covered are provisional.`
      : '';
  const waiting =
    summary.restatementsWaiting > 0
      ? ` ${summary.restatementsWaiting} restatement(s) waiting for the spot's daily budget.`
      : '';
  return `${provisional}${waiting}`;
}

function gapLines(view: SpotCoverage, followUp: FollowUpCommand): string[] {
  if (view.gaps.length === 0) return ['Gaps: none.'];
  const lines = [`Gaps (${view.gaps.length}): windows given up on, exported again only when filled:`];
  for (const gap of view.gaps.slice(0, MAX_LISTED_WINDOWS)) {
    const filled = gap.openHours === 0 ? ', covered since by another window' : '';
    lines.push(
      `  ${windowText(gap)}, ${sourceText(gap.source)}, ${attemptsText(gap.attempts)}${filled}`,
      `    why:     ${gap.reason}`,
      `    exports: ${gap.exportIds.join(', ') || 'none'}`,
    );
    if (gap.openHours > 0)
      lines.push(
        `    fill it: ${followUp(`start --spot ${view.spotId} --from ${gap.from} --until ${gap.until}`)}`,
      );
  }
  return [...lines, ...moreLine(view.gaps.length)];
}

function inFlightLines(view: SpotCoverage): string[] {
  if (view.inFlight.length === 0) return ['In flight: none.'];
  const lines = [`In flight (${view.inFlight.length}): queued, running, archiving, or to be tried again:`];
  for (const window of view.inFlight.slice(0, MAX_LISTED_WINDOWS)) {
    const retry =
      window.nextAttemptAt === undefined
        ? ''
        : `, next attempt at ${instantText(window.nextAttemptAt)} UTC${window.reason === undefined ? '' : ` (${window.reason})`}`;
    lines.push(
      `  ${windowText(window)}  ${window.state}, ${sourceText(window.source)}, export ${window.exportId}, ` +
        `${attemptsText(window.attempts)}${retry}`,
    );
  }
  return [...lines, ...moreLine(view.inFlight.length)];
}

function watermarkLines(view: SpotCoverage): string[] {
  if (view.watermarks.length === 0) return ['Schedules: none has planned windows for this spot yet.'];
  const width = Math.max(...view.watermarks.map((watermark) => watermark.schedule.length));
  return [
    "Schedules' watermarks (each run exports from its watermark up to its scheduled time, less its lag):",
    ...view.watermarks.map(
      (watermark) =>
        `  ${watermark.schedule.padEnd(width)}  ${instantText(watermark.until)} UTC (moved ${instantText(watermark.updatedAt)} UTC)`,
    ),
  ];
}

function moreLine(count: number): string[] {
  return count > MAX_LISTED_WINDOWS
    ? [`  … and ${count - MAX_LISTED_WINDOWS} more (--json lists them all)`]
    : [];
}

function windowText(window: { from: string; until: string }): string {
  const { fromMs, untilMs } = intervalOf(window);
  return `${instantText(window.from)} → ${instantText(window.until)} UTC (${hoursText((untilMs - fromMs) / MS_PER_HOUR)})`;
}

function sourceText(source: SpotCoverage['gaps'][number]['source']): string {
  if (source.kind === 'schedule' && source.schedule !== undefined) return `schedule ${source.schedule}`;
  if (source.kind === 'backfill' && source.backfillId !== undefined) return `backfill ${source.backfillId}`;
  return 'API export';
}

function attemptsText(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/** `2026-11-20 06:00` (seconds shown when not zero), in UTC. */
function instantText(instant: string): string {
  const text = new Date(Date.parse(instant)).toISOString().slice(0, 19).replace('T', ' ');
  return text.endsWith(':00') ? text.slice(0, -3) : text;
}

function dayText(dayMs: number): string {
  return new Date(dayMs).toISOString().slice(0, 10);
}

/** `24 h`, `14.5 h`, `<0.1 h`: hours to the tenth, never a non-zero amount shown as 0. */
export function hoursText(hours: number): string {
  if (hours > 0 && hours < 0.05) return '<0.1 h';
  const rounded = Math.round(hours * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} h`;
}

function intervalOf(interval: { from: string; until: string }): Interval {
  return { fromMs: Date.parse(interval.from), untilMs: Date.parse(interval.until) };
}

function clip(interval: Interval, within: Interval): Interval | undefined {
  const fromMs = Math.max(interval.fromMs, within.fromMs);
  const untilMs = Math.min(interval.untilMs, within.untilMs);
  return untilMs > fromMs ? { fromMs, untilMs } : undefined;
}

function isSome<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function subtractAll(intervals: readonly Interval[], taken: readonly Interval[]): Interval[] {
  return mergeIntervals(intervals).flatMap((interval) => subtractIntervals(interval, taken));
}
