import { isoDurationSeconds } from '../lib/exports/time/isoDurationSeconds';
import { type CronFields, checkScheduleExpression } from './scheduleExpression';
import type { SpotScheduleConfig, StackConfig } from './stackConfig';

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;
/** A schedule's runs may come this many periods apart before its spot is stale (one missed run is tolerated). */
export const FRESHNESS_PERIODS = 2;
const SINGLE_VALUE = /^\d+$/;

/**
 * Each configured spot's freshness target in seconds, as the functions read it
 * (`FLEET_FRESHNESS_TARGETS`): the spot's own `freshnessTargetSeconds`, else the deployment's
 * `coverage.freshnessTargetSeconds` for a spot with schedules, else twice its longest schedule's
 * period plus that schedule's lag. A spot without schedules and without a target of its own has
 * none (`null`): nothing is due, so it is never stale.
 */
export function fleetFreshnessTargets(config: StackConfig): Record<string, number | null> {
  return Object.fromEntries(
    config.spots.map((spot) => {
      if (spot.freshnessTargetSeconds !== undefined) return [spot.spotId, spot.freshnessTargetSeconds];
      if (spot.schedules.length === 0) return [spot.spotId, null];
      const deployment = config.coverage.freshnessTargetSeconds;
      return [
        spot.spotId,
        deployment ?? Math.max(...spot.schedules.map((schedule) => scheduleFreshnessTargetSeconds(schedule))),
      ];
    }),
  );
}

/** Twice the schedule's period plus its lag: one late or missed run is not yet stale, two are. */
export function scheduleFreshnessTargetSeconds(schedule: SpotScheduleConfig): number {
  const lagSeconds = schedule.lag === undefined ? 0 : (isoDurationSeconds(schedule.lag) ?? 0);
  return FRESHNESS_PERIODS * schedulePeriodSeconds(schedule.expression) + lagSeconds;
}

/**
 * The longest time between two runs of a schedule expression: a rate's interval; for a cron,
 * the span of its coarsest field that is not every value (a minute or hour list within a day,
 * a day of the week, of the month or a month), so irregular crons err on the long side.
 */
export function schedulePeriodSeconds(expression: string): number {
  const check = checkScheduleExpression(expression);
  if (!check.ok) return SECONDS_PER_DAY;
  const { schedule } = check;
  if (schedule.kind === 'rate') return schedule.intervalMs / 1000;
  return cronPeriodSeconds(schedule.fields);
}

function cronPeriodSeconds([minutes, hours, dayOfMonth, month, dayOfWeek]: CronFields): number {
  const every = (field: string) => field === '*' || field === '?';
  if (!every(month)) return 366 * SECONDS_PER_DAY;
  if (!every(dayOfMonth)) return 31 * SECONDS_PER_DAY;
  if (!every(dayOfWeek)) return 7 * SECONDS_PER_DAY;
  if (!every(hours))
    return SINGLE_VALUE.test(hours) ? SECONDS_PER_DAY : largestStep(hours, 24) * SECONDS_PER_HOUR;
  if (!every(minutes)) return SINGLE_VALUE.test(minutes) ? SECONDS_PER_HOUR : largestStep(minutes, 60) * 60;
  return 60;
}

/** The longest wait between two listed values of a cron field that wraps at `modulo` (`0,6,12` → 12 of 24). */
function largestStep(field: string, modulo: number): number {
  const step = /^(?:\*|\d+)\/(\d+)$/.exec(field);
  if (step !== null) return Number(step[1]);
  const values = field
    .split(',')
    .filter((value) => SINGLE_VALUE.test(value))
    .map(Number)
    .sort((a, b) => a - b);
  if (values.length < 2) return modulo;
  const gaps = values.map(
    (value, index) => ((values[(index + 1) % values.length] as number) - value + modulo) % modulo || modulo,
  );
  return Math.max(...gaps);
}
