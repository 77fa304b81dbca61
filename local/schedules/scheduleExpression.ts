import { ScheduleExpressionError } from '../errors';
import { type CronSchedule, parseCronExpression } from './cronExpression';

/** When a schedule runs: every fixed interval, or on a calendar. */
export type ScheduleTiming = { kind: 'rate'; intervalMs: number } | { kind: 'cron'; cron: CronSchedule };

const RATE_EXPRESSION = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const CRON_EXPRESSION = /^cron\((.*)\)$/;
const MS_PER_UNIT: Record<string, number> = {
  minute: 60_000,
  hour: 60 * 60_000,
  day: 24 * 60 * 60_000,
};

/**
 * An EventBridge Scheduler expression: `rate(<n> <unit>)` (singular unit for 1, as
 * Scheduler requires) or `cron(<6 fields>)` on the wall clock of `timeZone` (default UTC).
 * @throws ScheduleExpressionError
 */
export function parseScheduleExpression(expression: string, timeZone?: string): ScheduleTiming {
  const rate = RATE_EXPRESSION.exec(expression);
  if (rate !== null) {
    const value = Number(rate[1]);
    const unit = rate[2] as string;
    if (value < 1) throw new ScheduleExpressionError(expression, 'the rate must be at least 1');
    if (unit.endsWith('s') !== value > 1) {
      throw new ScheduleExpressionError(expression, 'use a singular unit for 1 and a plural one otherwise');
    }
    return { kind: 'rate', intervalMs: value * (MS_PER_UNIT[unit.replace(/s$/, '')] as number) };
  }
  const cron = CRON_EXPRESSION.exec(expression);
  if (cron !== null) return { kind: 'cron', cron: parseCronExpression(cron[1] as string, timeZone) };
  throw new ScheduleExpressionError(expression, 'expected rate(<n> <unit>) or cron(<6 fields>)');
}
