import { scheduleDescription, scheduledExportEventOf } from '../../infra/scheduledExportEventOf';
import type { SpotScheduleConfig, StackConfig } from '../../infra/stackConfig';
import type { ReconcilerEvent } from '../../lib/events/reconcilerEvent';
import type { ScheduledExportEvent } from '../../lib/events/scheduledExportEvent';
import { isoDurationSeconds } from '../../lib/exports/time/isoDurationSeconds';
import { HandlerNames } from '../../lib/http/routeTable';
import type { LocalScheduleDefinition } from './LocalSchedules';

const MS_PER_MINUTE = 60_000;

/** The reconciler's name, as the stack's schedule construct is named. */
export const RECONCILER_SCHEDULE_NAME = 'Reconciler';

/** Name of a spot's export schedule, as the stack's schedule construct is named. */
export function exportScheduleName(spotId: string, index: number): string {
  return `Export-${spotId}-${index}`;
}

/**
 * The schedules the stack deploys for this configuration (see ExportSchedules): one per
 * configured spot schedule, invoking the start handler with the Scheduler event, and the
 * reconciler invoking the reconcile function. A schedule's `restate` ages last `timeScale` times
 * as long, like its `rate()` and the simulator's moderation delays (see `scaledRestatementAges`).
 */
export function localScheduleDefinitions(config: StackConfig, timeScale: number): LocalScheduleDefinition[] {
  const exportSchedules = config.spots.flatMap((spot) =>
    spot.schedules.map((configured, index): LocalScheduleDefinition => {
      const schedule = scaledRestatementSchedule(configured, timeScale);
      return {
        name: exportScheduleName(spot.spotId, index),
        description: scheduleDescription(spot.spotId, schedule),
        expression: schedule.expression,
        ...(schedule.timeZone !== undefined && { timeZone: schedule.timeZone }),
        ...(schedule.flexibleWindowMinutes !== undefined && {
          flexibleWindowMs: schedule.flexibleWindowMinutes * MS_PER_MINUTE,
        }),
        target: HandlerNames.START,
        eventFor: (scheduledTime): ScheduledExportEvent =>
          scheduledExportEventOf(spot.spotId, schedule, scheduledTime),
      };
    }),
  );
  const reconciler: LocalScheduleDefinition = {
    name: RECONCILER_SCHEDULE_NAME,
    description: 'Repair active exports whose polling workflow stopped',
    expression: config.polling.reconcileRate,
    target: HandlerNames.RECONCILE,
    eventFor: (): ReconcilerEvent => ({ source: 'reconciler' }),
  };
  return [...exportSchedules, reconciler];
}

function scaledRestatementSchedule(schedule: SpotScheduleConfig, timeScale: number): SpotScheduleConfig {
  if (schedule.restate === undefined || schedule.restate.length === 0) return schedule;
  const lagSeconds = schedule.lag === undefined ? 0 : (isoDurationSeconds(schedule.lag) ?? 0);
  return { ...schedule, restate: scaledRestatementAges(schedule.restate, timeScale, lagSeconds) };
}

/**
 * Restatement ages at the local time scale: each lasts `timeScale` times as long, in whole seconds
 * (`PT1H` at 0.01: `PT36S`; `P1D`: `PT864S`), so a window is exported again once the simulator's
 * comments have had the same share of their changes as deployed. An age is never shorter than
 * 1 s nor than the schedule's lag (which is not scaled: it places windows on the wall clock),
 * and ages that become equal are kept once. At scale 1 the ages are as configured.
 */
export function scaledRestatementAges(
  ages: readonly string[],
  timeScale: number,
  lagSeconds: number,
): string[] {
  if (timeScale === 1) return [...ages];
  const scaled = ages.map((age) => {
    const seconds = isoDurationSeconds(age);
    // An age that is no fixed-length duration is left for the schedule's validation to refuse.
    if (seconds === undefined) return age;
    return `PT${Math.max(1, lagSeconds, Math.ceil(seconds * timeScale))}S`;
  });
  return [...new Set(scaled)];
}
