import { Cron } from 'croner';
import { ScheduleExpressionError } from '../errors';

/** When a cron schedule runs. */
export interface CronSchedule {
  /** The first run strictly after `afterMs` (epoch ms), undefined when there is none. */
  next(afterMs: number): number | undefined;
}

const AWS_FIELD_COUNT = 6;
/** EventBridge's year range. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 2199;
/** EventBridge numbers days of the week 1 (SUN) to 7 (SAT). */
const LAST_WEEKDAY_NUMBER = 7;
const MS_PER_MINUTE = 60_000;
/** Clock changes in use (Lord Howe shifts 30 min, Troll 2 h): a wall-clock time this long earlier may repeat. */
const CLOCK_CHANGES_MS = [30 * MS_PER_MINUTE, 60 * MS_PER_MINUTE, 120 * MS_PER_MINUTE];
/** Runs a clock change can push aside before the real next one; beyond this, no run. */
const MAX_SKIPPED_RUNS = 1_000;

/**
 * An EventBridge Scheduler cron expression — the six fields inside `cron(…)`: minutes, hours,
 * day-of-month, month, day-of-week (1 = SUN … 7 = SAT), year — on the wall clock of `timeZone`,
 * computed by croner. croner reads the AWS fields as they are (`?`, lists, ranges, `a/step`,
 * names, `L`, `LW`, `<n>W`, `<day>L`, `<day>#<n>`, Quartz day numbering) once a seconds field
 * is put in front; this adapter adds what EventBridge does differently:
 * - exactly one of day-of-month and day-of-week is `?` (croner accepts both or neither);
 * - `L` alone in day-of-week is Saturday (croner refuses it);
 * - years from 1970 to 2199 and days of the week up to 7 only (croner takes 1–9999 and 8 = SUN);
 * - `?` only in the day fields (croner takes it anywhere);
 * - clock changes as EventBridge Scheduler handles them: a time that does not exist when the
 *   clocks go forward is skipped (croner runs a fixed-time job after the gap instead), and a time
 *   repeated when they go back runs once (croner runs an interval job, e.g. `0/30 2`, twice).
 * @throws ScheduleExpressionError
 */
export function parseCronExpression(fieldsText: string, timeZone = 'UTC'): CronSchedule {
  const expression = `cron(${fieldsText})`;
  const fail = (reason: string): never => {
    throw new ScheduleExpressionError(expression, reason);
  };
  if (!isTimeZone(timeZone)) fail(`unknown time zone ${timeZone}`);
  const fields = fieldsText.trim().split(/\s+/);
  if (fields.length !== AWS_FIELD_COUNT) fail(`expected ${AWS_FIELD_COUNT} fields, got ${fields.length}`);
  const [minutes, hours, dayOfMonth, month, dayOfWeek, year] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    fail('exactly one of day-of-month and day-of-week must be ?');
  }
  if ([minutes, hours, month, year].some((field) => field.includes('?'))) {
    fail('? is only allowed in day-of-month or day-of-week');
  }
  if (numbersIn(year).some((value) => value < FIRST_YEAR || value > LAST_YEAR)) {
    fail(`year: "${year}" is not from ${FIRST_YEAR} to ${LAST_YEAR}`);
  }
  // Numbers before `#` are days; the one after it is the occurrence, which croner checks.
  if (numbersIn(dayOfWeek.replace(/#\d+/g, '')).some((value) => value > LAST_WEEKDAY_NUMBER)) {
    fail(`day-of-week: "${dayOfWeek}" is not from 1 to ${LAST_WEEKDAY_NUMBER}`);
  }
  const weekdays = dayOfWeek.toUpperCase() === 'L' ? 'SAT' : dayOfWeek;
  let cron: Cron;
  try {
    cron = new Cron(`0 ${minutes} ${hours} ${dayOfMonth} ${month} ${weekdays} ${year}`, {
      timezone: timeZone,
      mode: '7-part',
      alternativeWeekdays: true,
      // One of the two day fields is `?`, so AND picks the other one.
      domAndDow: true,
      // `a/step`, as EventBridge allows.
      sloppyRanges: true,
      paused: true,
    });
  } catch (error) {
    return fail((error as Error).message.replace(/^CronPattern: /, ''));
  }

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

/** The values a field names, steps left out. */
function numbersIn(field: string): number[] {
  return (field.replace(/\/\d+/g, '').match(/\d+/g) ?? []).map(Number);
}

function isTimeZone(timeZone: string): boolean {
  try {
    wallClockText(0, timeZone);
    return true;
  } catch {
    return false;
  }
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
