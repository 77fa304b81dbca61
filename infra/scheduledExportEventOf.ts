import type { ScheduledExportEvent } from '../lib/events/scheduledExportEvent';
import type { SpotScheduleConfig } from './stackConfig';

/**
 * The event a spot's schedule sends on each run, from its configuration: the same for the
 * deployed schedule (Scheduler substitutes `scheduledTime`) and the local scheduler.
 */
export function scheduledExportEventOf(
  spotId: string,
  schedule: SpotScheduleConfig,
  scheduledTime: string,
): ScheduledExportEvent {
  return {
    source: 'schedule',
    spotId,
    schedule: schedule.name,
    window: schedule.window,
    ...(schedule.lag !== undefined && { lag: schedule.lag }),
    ...(schedule.maxWindowHours !== undefined && { maxWindowHours: schedule.maxWindowHours }),
    ...(schedule.restate !== undefined && schedule.restate.length > 0 && { restate: schedule.restate }),
    scheduledTime,
  };
}

/** What a schedule does, in one line. */
export function scheduleDescription(spotId: string, schedule: SpotScheduleConfig): string {
  const lag = schedule.lag === undefined ? '' : `, ending ${schedule.lag} before each run`;
  const restate =
    schedule.restate === undefined || schedule.restate.length === 0
      ? ''
      : `, again at ${schedule.restate.join(', ')}`;
  return `Export ${spotId} comments since the last run (${schedule.name}; the first run: the last ${schedule.window})${lag}${restate}`;
}
