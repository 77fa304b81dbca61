import { canonicalTimeZone, checkScheduleExpression } from '../../infra/scheduleExpression';
import { ScheduleExpressionError } from '../errors';
import { type CronSchedule, cronSchedule } from './cronExpression';

/** When a schedule runs: every fixed interval, or on a calendar. */
export type ScheduleTiming = { kind: 'rate'; intervalMs: number } | { kind: 'cron'; cron: CronSchedule };

/**
 * An EventBridge Scheduler expression, checked by the validator the stack uses
 * (infra/scheduleExpression.ts): `rate(<n> <unit>)`, or `cron(<6 fields>)` on the wall clock
 * of `timeZone` (default UTC, any case).
 * @throws ScheduleExpressionError
 */
export function parseScheduleExpression(expression: string, timeZone = 'UTC'): ScheduleTiming {
  const check = checkScheduleExpression(expression);
  if (!check.ok) throw new ScheduleExpressionError(expression, check.reason);
  const { schedule } = check;
  if (schedule.kind === 'rate') return { kind: 'rate', intervalMs: schedule.intervalMs };
  const zone = canonicalTimeZone(timeZone);
  if (zone === undefined) throw new ScheduleExpressionError(expression, `unknown time zone ${timeZone}`);
  try {
    return { kind: 'cron', cron: cronSchedule(schedule.fields, zone) };
  } catch (error) {
    // Valid for Scheduler, but beyond what this machine can compute.
    throw new ScheduleExpressionError(expression, `cannot be run here: ${(error as Error).message}`);
  }
}
