/**
 * EventBridge Scheduler's schedule expressions, checked as Scheduler checks them, for the stack
 * configuration and for the local scheduler (which computes run times from the parsed fields):
 * - `rate(<n> <unit>)`: minute, hour or day, singular for 1 and plural otherwise;
 * - `cron(minutes hours day-of-month month day-of-week year)`, with `, - * /` in every field but
 *   day-of-week (no `/`), `?` in the day fields only and in exactly one of them, `L`, `LW` and
 *   `<n>W` in day-of-month, `L`, `<day>L` and `<day>#<n>` in day-of-week, month names JAN–DEC,
 *   day names SUN–SAT (1 = SUN … 7 = SAT), years from 1970 to 2199.
 * One-time `at(…)` schedules are refused: every schedule here repeats.
 * See https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html.
 */

export type ScheduleForm = 'rate' | 'cron';
export type RateUnit = 'minute' | 'hour' | 'day';

/** The six fields of a cron expression, names and letters in upper case. */
export type CronFields = readonly [
  minutes: string,
  hours: string,
  dayOfMonth: string,
  month: string,
  dayOfWeek: string,
  year: string,
];

export type ParsedScheduleExpression =
  | { kind: 'rate'; value: number; unit: RateUnit; intervalMs: number }
  | { kind: 'cron'; fields: CronFields };

export type ScheduleExpressionCheck =
  | { ok: true; schedule: ParsedScheduleExpression }
  | { ok: false; reason: string };

const MS_PER_UNIT: Record<RateUnit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
const RATE = /^rate\((\d+) ([a-z]+)\)$/;
const CRON = /^cron\((.*)\)$/;
const ONE_TIME = /^at\(/;
const ITEM = /^(\*|[0-9A-Z]+|[0-9A-Z]+-[0-9A-Z]+)(?:\/(\d+))?$/;
const CRON_FIELD_COUNT = 6;
/** At most the fifth of a weekday in a month. */
const MAX_WEEKDAY_OCCURRENCE = 5;

interface CronFieldRule {
  name: string;
  min: number;
  max: number;
  /** What a value is, for messages: `a day (1-7 or SUN-SAT)`. */
  noun: string;
  /** Names of the values from `min` on. */
  names?: readonly string[];
  steps: boolean;
}

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MINUTES: CronFieldRule = { name: 'minutes', min: 0, max: 59, noun: 'a minute (0-59)', steps: true };
const HOURS: CronFieldRule = { name: 'hours', min: 0, max: 23, noun: 'an hour (0-23)', steps: true };
const DAY_OF_MONTH: CronFieldRule = {
  name: 'day-of-month',
  min: 1,
  max: 31,
  noun: 'a day of the month (1-31)',
  steps: true,
};
const MONTH: CronFieldRule = {
  name: 'month',
  min: 1,
  max: 12,
  noun: 'a month (1-12 or JAN-DEC)',
  names: MONTH_NAMES,
  steps: true,
};
const DAY_OF_WEEK: CronFieldRule = {
  name: 'day-of-week',
  min: 1,
  max: 7,
  noun: 'a day (1-7 or SUN-SAT)',
  names: DAY_NAMES,
  steps: false,
};
const YEAR: CronFieldRule = { name: 'year', min: 1970, max: 2199, noun: 'a year (1970-2199)', steps: true };
const FIELD_RULES = [MINUTES, HOURS, DAY_OF_MONTH, MONTH, DAY_OF_WEEK, YEAR] as const;

/**
 * Whether `expression` is a Scheduler expression of one of `forms`; when it is, its parts.
 * Never throws: a refused expression comes back with the reason.
 */
export function checkScheduleExpression(
  expression: string,
  forms: readonly ScheduleForm[] = ['rate', 'cron'],
): ScheduleExpressionCheck {
  const expected = forms
    .map((form) => (form === 'rate' ? 'rate(<n> <unit>)' : 'cron(<6 fields>)'))
    .join(' or ');
  if (ONE_TIME.test(expression)) {
    return { ok: false, reason: 'one-time at() schedules are not supported: every schedule here repeats' };
  }
  const rate = RATE.exec(expression);
  if (rate !== null && forms.includes('rate')) return checkRate(Number(rate[1]), rate[2] as string);
  const cron = CRON.exec(expression);
  if (cron !== null && forms.includes('cron')) return checkCron(cron[1] as string);
  return { ok: false, reason: `expected ${expected}` };
}

/** The IANA name of a time zone given in any case (`europe/paris` → `Europe/Paris`); undefined for an unknown zone. */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function checkRate(value: number, unitText: string): ScheduleExpressionCheck {
  const unit = unitText.replace(/s$/, '');
  if (!(unit in MS_PER_UNIT)) return { ok: false, reason: 'the unit must be minute(s), hour(s) or day(s)' };
  if (value < 1) return { ok: false, reason: 'the rate must be at least 1' };
  if (unitText.endsWith('s') !== value > 1) {
    return { ok: false, reason: 'use a singular unit for 1 and a plural one otherwise' };
  }
  const rateUnit = unit as RateUnit;
  return {
    ok: true,
    schedule: { kind: 'rate', value, unit: rateUnit, intervalMs: value * MS_PER_UNIT[rateUnit] },
  };
}

function checkCron(fieldsText: string): ScheduleExpressionCheck {
  const fields = fieldsText.trim().toUpperCase().split(/\s+/);
  if (fields.length !== CRON_FIELD_COUNT) {
    return {
      ok: false,
      reason: `expected ${CRON_FIELD_COUNT} fields (minutes hours day-of-month month day-of-week year), got ${fields.length}`,
    };
  }
  const [, , dayOfMonth, , dayOfWeek] = fields;
  for (const [index, rule] of FIELD_RULES.entries()) {
    const reason = fieldProblem(rule, fields[index] as string);
    if (reason !== undefined) return { ok: false, reason };
  }
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    return { ok: false, reason: 'exactly one of day-of-month and day-of-week must be ?' };
  }
  return { ok: true, schedule: { kind: 'cron', fields: fields as unknown as CronFields } };
}

/** What is wrong with one field, or undefined. */
function fieldProblem(rule: CronFieldRule, field: string): string | undefined {
  const at = (what: string) => `${rule.name}: ${what}`;
  if (field === '?') {
    return rule === DAY_OF_MONTH || rule === DAY_OF_WEEK
      ? undefined
      : at('? is only allowed in day-of-month or day-of-week');
  }
  const items = field.split(',');
  for (const item of items) {
    const special =
      rule === DAY_OF_MONTH
        ? dayOfMonthSpecial(item)
        : rule === DAY_OF_WEEK
          ? dayOfWeekSpecial(item)
          : undefined;
    if (special !== undefined) {
      if (special !== '') return at(special);
      if (items.length > 1) return at(`"${item}" must stand alone, not in a list`);
      continue;
    }
    if (item === '*' && items.length > 1) return at('"*" must stand alone, not in a list');
    const problem = itemProblem(rule, item);
    if (problem !== undefined) return at(problem);
  }
  return undefined;
}

/** `''` for `L`, `LW` or `<n>W`, a reason when it is one of those but wrong, undefined for anything else. */
function dayOfMonthSpecial(item: string): string | undefined {
  if (item === 'L' || item === 'LW') return '';
  const weekday = /^(\d+)W$/.exec(item);
  if (weekday === null) return undefined;
  return outOfRange(DAY_OF_MONTH, Number(weekday[1])) ? `"${item}" is not ${DAY_OF_MONTH.noun} with W` : '';
}

/** `''` for `L`, `<day>L` or `<day>#<n>`, a reason when it is one of those but wrong, undefined for anything else. */
function dayOfWeekSpecial(item: string): string | undefined {
  if (item === 'L') return '';
  const last = /^([0-9A-Z]+?)L$/.exec(item);
  const nth = /^([0-9A-Z]+)#(\d+)$/.exec(item);
  const day = last?.[1] ?? nth?.[1];
  if (day === undefined) return undefined;
  if (fieldValue(DAY_OF_WEEK, day) === undefined) return `"${day}" is not ${DAY_OF_WEEK.noun}`;
  const occurrence = Number(nth?.[2] ?? 1);
  if (occurrence < 1 || occurrence > MAX_WEEKDAY_OCCURRENCE) {
    return `"${item}": the occurrence after # must be from 1 to ${MAX_WEEKDAY_OCCURRENCE}`;
  }
  return '';
}

/** What is wrong with `*`, a value or a range, each with an optional `/step`; undefined when nothing. */
function itemProblem(rule: CronFieldRule, item: string): string | undefined {
  const match = ITEM.exec(item);
  if (match === null) return `"${item}" is not ${rule.noun}, a range or a step`;
  const [, start = '', stepText] = match;
  if (stepText !== undefined) {
    if (!rule.steps) return `"${item}": / is not allowed in ${rule.name}`;
    const widest = rule.max - rule.min + 1;
    const step = Number(stepText);
    if (step < 1 || step > widest) return `"${item}": the step must be from 1 to ${widest}`;
  }
  if (start === '*') return undefined;
  const bounds = start.split('-');
  const values = bounds.map((bound) => fieldValue(rule, bound));
  const unknown = bounds.find((_, index) => values[index] === undefined);
  if (unknown !== undefined) {
    return /^\d+$/.test(unknown)
      ? `"${unknown}" is not from ${rule.min} to ${rule.max}`
      : `"${unknown}" is not ${rule.noun}`;
  }
  const [from, to] = values as number[];
  if (to !== undefined && (from as number) > to) return `"${start}" runs backwards`;
  return undefined;
}

/** A number in the field's range or one of its names, as a number; undefined otherwise. */
function fieldValue(rule: CronFieldRule, text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    return outOfRange(rule, value) ? undefined : value;
  }
  const index = rule.names?.indexOf(text) ?? -1;
  return index < 0 ? undefined : rule.min + index;
}

function outOfRange(rule: CronFieldRule, value: number): boolean {
  return value < rule.min || value > rule.max;
}
