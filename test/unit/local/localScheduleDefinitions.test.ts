import { describe, expect, it } from 'vitest';
import { parseStackConfig } from '../../../infra/stackConfig';
import { isReconcilerEvent } from '../../../lib/events/reconcilerEvent';
import { scheduledRunOf } from '../../../lib/events/scheduledExportEvent';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  localScheduleDefinitions,
  RECONCILER_SCHEDULE_NAME,
  scaledRestatementAges,
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
    const windows = localScheduleDefinitions(config, 1).map((definition) => definition.flexibleWindowMs);

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
    const definitions = localScheduleDefinitions(config, 1);

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
      1,
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

  it('sends restatement ages at the time scale, like its rate, in whole seconds', () => {
    // Prepare
    const config = parseStackConfig({
      spots: [
        {
          spotId: 'sp_demo',
          schedules: [{ expression: 'rate(1 hour)', window: 'PT6H', restate: ['P1D', 'PT1H'] }],
        },
      ],
    });

    // Act
    const [scaled] = localScheduleDefinitions(config, 0.01);
    const [asDeployed] = localScheduleDefinitions(config, 1);
    const scaledRun = scheduledRunOf(scaled?.eventFor('2026-11-21T10:00:00Z'));
    const deployedRun = scheduledRunOf(asDeployed?.eventFor('2026-11-21T10:00:00Z'));

    // Assess: 36 s and 14.4 min, shortest first
    expect(scaledRun.restate).toEqual(['PT36S', 'PT864S']);
    expect(scaled?.description).toContain('again at PT864S, PT36S');
    expect(deployedRun.restate).toEqual(['PT1H', 'P1D']);
  });
});

describe('scaledRestatementAges', () => {
  it('rounds up to whole seconds, never below 1 s nor the lag, and keeps ages that became equal once', () => {
    // Act
    const tiny = scaledRestatementAges(['PT1M', 'PT90S', 'PT1H'], 0.001, 0);
    const lagged = scaledRestatementAges(['PT1H', 'P1D'], 0.01, 600);
    const unscaled = scaledRestatementAges(['P7D', 'P1D'], 1, 0);

    // Assess
    expect(tiny).toEqual(['PT1S', 'PT4S']);
    expect(lagged).toEqual(['PT600S', 'PT864S']);
    expect(unscaled).toEqual(['P7D', 'P1D']);
  });

  it('leaves an age that is no fixed-length duration for the schedule to refuse', () => {
    // Act
    const ages = scaledRestatementAges(['P1M', 'PT1H'], 0.01, 0);

    // Assess
    expect(ages).toEqual(['P1M', 'PT36S']);
    expect(() =>
      scheduledRunOf({
        source: 'schedule',
        spotId: 'sp_demo',
        schedule: 'schedule-0',
        window: 'PT1H',
        restate: ages,
        scheduledTime: '2026-11-21T10:00:00Z',
      }),
    ).toThrow(/restate/);
  });
});
