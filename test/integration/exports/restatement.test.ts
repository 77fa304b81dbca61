import { afterEach, describe, expect, it } from 'vitest';
import { createBackfill } from '../../../lib/exports/backfill/createBackfill';
import {
  type CoverageWindow,
  RestatementState,
  WindowState,
} from '../../../lib/exports/coverage/CoverageLedger';
import { runSchedule, type ScheduleRunCommand } from '../../../lib/exports/coverage/runSchedule';
import { spotCoverage } from '../../../lib/exports/coverage/spotCoverage';
import { fleetStatus } from '../../../lib/exports/fleet/fleetStatus';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { pollExportForWorkflow } from '../../../lib/exports/lifecycle/pollExportForWorkflow';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import { QueuePriority } from '../../../lib/exports/record/ExportRecord';
import type { ExportSettings } from '../../../lib/exports/record/ExportSettings';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { wholeSecondInstant } from '../../../lib/exports/time/intervals';
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
const RESTATE = ['P1D', 'P7D'];

/**
 * Restatement against the ledger, the queue, the upstream simulator over loopback HTTP, dynalite and
 * the S3 stand-in, on a clock moved by hand: scheduled runs plan windows with the schedule's
 * `restate` ages, the reconciler restates covered windows at those ages, and each export's
 * workflow tasks are run here in the state machine's order (create, poll, archive).
 */
describe('restatement: covered windows exported again at their ages', () => {
  let spot: ScheduledSpot;
  let h: ExportHarness;

  afterEach(async () => {
    await spot.close();
  });

  async function start(settings: Partial<ExportSettings> = {}): Promise<void> {
    spot = await startScheduledSpot({
      settings: { windowRetryCooldownSeconds: 600, windowRetryAttempts: 1, ...settings },
      restate: RESTATE,
    });
    h = spot.h;
  }

  const runAt = (scheduledTimeMs: number, overrides: Partial<ScheduleRunCommand> = {}): ScheduleRunCommand =>
    spot.runAt(scheduledTimeMs, overrides);
  const runWorkflow = (exportId: string): Promise<void> => spot.runWorkflow(exportId);
  const allWindows = (): Promise<CoverageWindow[]> => spot.allWindows();

  async function windowAt(from: string): Promise<CoverageWindow> {
    const window = (await allWindows()).find((w) => w.from === from);
    if (window === undefined) throw new Error(`no window from ${from}`);
    return window;
  }

  /** A first scheduled run of one hour, exported and archived: the window it covers. */
  async function coveredHour(): Promise<CoverageWindow> {
    const run = await runSchedule(h.deps, runAt(h.clock.now()));
    const window = run.windows[0];
    if (window === undefined) throw new Error('the run planned nothing');
    await runWorkflow(window.exportId);
    return windowAt(window.from);
  }

  it('exports a window again at each age: three archived versions, provisional until the last, then settled', async () => {
    // Prepare
    await start();
    const first = await coveredHour();
    const untilMs = Date.parse(first.until);

    // Act: a day after its end, then a week after
    h.clock.advance(untilMs + DAY_MS + 60_000 - h.clock.now());
    await reconcileExports(h.deps);
    const afterDay = await windowAt(first.from);
    await runWorkflow(afterDay.restatement?.exportId as string);
    const restatedOnce = await windowAt(first.from);
    h.clock.advance(untilMs + 7 * DAY_MS + 60_000 - h.clock.now());
    await reconcileExports(h.deps);
    const afterWeek = await windowAt(first.from);
    await runWorkflow(afterWeek.restatement?.exportId as string);
    const settled = await windowAt(first.from);
    const coverage = await spotCoverage(h.deps, {
      spotId: SPOT,
      fromMs: Date.parse(first.from),
      untilMs: untilMs,
    });

    // Assess: the first export covered it, and set it due a day after its end
    expect(first.state).toBe(WindowState.COVERED);
    expect(first.restate).toEqual(RESTATE);
    expect(first.versions?.map((v) => v.exportId)).toEqual([first.exportId]);
    expect(first.dueAt).toBe(wholeSecondInstant(untilMs + DAY_MS).replace('Z', '.000Z'));
    // a day later: a restatement of the same window at P1D, an ordinary export marked as one
    const restatement = await h.store.getExport(SPOT, afterDay.restatement?.exportId as string);
    expect(restatement?.request).toEqual({ kind: 'dateRange', from: first.from, until: first.until });
    expect(restatement?.origin).toEqual({ schedule: SCHEDULE, restatement: { age: 'P1D' } });
    expect(afterDay.state).toBe(WindowState.COVERED);
    expect(restatedOnce.versions?.map((v) => v.age)).toEqual([undefined, 'P1D']);
    expect(restatedOnce.restatement?.state).toBe(RestatementState.ARCHIVED);
    // a week later, the P7D one; every version archived, the window settled and due no more
    expect(afterWeek.restatement?.age).toBe('P7D');
    expect(settled.versions?.map((v) => v.age)).toEqual([undefined, 'P1D', 'P7D']);
    expect(settled.dueAt).toBeUndefined();
    const records = await Promise.all(
      (settled.versions ?? []).map((v) => h.store.getExport(SPOT, v.exportId)),
    );
    expect(records.map((r) => r?.archive?.status)).toEqual([
      ArchiveStatus.ARCHIVED,
      ArchiveStatus.ARCHIVED,
      ArchiveStatus.ARCHIVED,
    ]);
    expect(coverage.coveredWindows.map((w) => [w.currency, w.versions.length])).toEqual([['settled', 3]]);
    expect(coverage.summary.provisionalHours).toBe(0);
    expect(h.metrics.filter((name) => name === 'RestatementsArchived')).toHaveLength(2);
  });

  it('shows a covered window as provisional until its restatement is archived', async () => {
    // Prepare
    await start();
    const first = await coveredHour();

    // Act
    const coverage = await spotCoverage(h.deps, {
      spotId: SPOT,
      fromMs: Date.parse(first.from),
      untilMs: Date.parse(first.until),
    });

    // Assess
    expect(coverage.summary.coveredHours).toBe(1);
    expect(coverage.summary.provisionalHours).toBe(1);
    expect(coverage.provisional).toEqual([{ from: first.from, until: first.until }]);
    expect(coverage.coveredWindows[0]?.currency).toBe('provisional');
    expect(coverage.coveredWindows[0]?.nextRestatementAt).toBe(
      new Date(Date.parse(first.until) + DAY_MS).toISOString(),
    );
  });

  it('does not restate a backfilled window already older than every age when first exported', async () => {
    // Prepare: the spot's schedule restates at P1D and P7D
    await start();
    await coveredHour();
    const from = wholeSecondInstant(h.clock.now() - 30 * DAY_MS);
    const until = wholeSecondInstant(h.clock.now() - 30 * DAY_MS + HOUR_MS);

    // Act
    const { record } = await createBackfill(h.deps, { spotId: SPOT, from, until, windowHours: 1 });
    const planned = await windowAt(from);
    await runWorkflow(planned.exportId);
    const covered = await windowAt(from);
    h.clock.advance(8 * DAY_MS);
    await reconcileExports(h.deps);
    const later = await windowAt(from);

    // Assess: it follows the spot's ages, but its first export answers both: settled at once
    expect(record.windows).toEqual([{ from, until }]);
    expect(covered.restate).toEqual(RESTATE);
    expect(covered.versions).toHaveLength(1);
    expect(covered.dueAt).toBeUndefined();
    expect(later.restatement).toBeUndefined();
    expect(later.versions).toHaveLength(1);
  });

  it('queues a restatement behind a scheduled run: the run starts first when the spot frees', async () => {
    // Prepare: a covered hour whose restatement comes due while the spot runs the next hour's export
    await start();
    const first = await coveredHour();
    h.clock.advance(Date.parse(first.until) + DAY_MS + 60_000 - h.clock.now());
    const busy = await runSchedule(h.deps, runAt(h.clock.now(), { restate: [] }));
    const busyId = busy.windows[0]?.exportId as string;
    await runCreateTask(h.deps, SPOT, busyId);

    // Act: the restatement is found due and queued, then a scheduled run queues after it
    await reconcileExports(h.deps);
    const restatementId = (await windowAt(first.from)).restatement?.exportId as string;
    h.clock.advance(HOUR_MS);
    const run = await runSchedule(h.deps, runAt(h.clock.now(), { restate: [] }));
    const runId = run.windows[0]?.exportId as string;
    const queuedRestatement = await h.store.getExport(SPOT, restatementId);
    h.clock.advance(UPSTREAM_RUN_MS);
    await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: busyId,
      deadline: FAR_DEADLINE,
    });

    // Assess: the scheduled run, queued later, went first; the restatement still waits
    expect(queuedRestatement?.status).toBe(ExportStatus.QUEUED);
    expect(queuedRestatement?.queue?.priority).toBe(QueuePriority.RESTATEMENT);
    expect((await h.store.getExport(SPOT, runId))?.status).toBe(ExportStatus.REQUESTED);
    expect((await h.store.getExport(SPOT, restatementId))?.status).toBe(ExportStatus.QUEUED);
  });

  it("defers what the spot's daily budget does not allow, and shows it waiting", async () => {
    // Prepare: two covered hours due at once, a budget of one restatement a day
    await start({ restatementsPerSpotPerDay: 1 });
    const first = await coveredHour();
    h.clock.advance(HOUR_MS);
    const next = await runSchedule(h.deps, runAt(h.clock.now()));
    await runWorkflow(next.windows[0]?.exportId as string);
    h.clock.advance(Date.parse(next.windows[0]?.until as string) + DAY_MS + 60_000 - h.clock.now());

    // Act
    await reconcileExports(h.deps);
    const windows = (await allWindows()).filter((w) => w.restatement !== undefined);
    const coverage = await spotCoverage(h.deps, {
      spotId: SPOT,
      fromMs: Date.parse(first.from),
      untilMs: Date.parse(next.windows[0]?.until as string),
    });

    // Assess: one started, one waits for the next UTC day, and the coverage says so
    expect(windows.map((w) => w.restatement?.state).sort()).toEqual([
      RestatementState.IN_FLIGHT,
      RestatementState.WAITING,
    ]);
    const waiting = windows.find((w) => w.restatement?.state === RestatementState.WAITING);
    const nextDay = new Date((Math.floor(h.clock.now() / DAY_MS) + 1) * DAY_MS).toISOString();
    expect(waiting?.restatement?.nextAttemptAt).toBe(nextDay);
    expect(waiting?.dueAt).toBe(nextDay);
    expect(coverage.summary.restatementsWaiting).toBe(1);
    expect(
      coverage.coveredWindows.find((w) => w.restatement?.state === 'WAITING')?.restatement?.reason,
    ).toContain('restatements of');
    expect(h.metrics).toContain('RestatementsWaiting');
    const fleet = await fleetStatus(h.deps, { spotIds: [SPOT] });
    // the two windows: the first hour, and the three hours the next run exported from the watermark
    expect(fleet.items[0]?.restatements).toEqual({ provisionalHours: 4, waiting: 1 });
  });

  it('keeps the older version and the coverage when a restatement fails for good', async () => {
    // Prepare: a restatement started a day later
    await start({ windowRetryAttempts: 1 });
    const first = await coveredHour();
    h.clock.advance(Date.parse(first.until) + DAY_MS + 60_000 - h.clock.now());
    await reconcileExports(h.deps);
    const firstTry = (await windowAt(first.from)).restatement?.exportId as string;

    // Act: its export passes its deadline, is retried after the cooldown, and passes it again
    await abortExport(h.deps, { spotId: SPOT, exportId: firstTry, reason: 'timeout' });
    const retrying = await windowAt(first.from);
    h.clock.advance(11 * 60_000);
    await reconcileExports(h.deps);
    const secondTry = (await windowAt(first.from)).restatement?.exportId as string;
    await abortExport(h.deps, { spotId: SPOT, exportId: secondTry, reason: 'timeout' });
    const givenUp = await windowAt(first.from);
    const coverage = await spotCoverage(h.deps, {
      spotId: SPOT,
      fromMs: Date.parse(first.from),
      untilMs: Date.parse(first.until),
    });

    // Assess: covered throughout, by its first version; the given-up age is said and not tried again
    expect(retrying.state).toBe(WindowState.COVERED);
    expect(retrying.restatement?.state).toBe(RestatementState.RETRYING);
    expect(secondTry).not.toBe(firstTry);
    expect(givenUp.state).toBe(WindowState.COVERED);
    expect(givenUp.versions?.map((v) => v.exportId)).toEqual([first.exportId]);
    expect(givenUp.restatement?.state).toBe(RestatementState.GIVEN_UP);
    expect(givenUp.restatement?.reason).toContain('(after 2 attempts)');
    expect(givenUp.givenUpAges).toEqual(['P1D']);
    // the P7D restatement is still to come
    expect(givenUp.dueAt).toBe(new Date(Date.parse(first.until) + 7 * DAY_MS).toISOString());
    expect(coverage.summary.coveredHours).toBe(1);
    expect(coverage.gaps).toEqual([]);
    expect(coverage.coveredWindows[0]?.currency).toBe('provisional');
    expect(h.gaps).toEqual([]);
    expect(h.metrics).toContain('RestatementsGivenUp');
  });

  it('restates once for a reconciler run delivered twice, even side by side', async () => {
    // Prepare
    await start();
    const first = await coveredHour();
    h.clock.advance(Date.parse(first.until) + DAY_MS + 60_000 - h.clock.now());
    const before = (await h.store.listExports(SPOT, { limit: 50 })).items.length;

    // Act
    await Promise.all([reconcileExports(h.deps), reconcileExports(h.newContainer())]);
    await reconcileExports(h.newContainer());
    const window = await windowAt(first.from);

    // Assess: one restatement export, the window names it
    const exports = (await h.store.listExports(SPOT, { limit: 50 })).items;
    const restatements = exports.filter((record) => record.origin?.restatement !== undefined);
    expect(exports).toHaveLength(before + 1);
    expect(restatements.map((record) => record.exportId)).toEqual([window.restatement?.exportId]);
    expect(window.restatement?.attempts).toBe(1);
  });

  it('exports covered hours again for a backfill with refresh: a new version of each covered window', async () => {
    // Prepare: a covered hour of a schedule without restatement
    await start();
    const run = await runSchedule(h.deps, runAt(h.clock.now(), { restate: [] }));
    await runWorkflow(run.windows[0]?.exportId as string);
    const covered = await windowAt(run.windows[0]?.from as string);

    // Act
    const skipping = await createBackfill(h.deps, {
      spotId: SPOT,
      from: covered.from,
      until: covered.until,
      windowHours: 24,
    });
    const { record } = await createBackfill(h.deps, {
      spotId: SPOT,
      from: covered.from,
      until: covered.until,
      windowHours: 24,
      refresh: true,
    });
    const refreshing = await windowAt(covered.from);
    await runWorkflow(refreshing.restatement?.exportId as string);
    const refreshed = await windowAt(covered.from);

    // Assess: without refresh the covered hour is skipped; with it, exported again as the backfill's
    expect(skipping.record.windows).toEqual([]);
    expect(record.refreshed).toEqual([{ from: covered.from, until: covered.until }]);
    const again = await h.store.getExport(SPOT, refreshing.restatement?.exportId as string);
    expect(again?.source).toBe('backfill');
    expect(again?.origin).toEqual({ backfillId: record.backfillId, restatement: { age: 'refresh' } });
    expect(refreshing.state).toBe(WindowState.COVERED);
    expect(refreshed.versions?.map((v) => [v.exportId, v.age])).toEqual([
      [covered.exportId, undefined],
      [again?.exportId, 'refresh'],
    ]);
    expect((await h.store.getExport(SPOT, again?.exportId as string))?.archive?.status).toBe(
      ArchiveStatus.ARCHIVED,
    );
  });
});
