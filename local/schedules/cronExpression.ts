import { ScheduleExpressionError } from '../errors';
import { dayOfWeek, daysInMonth, type WallClock, wallClockAt } from './zonedWallClock';

/** When a cron schedule runs next. */
export interface CronSchedule {
  /** The first run strictly after `afterMs` (epoch ms), undefined when there is none within the search horizon. */
  next(afterMs: number): number | undefined;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Names of min, min + 1, … (JAN…, SUN…). */
  names?: readonly string[];
}

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;
/** Far enough for any yearly expression (29 February included); an expression with no run in it never runs. */
const SEARCH_HORIZON_MS = 5 * 366 * 24 * MS_PER_HOUR;
/** A day that does not match is skipped in big steps up to this close to its end, then hour by hour (DST-safe). */
const DAY_SKIP_MARGIN_MINUTES = 120;

const MINUTES: FieldSpec = { name: 'minutes', min: 0, max: 59 };
const HOURS: FieldSpec = { name: 'hours', min: 0, max: 23 };
const DAY_OF_MONTH: FieldSpec = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldSpec = {
  name: 'month',
  min: 1,
  max: 12,
  names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
};
const DAY_OF_WEEK: FieldSpec = {
  name: 'day-of-week',
  min: 1,
  max: 7,
  names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'],
};
const YEAR: FieldSpec = { name: 'year', min: 1970, max: 2199 };
const SATURDAY = 7;
const SUNDAY = 1;
const MAX_WEEKDAY_OCCURRENCE = 5;

type DayMatcher = (clock: WallClock) => boolean;

/**
 * An EventBridge Scheduler cron expression — the six fields inside `cron(…)`: minutes,
 * hours, day-of-month, month, day-of-week (1 = SUN), year — evaluated on the wall clock
 * of `timeZone`. Supports `*`, `?`, lists, ranges, steps, month and day names, `L`, `LW`
 * and `<n>W` in day-of-month, `L`, `<day>L` and `<day>#<n>` in day-of-week. As in
 * EventBridge, exactly one of day-of-month and day-of-week is `?`. A wall-clock time
 * repeated when the clocks go back runs once; one skipped when they go forward does not run.
 * @throws ScheduleExpressionError
 */
export function parseCronExpression(fieldsText: string, timeZone = 'UTC'): CronSchedule {
  const expression = `cron(${fieldsText})`;
  const fail = (reason: string): never => {
    throw new ScheduleExpressionError(expression, reason);
  };
  try {
    wallClockAt(0, timeZone);
  } catch {
    fail(`unknown time zone ${timeZone}`);
  }
  const fields = fieldsText.trim().split(/\s+/);
  if (fields.length !== 6) fail(`expected 6 fields, got ${fields.length}`);
  const [minuteField, hourField, domField, monthField, dowField, yearField] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if ((domField === '?') === (dowField === '?')) {
    fail('exactly one of day-of-month and day-of-week must be ?');
  }
  const values = (text: string, spec: FieldSpec) => {
    try {
      return parseValues(text, spec);
    } catch (error) {
      return fail(`${spec.name}: ${(error as Error).message}`);
    }
  };
  const minutes = [...values(minuteField, MINUTES)].sort((a, b) => a - b);
  const hours = values(hourField, HOURS);
  const months = values(monthField, MONTH);
  const years = values(yearField, YEAR);
  const lastYear = Math.max(...years);
  let dayMatches: DayMatcher;
  try {
    dayMatches = domField === '?' ? dayOfWeekMatcher(dowField) : dayOfMonthMatcher(domField);
  } catch (error) {
    return fail((error as Error).message);
  }

  return {
    next(afterMs: number): number | undefined {
      let candidate = Math.floor(afterMs / MS_PER_MINUTE) * MS_PER_MINUTE + MS_PER_MINUTE;
      const horizon = afterMs + SEARCH_HORIZON_MS;
      while (candidate <= horizon) {
        const clock = wallClockAt(candidate, timeZone);
        if (clock.year > lastYear) return undefined;
        if (!years.has(clock.year) || !months.has(clock.month) || !dayMatches(clock)) {
          candidate += minutesToSkipDay(clock) * MS_PER_MINUTE;
        } else if (!hours.has(clock.hour)) {
          candidate += (MINUTES_PER_HOUR - clock.minute) * MS_PER_MINUTE;
        } else {
          const minute = minutes.find((allowed) => allowed >= clock.minute);
          if (minute === undefined) candidate += (MINUTES_PER_HOUR - clock.minute) * MS_PER_MINUTE;
          // Moved, then checked again: the zone's offset may change on the way.
          else if (minute > clock.minute) candidate += (minute - clock.minute) * MS_PER_MINUTE;
          else if (isRepeatedWallClock(candidate, clock, timeZone)) candidate += MS_PER_MINUTE;
          else return candidate;
        }
      }
      return undefined;
    },
  };
}

function minutesToSkipDay(clock: WallClock): number {
  const remaining = MINUTES_PER_DAY - (clock.hour * MINUTES_PER_HOUR + clock.minute);
  return remaining > DAY_SKIP_MARGIN_MINUTES + MINUTES_PER_HOUR
    ? remaining - DAY_SKIP_MARGIN_MINUTES
    : MINUTES_PER_HOUR - clock.minute;
}

/** The second pass through a wall-clock time when the clocks go back an hour. */
function isRepeatedWallClock(epochMs: number, clock: WallClock, timeZone: string): boolean {
  const hourBefore = wallClockAt(epochMs - MS_PER_HOUR, timeZone);
  return hourBefore.day === clock.day && hourBefore.hour === clock.hour && hourBefore.minute === clock.minute;
}

function dayOfMonthMatcher(text: string): DayMatcher {
  const field = text.toUpperCase();
  if (field === 'L') return (clock) => clock.day === daysInMonth(clock.year, clock.month);
  if (field === 'LW') return (clock) => clock.day === lastWeekdayOfMonth(clock.year, clock.month);
  const nearest = /^(\d{1,2})W$/.exec(field);
  if (nearest !== null) {
    const day = Number(nearest[1]);
    if (day < DAY_OF_MONTH.min || day > DAY_OF_MONTH.max) {
      throw new Error(`day-of-month: ${day} is not from 1 to 31`);
    }
    return (clock) => clock.day === nearestWeekday(clock.year, clock.month, day);
  }
  let days: Set<number>;
  try {
    days = parseValues(field, DAY_OF_MONTH);
  } catch (error) {
    throw new Error(`day-of-month: ${(error as Error).message}`);
  }
  return (clock) => days.has(clock.day);
}

function dayOfWeekMatcher(field: string): DayMatcher {
  const upper = field.toUpperCase();
  if (upper === 'L') return (clock) => clock.weekday === SATURDAY;
  const last = /^(\w+)L$/.exec(upper);
  if (last !== null) {
    const weekday = weekdayValue(last[1] as string);
    return (clock) => clock.weekday === weekday && clock.day + 7 > daysInMonth(clock.year, clock.month);
  }
  const nth = /^(\w+)#(\d)$/.exec(upper);
  if (nth !== null) {
    const weekday = weekdayValue(nth[1] as string);
    const occurrence = Number(nth[2]);
    if (occurrence < 1 || occurrence > MAX_WEEKDAY_OCCURRENCE) {
      throw new Error(`day-of-week: #${occurrence} must be from 1 to ${MAX_WEEKDAY_OCCURRENCE}`);
    }
    return (clock) => clock.weekday === weekday && Math.ceil(clock.day / 7) === occurrence;
  }
  let weekdays: Set<number>;
  try {
    weekdays = parseValues(field, DAY_OF_WEEK);
  } catch (error) {
    throw new Error(`day-of-week: ${(error as Error).message}`);
  }
  return (clock) => weekdays.has(clock.weekday);
}

function weekdayValue(text: string): number {
  try {
    return singleValue(text, DAY_OF_WEEK);
  } catch (error) {
    throw new Error(`day-of-week: ${(error as Error).message}`);
  }
}

function lastWeekdayOfMonth(year: number, month: number): number {
  let day = daysInMonth(year, month);
  while (isWeekend(dayOfWeek(year, month, day))) day -= 1;
  return day;
}

/** `<n>W`: the weekday nearest to day n, without leaving the month; no run when the month is shorter. */
function nearestWeekday(year: number, month: number, day: number): number | undefined {
  const lastDay = daysInMonth(year, month);
  if (day > lastDay) return undefined;
  const weekday = dayOfWeek(year, month, day);
  if (weekday === SATURDAY) return day === 1 ? day + 2 : day - 1;
  if (weekday === SUNDAY) return day === lastDay ? day - 2 : day + 1;
  return day;
}

function isWeekend(weekday: number): boolean {
  return weekday === SATURDAY || weekday === SUNDAY;
}

/** The values a field allows: `*`, `a`, `a-b`, with an optional `/step`, comma-separated. @throws Error */
function parseValues(field: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const item of field.toUpperCase().split(',')) {
    const match = /^(\*|\w+)(?:-(\w+))?(?:\/(\d+))?$/.exec(item);
    if (match === null) throw new Error(`cannot read "${item}"`);
    const [, startText = '', endText, stepText] = match;
    const start = startText === '*' ? spec.min : singleValue(startText, spec);
    if (startText === '*' && endText !== undefined) throw new Error(`cannot read "${item}"`);
    // `a/step` runs from a to the field's end, like `*/step` from its start.
    const end =
      endText !== undefined
        ? singleValue(endText, spec)
        : startText === '*' || stepText !== undefined
          ? spec.max
          : start;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw new Error(`step of "${item}" must be at least 1`);
    if (end < start) throw new Error(`range "${item}" runs backwards`);
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return values;
}

function singleValue(text: string, spec: FieldSpec): number {
  const named = spec.names?.indexOf(text) ?? -1;
  const value = named >= 0 ? spec.min + named : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= spec.min && value <= spec.max)) {
    throw new Error(`"${text}" is not from ${spec.min} to ${spec.max}`);
  }
  return value;
}
