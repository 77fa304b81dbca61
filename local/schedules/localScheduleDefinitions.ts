import { scheduleDescription, scheduledExportEventOf } from '../../infra/scheduledExportEventOf';
import type { StackConfig } from '../../infra/stackConfig';
import type { ReconcilerEvent } from '../../lib/events/reconcilerEvent';
import type { ScheduledExportEvent } from '../../lib/events/scheduledExportEvent';
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
 * reconciler invoking the reconcile function.
 */
export function localScheduleDefinitions(config: StackConfig): LocalScheduleDefinition[] {
  const exportSchedules = config.spots.flatMap((spot) =>
    spot.schedules.map(
      (schedule, index): LocalScheduleDefinition => ({
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
      }),
    ),
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
