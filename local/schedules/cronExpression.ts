import { Cron } from 'croner';
import type { CronFields } from '../../infra/scheduleExpression';

/** When a cron schedule runs. */
export interface CronSchedule {
  /** The first run strictly after `afterMs` (epoch ms), undefined when there is none. */
  next(afterMs: number): number | undefined;
}

const MS_PER_MINUTE = 60_000;
/** Clock changes in use (Lord Howe shifts 30 min, Troll 2 h): a wall-clock time this long earlier may repeat. */
const CLOCK_CHANGES_MS = [30 * MS_PER_MINUTE, 60 * MS_PER_MINUTE, 120 * MS_PER_MINUTE];
/** Runs a clock change can push aside before the real next one; beyond this, no run. */
const MAX_SKIPPED_RUNS = 1_000;

/**
 * Run times of a cron expression checked by the stack's validator (infra/scheduleExpression.ts),
 * on the wall clock of `timeZone` (an IANA name), computed by croner. croner reads the AWS fields
 * as they are (`?`, lists, ranges, `a/step`, names, `L`, `LW`, `<n>W`, `<day>L`, `<day>#<n>`, Quartz
 * day numbering) once a seconds field is put in front; this adapter adds what EventBridge does
 * differently:
 * - `L` alone in day-of-week is Saturday (croner refuses it);
 * - clock changes as EventBridge Scheduler handles them: a time that does not exist when the
 *   clocks go forward is skipped (croner runs a fixed-time job after the gap instead), and a time
 *   repeated when they go back runs once (croner runs an interval job, e.g. `0/30 2`, twice).
 */
export function cronSchedule(fields: CronFields, timeZone: string): CronSchedule {
  const [minutes, hours, dayOfMonth, month, dayOfWeek, year] = fields;
  const weekdays = dayOfWeek === 'L' ? 'SAT' : dayOfWeek;
  const cron = new Cron(`0 ${minutes} ${hours} ${dayOfMonth} ${month} ${weekdays} ${year}`, {
    timezone: timeZone,
    mode: '7-part',
    alternativeWeekdays: true,
    // One of the two day fields is `?`, so AND picks the other one.
    domAndDow: true,
    // `a/step`, as EventBridge allows.
    sloppyRanges: true,
    paused: true,
  });

  return {
    next(afterMs: number): number | undefined {
      let after = new Date(afterMs);
      for (let skipped = 0; skipped <= MAX_SKIPPED_RUNS; skipped += 1) {
        const run = cron.nextRun(after);
        if (run === null) return undefined;
        // croner moves a fixed-time run out of a gap in the clock; its wall clock then no longer matches.
        if (cron.match(run) && !isRepeatedWallClock(run.getTime(), timeZone)) return run.getTime();
        after = run;
      }
      return undefined;
    },
  };
}

/** The second pass through a wall-clock time when the clocks go back. */
function isRepeatedWallClock(epochMs: number, timeZone: string): boolean {
  const wallClock = wallClockText(epochMs, timeZone);
  return CLOCK_CHANGES_MS.some((change) => wallClockText(epochMs - change, timeZone) === wallClock);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The date and time to the minute on the wall of `timeZone`. @throws RangeError for an unknown zone */
function wallClockText(epochMs: number, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(epochMs);
}
