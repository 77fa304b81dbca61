import { describe, expect, it } from 'vitest';
import { parseStackConfig } from '../../../infra/stackConfig';
import { isReconcilerEvent } from '../../../lib/events/reconcilerEvent';
import { scheduledRunOf } from '../../../lib/events/scheduledExportEvent';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  localScheduleDefinitions,
  RECONCILER_SCHEDULE_NAME,
} from '../../../local/schedules/localScheduleDefinitions';

describe('localScheduleDefinitions', () => {
  it('carries the flexible window of a schedule in milliseconds, and none for the others', () => {
    // Prepare
    const config = parseStackConfig({
      spots: [
        {
          spotId: 'sp_other',
          schedules: [
            { expression: 'cron(0 2 * * ? *)', window: 'P1D', flexibleWindowMinutes: 15 },
            { expression: 'rate(1 day)', window: 'P1D' },
          ],
        },
      ],
    });

    // Act
    const windows = localScheduleDefinitions(config).map((definition) => definition.flexibleWindowMs);

    // Assess
    expect(windows).toEqual([15 * 60_000, undefined, undefined]);
  });

  it('has one schedule per configured spot schedule and the reconciler, named as in the stack', () => {
    // Prepare
    const config = parseStackConfig({
      spots: [
        {
          spotId: 'sp_other',
          schedules: [
            { expression: 'rate(1 day)', window: 'P1D' },
            { expression: 'cron(0 2 * * ? *)', window: 'PT12H', timeZone: 'Europe/Paris' },
          ],
        },
      ],
      polling: { reconcileRate: 'rate(10 minutes)' },
    });

    // Act
    const definitions = localScheduleDefinitions(config);

    // Assess
    expect(
      definitions.map(({ name, expression, timeZone, target }) => ({ name, expression, timeZone, target })),
    ).toEqual([
      {
        name: 'Export-sp_other-0',
        expression: 'rate(1 day)',
        timeZone: undefined,
        target: HandlerNames.START,
      },
      {
        name: 'Export-sp_other-1',
        expression: 'cron(0 2 * * ? *)',
        timeZone: 'Europe/Paris',
        target: HandlerNames.START,
      },
      {
        name: RECONCILER_SCHEDULE_NAME,
        expression: 'rate(10 minutes)',
        timeZone: undefined,
        target: HandlerNames.RECONCILE,
      },
    ]);
  });

  it('sends the events the handlers accept from Scheduler', () => {
    // Prepare
    const [exportSchedule, reconciler] = localScheduleDefinitions(
      parseStackConfig({
        spots: [{ spotId: 'sp_other', schedules: [{ expression: 'rate(1 day)', window: 'P1D' }] }],
      }),
    );

    // Act
    const run = scheduledRunOf(exportSchedule?.eventFor('2026-11-21T10:00:00Z'));
    const reconcilerEvent = reconciler?.eventFor('2026-11-21T10:00:00Z');

    // Assess
    expect(run).toEqual({
      spotId: 'sp_other',
      schedule: 'schedule-0',
      scheduledTimeMs: Date.parse('2026-11-21T10:00:00Z'),
      firstWindowSeconds: 24 * 60 * 60,
      lagSeconds: 0,
      maxWindowHours: 730,
      restate: [],
    });
    expect(isReconcilerEvent(reconcilerEvent)).toBe(true);
  });
});
