import { afterEach, describe, expect, it } from 'vitest';
import { type ArchiveDependencies, archiveExport } from '../../../lib/archive/archiveExport';
import { type CoverageWindow, WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { runSchedule, type ScheduleRunCommand } from '../../../lib/exports/coverage/runSchedule';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { pollExportForWorkflow } from '../../../lib/exports/lifecycle/pollExportForWorkflow';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import type { ExportSettings } from '../../../lib/exports/record/ExportSettings';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { mergeIntervals, wholeSecondInstant } from '../../../lib/exports/time/intervals';
import type { OpenWebSimulatorOptions } from '../../../local/openweb-simulator/index';
import type { ExportHarness } from '../../support/exportHarness';
import {
  HOURLY_SCHEDULE,
  SCHEDULED_SPOT,
  type ScheduledSpot,
  startScheduledSpot,
  UPSTREAM_RUN_MS,
} from '../../support/scheduledSpot';
import { FAR_DEADLINE, runCreateTask } from '../../support/startAndCreate';

const SPOT = SCHEDULED_SPOT;
const SCHEDULE = HOURLY_SCHEDULE;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const COOLDOWN_SECONDS = 600;

/**
 * Scheduled runs against the ledger, the queue, the upstream simulator over loopback HTTP, dynalite
 * and the S3 stand-in, on a clock moved by hand; each export's workflow tasks are run here in the
 * order the state machine runs them (create, poll, archive), so every step is in view.
 */
describe('scheduled coverage: watermarks, the queue, retries and gaps', () => {
  let spot: ScheduledSpot;
  let h: ExportHarness;

  afterEach(async () => {
    await spot.close();
  });

  async function start(
    settings: Partial<ExportSettings> = {},
    simulator: OpenWebSimulatorOptions = {},
  ): Promise<void> {
    spot = await startScheduledSpot({
      settings: { windowRetryCooldownSeconds: COOLDOWN_SECONDS, windowRetryAttempts: 2, ...settings },
      simulator,
    });
    h = spot.h;
  }

  const archiveDeps = (): ArchiveDependencies => spot.archiveDeps();
  const runAt = (scheduledTimeMs: number, overrides: Partial<ScheduleRunCommand> = {}): ScheduleRunCommand =>
    spot.runAt(scheduledTimeMs, overrides);
  const runWorkflow = (exportId: string): Promise<void> => spot.runWorkflow(exportId);
  const allWindows = (): Promise<CoverageWindow[]> => spot.allWindows();

  function coveredIntervals(windows: readonly CoverageWindow[]): { from: string; until: string }[] {
    return mergeIntervals(
      windows
        .filter((window) => window.state === WindowState.COVERED)
        .map((window) => ({ fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) })),
    ).map((interval) => ({
      from: wholeSecondInstant(interval.fromMs),
      until: wholeSecondInstant(interval.untilMs),
    }));
  }

  it('queues a run that finds its spot busy and covers both windows back to back, with no hole', async () => {
    // Prepare: the first run's export is still running when the second run fires.
    await start();
    const t0 = h.clock.now();
    const first = await runSchedule(h.deps, runAt(t0));
    const firstId = first.windows[0]?.exportId as string;
    await runCreateTask(h.deps, SPOT, firstId);

    // Act
    h.clock.advance(HOUR_MS);
    const second = await runSchedule(h.deps, runAt(t0 + HOUR_MS));
    const secondId = second.windows[0]?.exportId as string;
    const queued = await h.store.getExport(SPOT, secondId);
    h.clock.advance(UPSTREAM_RUN_MS);
    await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: firstId,
      deadline: FAR_DEADLINE,
    });
    const startedOnRelease = await h.store.getExport(SPOT, secondId);
    await archiveExport(archiveDeps(), { spotId: SPOT, exportId: firstId });
    await runWorkflow(secondId);

    // Assess: the second run waited its turn, started as the first ended, and both hours are covered.
    expect(queued?.status).toBe(ExportStatus.QUEUED);
    expect(startedOnRelease?.status).toBe(ExportStatus.REQUESTED);
    expect(h.workflows.started.has(startedOnRelease?.workflowExecutionName as string)).toBe(true);
    expect(second.windows.map((w) => [w.from, w.until])).toEqual([
      [wholeSecondInstant(t0), wholeSecondInstant(t0 + HOUR_MS)],
    ]);
    const windows = await allWindows();
    expect(windows.map((w) => w.state)).toEqual([WindowState.COVERED, WindowState.COVERED]);
    expect(coveredIntervals(windows)).toEqual([
      { from: wholeSecondInstant(t0 - HOUR_MS), until: wholeSecondInstant(t0 + HOUR_MS) },
    ]);
    expect((await h.coverage.getWatermark(SPOT, SCHEDULE))?.until).toBe(wholeSecondInstant(t0 + HOUR_MS));
  });

  it('folds a run that never came into the next one: it exports from the watermark', async () => {
    // Prepare
    await start();
    const t0 = h.clock.now();
    const first = await runSchedule(h.deps, runAt(t0));
    await runWorkflow(first.windows[0]?.exportId as string);

    // Act: the run at t0 + 1 h was lost; the one at t0 + 3 h comes.
    h.clock.advance(3 * HOUR_MS);
    const later = await runSchedule(h.deps, runAt(t0 + 3 * HOUR_MS));
    await runWorkflow(later.windows[0]?.exportId as string);

    // Assess
    expect(later.windows.map((w) => [w.from, w.until])).toEqual([
      [wholeSecondInstant(t0), wholeSecondInstant(t0 + 3 * HOUR_MS)],
    ]);
    expect(coveredIntervals(await allWindows())).toEqual([
      { from: wholeSecondInstant(t0 - HOUR_MS), until: wholeSecondInstant(t0 + 3 * HOUR_MS) },
    ]);
  });

  it('starts one export for a firing delivered twice', async () => {
    // Prepare
    await start();
    const run = runAt(h.clock.now());

    // Act
    const first = await runSchedule(h.deps, run);
    const again = await runSchedule(h.newContainer(), run);

    // Assess
    expect(first.windows.map((w) => w.planned)).toEqual([true]);
    expect(again.windows).toEqual([]);
    expect(again.watermark).toBe(first.watermark);
    const exports = await h.store.listExports(SPOT, { limit: 10 });
    expect(exports.items).toHaveLength(1);
  });

  it('cuts a first window longer than the upstream allows into windows of at most 730 h', async () => {
    // Prepare
    await start();

    // Act: 60 days (1,440 h).
    const run = await runSchedule(h.deps, runAt(h.clock.now(), { firstWindowSeconds: 60 * 24 * 3600 }));

    // Assess: two windows, back to back, one running and one queued behind it.
    const hours = run.windows.map((w) => (Date.parse(w.until) - Date.parse(w.from)) / HOUR_MS);
    expect(hours).toEqual([730, 710]);
    expect(run.windows[0]?.until).toBe(run.windows[1]?.from);
    expect(run.windows.map((w) => w.status)).toEqual([ExportStatus.REQUESTED, ExportStatus.QUEUED]);
  });

  it('retries a window whose export hit its deadline once the cooldown is over, then covers it', async () => {
    // Prepare: the first attempt passes its deadline while the upstream throttles every create.
    await start({}, { faults: { endpoints: { create: { rateLimitRate: 1 } } } });
    const run = await runSchedule(h.deps, runAt(h.clock.now()));
    const firstId = run.windows[0]?.exportId as string;
    await abortExport(h.deps, { spotId: SPOT, exportId: firstId, reason: 'timeout' });
    const afterFailure = (await allWindows())[0];
    h.simulator.setFaults({});

    // Act: a sweep before the cooldown leaves it; one after starts the second attempt.
    h.clock.advance((COOLDOWN_SECONDS - 60) * 1000);
    const early = await reconcileExports(h.deps);
    h.clock.advance(120_000);
    const due = await reconcileExports(h.deps);
    const retrying = (await allWindows())[0] as CoverageWindow;
    await runWorkflow(retrying.exportId);

    // Assess
    expect((await h.store.getExport(SPOT, firstId))?.status).toBe(ExportStatus.ABORTED);
    expect(afterFailure).toMatchObject({
      state: WindowState.RETRYING,
      reason: expect.stringMatching(/deadline/),
    });
    expect(early.windowsAdvanced).toBe(0);
    expect(due.windowsAdvanced).toBe(1);
    expect(retrying.attempts).toBe(2);
    expect(retrying.exportId).not.toBe(firstId);
    const [window] = await allWindows();
    expect(window).toMatchObject({ state: WindowState.COVERED, exportIds: [firstId, retrying.exportId] });
    expect(window?.rows).toBeGreaterThan(0);
    expect(h.gaps).toEqual([]);
  });

  it('reports a gap once, with its reason, when every attempt failed', async () => {
    // Prepare: every create is throttled, for good.
    await start({ windowRetryAttempts: 1 }, { faults: { endpoints: { create: { rateLimitRate: 1 } } } });
    const run = await runSchedule(h.deps, runAt(h.clock.now()));

    // Act: the first attempt and its one retry both pass their deadline.
    await abortExport(h.deps, {
      spotId: SPOT,
      exportId: run.windows[0]?.exportId as string,
      reason: 'timeout',
    });
    h.clock.advance(COOLDOWN_SECONDS * 1000 + 1000);
    await reconcileExports(h.deps);
    const retry = (await allWindows())[0] as CoverageWindow;
    await abortExport(h.deps, { spotId: SPOT, exportId: retry.exportId, reason: 'timeout' });
    h.clock.advance(10 * COOLDOWN_SECONDS * 1000);
    const later = await reconcileExports(h.deps);

    // Assess
    const [window] = await allWindows();
    expect(window?.state).toBe(WindowState.GAP);
    expect(window?.reason).toMatch(/deadline.*\(after 2 attempts\)/);
    expect(window).not.toHaveProperty('dueAt');
    expect(later.windowsAdvanced).toBe(0);
    expect(h.gaps.map((gap) => [gap.from, gap.state])).toEqual([[window?.from, WindowState.GAP]]);
    expect(h.metrics.filter((name) => name === 'CoverageGaps')).toHaveLength(1);
  });

  it('makes a window the upstream rejected a gap at once: the same request would be rejected again', async () => {
    // Prepare
    await start({}, { faults: { script: [{ endpoint: 'create', kind: 'error', status: 400 }] } });
    const run = await runSchedule(h.deps, runAt(h.clock.now()));

    // Act
    const create = runCreateTask(h.deps, SPOT, run.windows[0]?.exportId as string);

    // Assess
    await expect(create).rejects.toThrow(/rejected/);
    const [window] = await allWindows();
    expect(window).toMatchObject({ state: WindowState.GAP, attempts: 1 });
    expect(window?.reason).toMatch(/^the upstream rejected the request/);
    expect(h.gaps).toHaveLength(1);
  });

  it('archives a COMPLETED export the sweep finds with its archive unfinished, and covers its window', async () => {
    // Prepare: the export completed, then its workflow was lost before the archive ran.
    await start({ reconcileStaleAfterSeconds: 60 });
    const run = await runSchedule(h.deps, runAt(h.clock.now()));
    const exportId = run.windows[0]?.exportId as string;
    await runCreateTask(h.deps, SPOT, exportId);
    h.clock.advance(UPSTREAM_RUN_MS);
    await pollExportForWorkflow(h.deps, { action: 'poll', spotId: SPOT, exportId, deadline: FAR_DEADLINE });
    h.workflows.running.clear();

    // Act: past the archive's claim window, a sweep gives it a workflow; that workflow archives it.
    h.clock.advance(2 * HOUR_MS);
    const sweep = await reconcileExports(h.deps);
    await archiveExport(archiveDeps(), { spotId: SPOT, exportId });

    // Assess
    expect(sweep.archivesRestarted).toBe(1);
    expect([...h.workflows.started.keys()].filter((name) => name.startsWith(`${exportId}-a`))).toHaveLength(
      1,
    );
    expect((await h.store.getExport(SPOT, exportId))?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expect((await allWindows())[0]?.state).toBe(WindowState.COVERED);
  });

  it('fails the archive once the links expired, and exports the window again', async () => {
    // Prepare: the export completed, then nothing archived it for eight days.
    await start();
    const run = await runSchedule(h.deps, runAt(h.clock.now()));
    const firstId = run.windows[0]?.exportId as string;
    await runCreateTask(h.deps, SPOT, firstId);
    h.clock.advance(UPSTREAM_RUN_MS);
    await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: firstId,
      deadline: FAR_DEADLINE,
    });
    h.clock.advance(8 * DAY_MS);

    // Act
    await archiveExport(archiveDeps(), { spotId: SPOT, exportId: firstId });
    const failed = (await allWindows())[0];
    h.clock.advance(COOLDOWN_SECONDS * 1000 + 1000);
    await reconcileExports(h.deps);
    const retry = (await allWindows())[0] as CoverageWindow;
    await runWorkflow(retry.exportId);

    // Assess
    expect((await h.store.getExport(SPOT, firstId))?.archive?.status).toBe(ArchiveStatus.FAILED);
    expect(failed).toMatchObject({ state: WindowState.RETRYING });
    expect(failed?.reason).toMatch(/^the archive failed: .*expired/);
    expect(retry.exportId).not.toBe(firstId);
    expect((await allWindows())[0]?.state).toBe(WindowState.COVERED);
  });
});
