import { describe, expect, it } from 'vitest';
import { WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import {
  runSchedule,
  type ScheduleRunCommand,
  windowsBetween,
} from '../../../../../lib/exports/coverage/runSchedule';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const HOUR_MS = 3_600_000;
const MIDNIGHT_MS = Date.parse('2026-11-02T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The daily run at midnight: a first run covers the day before, ending an hour before it fires. */
function dailyRun(scheduledTimeMs: number, overrides: Partial<ScheduleRunCommand> = {}): ScheduleRunCommand {
  return {
    spotId: SPOT,
    schedule: 'daily',
    scheduledTimeMs,
    firstWindowSeconds: 24 * 3600,
    lagSeconds: 3600,
    maxWindowHours: 24,
    ...overrides,
  };
}

describe('runSchedule', () => {
  it("plans a first run's window before its end, starts its export and moves the watermark to the end", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const result = await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS));

    // Assess
    const end = MIDNIGHT_MS - HOUR_MS;
    expect(result).toMatchObject({
      spotId: SPOT,
      schedule: 'daily',
      watermark: iso(end),
      windows: [
        { from: iso(end - 24 * HOUR_MS), until: iso(end), planned: true, status: ExportStatus.REQUESTED },
      ],
    });
    expect(lifecycle.workflows.started.size).toBe(1);
    expect((await lifecycle.coverage.getWatermark(SPOT, 'daily'))?.until).toBe(iso(end));
  });

  it('folds a missed run into the next one, in windows no longer than the maximum, each queued behind the last', async () => {
    // Prepare: yesterday's run happened, today's event never came
    const lifecycle = inMemoryLifecycle();
    await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS));

    // Act: the run the day after tomorrow exports both days
    const result = await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS + 48 * HOUR_MS));

    // Assess
    const from = MIDNIGHT_MS - HOUR_MS;
    expect(result.windows.map((window) => [window.from, window.until])).toEqual([
      [iso(from), iso(from + 24 * HOUR_MS)],
      [iso(from + 24 * HOUR_MS), iso(from + 48 * HOUR_MS)],
    ]);
    expect(result.windows.map((window) => window.status)).toEqual([ExportStatus.QUEUED, ExportStatus.QUEUED]);
    expect(result.watermark).toBe(iso(from + 48 * HOUR_MS));
  });

  it('skips the hours the ledger already accounts for, whoever planned them', async () => {
    // Prepare: a backfill covered the middle of the day
    const lifecycle = inMemoryLifecycle();
    const end = MIDNIGHT_MS - HOUR_MS;
    await lifecycle.coverage.claimWindow(
      coverageWindowFixture({
        spotId: SPOT,
        from: iso(end - 16 * HOUR_MS),
        until: iso(end - 8 * HOUR_MS),
        source: { kind: 'backfill', backfillId: 'bf_1' },
      }),
    );

    // Act
    const result = await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS));

    // Assess
    expect(result.windows.map((window) => [window.from, window.until])).toEqual([
      [iso(end - 24 * HOUR_MS), iso(end - 16 * HOUR_MS)],
      [iso(end - 8 * HOUR_MS), iso(end)],
    ]);
  });

  it('starts nothing when a run is delivered twice, and leaves the watermark where it was', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const first = await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS));

    // Act
    const again = await runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS));

    // Assess
    expect(again).toEqual({ ...first, windows: [] });
    expect(lifecycle.workflows.started.size).toBe(1);
  });

  it('refuses a spot without credentials before it records anything', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    lifecycle.deps.credentials.getCredentials = async () => {
      throw new Error('no credentials for sp_demo');
    };

    // Act / Assess
    await expect(runSchedule(lifecycle.deps, dailyRun(MIDNIGHT_MS))).rejects.toThrow('no credentials');
    expect(await lifecycle.coverage.getWatermark(SPOT, 'daily')).toBeUndefined();
    expect(await windowsBetween(lifecycle.coverage, SPOT, 0, MIDNIGHT_MS)).toEqual([]);
  });
});

describe('windowsBetween', () => {
  it('reads every page of the windows that overlap the range, and none outside it', async () => {
    // Prepare: 1,200 hourly windows (more than one page), and one after the range
    const lifecycle = inMemoryLifecycle();
    const start = MIDNIGHT_MS;
    for (let hour = 0; hour <= 1200; hour += 1)
      await lifecycle.coverage.claimWindow(
        coverageWindowFixture({
          spotId: SPOT,
          from: iso(start + hour * HOUR_MS),
          until: iso(start + (hour + 1) * HOUR_MS),
          state: WindowState.COVERED,
        }),
      );

    // Act
    const windows = await windowsBetween(
      lifecycle.coverage,
      SPOT,
      start + 30 * 60_000,
      start + 1200 * HOUR_MS,
    );

    // Assess
    expect(windows).toHaveLength(1200);
    expect(windows[0]?.from).toBe(iso(start));
    expect(windows.at(-1)?.until).toBe(iso(start + 1200 * HOUR_MS));
  });
});
