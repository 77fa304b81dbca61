import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { LocalRuntimeStoppingError, UnknownScheduleError } from '../../../local/errors';
import {
  type LocalScheduleDefinition,
  LocalSchedules,
  MIN_SCALED_RATE_INTERVAL_MS,
  type ScheduleRun,
} from '../../../local/schedules/LocalSchedules';

const START_MS = Date.parse('2026-11-21T10:00:00Z');
// rate(1 day) at this scale: every 86.4 s.
const TIME_SCALE = 0.001;
const SCALED_DAY_MS = 86_400;
const MS_PER_MINUTE = 60_000;

interface Call {
  handler: string;
  event: unknown;
}

function definition(init: Partial<LocalScheduleDefinition> = {}): LocalScheduleDefinition {
  return {
    name: 'Export-sp_other-0',
    description: 'daily',
    expression: 'rate(1 day)',
    target: HandlerNames.START,
    eventFor: (scheduledTime) => ({ source: 'schedule', spotId: 'sp_other', window: 'P1D', scheduledTime }),
    ...init,
  };
}

describe('LocalSchedules', () => {
  const calls: Call[] = [];
  const runs: ScheduleRun[] = [];
  let schedules: LocalSchedules | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ now: START_MS });
  });

  afterEach(async () => {
    await schedules?.stop();
    schedules = undefined;
    calls.length = 0;
    runs.length = 0;
    vi.useRealTimers();
  });

  function create(definitions: LocalScheduleDefinition[], invoke?: () => Promise<unknown>): LocalSchedules {
    schedules = new LocalSchedules({
      definitions,
      timeScale: TIME_SCALE,
      invoke: async (handler, event) => {
        calls.push({ handler, event });
        return invoke ? invoke() : { exportId: 'ex_1', status: 'PROCESSING' };
      },
      onRun: (run) => runs.push(run),
    });
    return schedules;
  }

  it('fires a run within its flexible window, still naming the scheduled time it covers', async () => {
    // Prepare: a 10-minute flexible window (scaled like the rate: 600 ms) and an offset drawn at 50 %.
    schedules = new LocalSchedules({
      definitions: [definition({ flexibleWindowMs: 10 * MS_PER_MINUTE })],
      timeScale: TIME_SCALE,
      invoke: async (handler, event) => void calls.push({ handler, event }),
      random: () => 0.5,
    });
    schedules.start();

    // Act
    await vi.advanceTimersByTimeAsync(SCALED_DAY_MS + 299);
    const beforeOffset = calls.length;
    await vi.advanceTimersByTimeAsync(1);

    // Assess
    expect(beforeOffset).toBe(0);
    expect(calls.map((call) => call.event)).toEqual([
      { source: 'schedule', spotId: 'sp_other', window: 'P1D', scheduledTime: '2026-11-21T10:01:26Z' },
    ]);
  });

  it('runs a rate schedule every scaled interval with the tick time as the scheduled time', async () => {
    // Prepare
    create([definition()]).start();

    // Act
    await vi.advanceTimersByTimeAsync(2 * SCALED_DAY_MS);

    // Assess
    expect(calls.map((call) => call.event)).toEqual([
      { source: 'schedule', spotId: 'sp_other', window: 'P1D', scheduledTime: '2026-11-21T10:01:26Z' },
      { source: 'schedule', spotId: 'sp_other', window: 'P1D', scheduledTime: '2026-11-21T10:02:52Z' },
    ]);
    expect(calls.every((call) => call.handler === HandlerNames.START)).toBe(true);
    expect(runs.map((run) => [run.manual, run.outcome])).toEqual([
      [false, 'succeeded'],
      [false, 'succeeded'],
    ]);
  });

  it('never runs a rate schedule more often than the floor, however small the scale', async () => {
    // Prepare: rate(5 minutes) × 0.001 would be 0.3 s.
    create([definition({ expression: 'rate(5 minutes)' })]).start();

    // Act
    await vi.advanceTimersByTimeAsync(MIN_SCALED_RATE_INTERVAL_MS * 3 - 1);

    // Assess
    expect(calls).toHaveLength(2);
    expect(schedules?.list()[0]?.localTiming).toBe('every 1 s');
  });

  it('fires a schedule by hand with now as the scheduled time, reporting the target result', async () => {
    // Prepare
    create([definition()]).start();

    // Act
    const run = await schedules?.fire('Export-sp_other-0');

    // Assess
    expect(run).toEqual({
      schedule: 'Export-sp_other-0',
      scheduledTime: '2026-11-21T10:00:00Z',
      manual: true,
      outcome: 'succeeded',
      result: { exportId: 'ex_1', status: 'PROCESSING' },
    });
    expect(schedules?.list()[0]?.lastRun).toEqual(run);
  });

  it('reports a failing target as a failed run with the error name and message', async () => {
    // Prepare
    create([definition()], async () => {
      throw new UnknownScheduleError('boom');
    });

    // Act
    const run = await schedules?.fire('Export-sp_other-0');

    // Assess
    expect(run).toMatchObject({ outcome: 'failed', error: 'UnknownScheduleError: No schedule named boom' });
  });

  it('refuses to fire an unknown schedule', async () => {
    // Prepare
    create([definition()]);

    // Act
    const firing = schedules?.fire('Nope');

    // Assess
    await expect(firing).rejects.toBeInstanceOf(UnknownScheduleError);
  });

  it('runs nothing after stop and refuses to fire', async () => {
    // Prepare
    create([definition()]).start();
    await schedules?.stop();

    // Act
    await vi.advanceTimersByTimeAsync(3 * SCALED_DAY_MS);
    const firing = schedules?.fire('Export-sp_other-0');

    // Assess
    expect(calls).toHaveLength(0);
    await expect(firing).rejects.toBeInstanceOf(LocalRuntimeStoppingError);
  });

  it('runs a cron schedule on the wall clock, not scaled', async () => {
    // Prepare
    create([definition({ name: 'Nightly', expression: 'cron(30 10 * * ? *)' })]).start();

    // Act
    await vi.advanceTimersByTimeAsync(29 * MS_PER_MINUTE);
    const before = calls.length;
    await vi.advanceTimersByTimeAsync(MS_PER_MINUTE);

    // Assess
    expect(before).toBe(0);
    expect(calls.map((call) => (call.event as { scheduledTime: string }).scheduledTime)).toEqual([
      '2026-11-21T10:30:00Z',
    ]);
    expect(schedules?.list()[0]).toMatchObject({ nextRunAt: '2026-11-22T10:30:00.000Z' });
  });

  it('lists a schedule it cannot run with the reason, and still fires it by hand', async () => {
    // Prepare
    create([definition({ name: 'Odd', expression: 'cron(0 0 * * * *)' })]).start();

    // Act
    const view = schedules?.list()[0];
    const run = await schedules?.fire('Odd');

    // Assess
    expect(view?.localTiming).toBeUndefined();
    expect(view?.notRunReason).toMatch(/day-of-month and day-of-week/);
    expect(view?.nextRunAt).toBeUndefined();
    expect(run?.outcome).toBe('succeeded');
  });
});
