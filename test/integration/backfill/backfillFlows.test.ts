import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortBackfill } from '../../../lib/exports/backfill/abortBackfill';
import { BackfillState } from '../../../lib/exports/backfill/BackfillRecord';
import { BackfillWindowState } from '../../../lib/exports/backfill/backfillProgress';
import {
  BACKFILL_RECORDING_GRACE_SECONDS,
  createBackfill,
} from '../../../lib/exports/backfill/createBackfill';
import { BackfillWindowsTooLongError } from '../../../lib/exports/backfill/errors';
import { readBackfill } from '../../../lib/exports/backfill/readBackfill';
import { WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { windowsBetween } from '../../../lib/exports/coverage/runSchedule';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { IdempotencyKeyReusedError } from '../../../lib/exports/record/errors';
import { problemForError } from '../../../lib/http/problemForError';
import { captureError } from '../../support/captureError';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { newExportRecordFixture } from '../../support/exportRecordFixtures';
import { runCreateTask } from '../../support/startAndCreate';

const SPOT = 'sp_demo';
const FROM = '2026-10-01T00:00:00Z';
const UNTIL = '2026-10-04T00:00:00Z';
const DAY_MS = 24 * 60 * 60 * 1000;
const MS_PER_SECOND = 1000;

describe('backfills against dynalite and the simulator', () => {
  let h: ExportHarness;

  beforeEach(async () => {
    h = await startExportHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  async function ledgerWindows() {
    return windowsBetween(h.coverage, SPOT, Date.parse(FROM) - DAY_MS, Date.parse(UNTIL) + DAY_MS);
  }

  it('plans only the hours the ledger does not hold and queues one export per window, the first started', async () => {
    // Prepare: 2 October is covered already
    await h.coverage.claimWindow({
      spotId: SPOT,
      from: '2026-10-02T00:00:00Z',
      until: '2026-10-03T00:00:00Z',
      state: WindowState.COVERED,
      source: { kind: 'api' },
      exportId: 'ex_01kak3f4v2qz7m9d8c5b4a3e2f',
      exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a3e2f'],
      attempts: 1,
      plannedAt: '2026-10-03T00:00:00Z',
      rows: 7,
    });

    // Act
    const { record } = await createBackfill(h.deps, {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
    });
    const { progress } = await readBackfill(h.deps, SPOT, record.backfillId);

    // Assess
    expect(record.windows).toEqual([
      { from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' },
      { from: '2026-10-03T00:00:00Z', until: '2026-10-04T00:00:00Z' },
    ]);
    expect(record.skipped).toEqual([{ from: '2026-10-02T00:00:00Z', until: '2026-10-03T00:00:00Z' }]);
    expect(record.recording).toBe(false);
    const ours = (await ledgerWindows()).filter((w) => w.source.kind === 'backfill');
    expect(ours.map((w) => [w.from, w.state])).toEqual([
      ['2026-10-01T00:00:00Z', WindowState.IN_FLIGHT],
      ['2026-10-03T00:00:00Z', WindowState.IN_FLIGHT],
    ]);
    const exports = await Promise.all(ours.map((w) => h.store.getExport(SPOT, w.exportId)));
    expect(exports.map((e) => [e?.status, e?.source, e?.origin?.backfillId])).toEqual([
      [ExportStatus.REQUESTED, 'backfill', record.backfillId],
      [ExportStatus.QUEUED, 'backfill', record.backfillId],
    ]);
    expect(progress.counts).toMatchObject({ total: 2, running: 1, queued: 1, done: 0 });
    // Nothing goes upstream on the request path: the workflow's create task does that.
    expect(h.simulator.requestsTo('create')).toHaveLength(0);
    expect(h.workflows.started.size).toBe(1);
  });

  it("refuses windows that would outlast the export deadline at the spot's pace, naming the longest that fit; nothing recorded", async () => {
    // Prepare: the spot's last three days each held it 30 s + 60 s per hour (the simulator's pace), 6-hour deadline
    for (const day of [1, 2, 3]) {
      const requestedAt = `2026-09-0${day}T01:00:00.000Z`;
      await h.store.createExport(
        newExportRecordFixture({
          spotId: SPOT,
          status: ExportStatus.COMPLETED,
          request: {
            kind: 'dateRange',
            from: `2026-08-0${day}T00:00:00Z`,
            until: `2026-08-0${day + 1}T00:00:00Z`,
          },
          requestedAt,
          dequeuedAt: requestedAt,
          completedAt: new Date(Date.parse(requestedAt) + (30 + 24 * 60) * MS_PER_SECOND).toISOString(),
        }),
      );
    }

    // Act
    const refused = await captureError(
      createBackfill(h.deps, { spotId: SPOT, from: '2026-01-01T00:00:00Z', until: UNTIL, windowHours: 730 }),
    );
    const accepted = await createBackfill(h.deps, {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
    });

    // Assess: 730 h at 61.25 s an hour is 12.4 h; 80 % of 6 h fits 282 h
    expect(refused).toBeInstanceOf(BackfillWindowsTooLongError);
    const problem = problemForError(refused as BackfillWindowsTooLongError);
    expect(problem?.status).toBe(400);
    expect(problem?.errors).toEqual([
      {
        field: 'body.windowHours',
        message:
          "at the pace of this spot's recent exports a window of 730 h would take about 12.4 h, past the export " +
          'deadline of 6.0 h (polling.exportDeadlineSeconds), which would abort it: use windows of at most 282 h',
      },
    ]);
    expect(accepted.record.windows).toHaveLength(3);
    // The refused plan left nothing in the ledger: only the accepted backfill's three days.
    const held = await windowsBetween(
      h.coverage,
      SPOT,
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse(UNTIL),
    );
    expect(held.map((w) => w.from)).toEqual(accepted.record.windows.map((w) => w.from));
  });

  it('aborts a backfill: queued windows withdrawn with nothing sent upstream, the running export aborted', async () => {
    // Prepare: three windows, the first created upstream and processing
    const { record } = await createBackfill(h.deps, {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
    });
    const [first] = (await ledgerWindows()).filter((w) => w.source.kind === 'backfill');
    await runCreateTask(h.deps, SPOT, first?.exportId as string);
    const queuedIds = (await ledgerWindows()).slice(1).map((w) => w.exportId);

    // Act
    const { record: aborted, progress } = await abortBackfill(h.deps, {
      spotId: SPOT,
      backfillId: record.backfillId,
    });
    const again = await abortBackfill(h.deps, { spotId: SPOT, backfillId: record.backfillId });

    // Assess
    expect(aborted.state).toBe(BackfillState.ABORTED);
    expect(progress.counts).toMatchObject({ total: 3, withdrawn: 3, running: 0, queued: 0 });
    expect(again.progress.counts.withdrawn).toBe(3);
    expect(await ledgerWindows()).toEqual([]);
    const running = await h.store.getExport(SPOT, first?.exportId as string);
    expect(running?.status).toBe(ExportStatus.ABORTED);
    for (const exportId of queuedIds) {
      expect((await h.store.getExport(SPOT, exportId))?.status).toBe(ExportStatus.ABORTED);
    }
    // One create (the running window's) and its abort; the queued ones never reached the upstream.
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
    expect(h.simulator.requestsTo('abort')).toHaveLength(1);
    expect(h.simulator.listExports(SPOT).map((e) => e.state)).toEqual(['aborted']);
    // Withdrawn windows are not gaps: nothing is announced.
    expect(h.gaps).toEqual([]);
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('answers a repeated Idempotency-Key with the same backfill and records its windows once', async () => {
    // Prepare
    const command = {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
      idempotencyKey: 'api:history',
    };
    const first = await createBackfill(h.deps, command);

    // Act
    const second = await createBackfill(h.deps, command);
    const reused = await captureError(createBackfill(h.deps, { ...command, windowHours: 12 }));

    // Assess
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.record.backfillId).toBe(first.record.backfillId);
    const windows = await ledgerWindows();
    expect(windows).toHaveLength(3);
    expect(new Set(windows.map((w) => w.exportId)).size).toBe(3);
    expect((await h.store.listExports(SPOT, { limit: 100 })).items).toHaveLength(3);
    expect(reused).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('a second backfill of the same range plans nothing: every window is in flight already', async () => {
    // Prepare
    await createBackfill(h.deps, { spotId: SPOT, from: FROM, until: UNTIL, windowHours: 24 });

    // Act
    const { record } = await createBackfill(h.deps, {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
    });

    // Assess
    expect(record.windows).toEqual([]);
    expect(record.skipped).toEqual([{ from: FROM, until: UNTIL }]);
    expect((await h.store.listExports(SPOT, { limit: 100 })).items).toHaveLength(3);
  });

  it('an abort that meets a creation still recording leaves nothing queued once the recording is finished', async () => {
    // Prepare: a creation that answered before recording any window (its budget spent)
    const { record } = await createBackfill(h.deps, {
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      windowHours: 24,
      recordUntilMs: h.clock.now(),
    });

    // Act
    const { progress } = await abortBackfill(h.deps, { spotId: SPOT, backfillId: record.backfillId });
    h.clock.advance((BACKFILL_RECORDING_GRACE_SECONDS + 1) * MS_PER_SECOND);
    const swept = await reconcileExports(h.deps);

    // Assess
    expect(record.recording).toBe(true);
    expect(progress.counts).toMatchObject({ total: 3, withdrawn: 3 });
    expect(swept.backfillsFinished).toBe(1);
    expect(await ledgerWindows()).toEqual([]);
    expect((await h.store.listExports(SPOT, { limit: 100 })).items).toEqual([]);
    expect(await h.backfills.findRecording('9999-01-01T00:00:00Z', 10)).toEqual([]);
  });

  it('a creation that died after recording part of its windows is finished by the reconciler, nothing twice', async () => {
    // Prepare: the ledger fails on the second window's claim, as a crash would stop the request there
    let claims = 0;
    const coverage = h.coverage;
    const crashing = {
      ...h.deps,
      coverage: new Proxy(coverage, {
        get(target, name: keyof typeof coverage) {
          if (name !== 'claimWindow') return target[name].bind(target);
          return async (...args: Parameters<typeof coverage.claimWindow>) => {
            claims += 1;
            if (claims === 2) throw new Error('the process died');
            return target.claimWindow(...args);
          };
        },
      }),
    };
    const died = await captureError(
      createBackfill(crashing, { spotId: SPOT, from: FROM, until: UNTIL, windowHours: 24 }),
    );
    const [interrupted] = await h.backfills.findRecording('9999-01-01T00:00:00Z', 10);

    // Act: the reconciler leaves a fresh creation alone, then finishes it after the grace period
    const tooSoon = await reconcileExports(h.deps);
    h.clock.advance((BACKFILL_RECORDING_GRACE_SECONDS + 1) * MS_PER_SECOND);
    const later = await reconcileExports(h.deps);

    // Assess
    expect(died.message).toBe('the process died');
    expect(interrupted?.recording).toBe(true);
    expect(tooSoon.backfillsFinished).toBe(0);
    expect(later.backfillsFinished).toBe(1);
    const { record, progress } = await readBackfill(h.deps, SPOT, interrupted?.backfillId as string);
    expect(record.recording).toBe(false);
    expect(progress.windows.map((w) => w.state)).toEqual([
      BackfillWindowState.RUNNING,
      BackfillWindowState.QUEUED,
      BackfillWindowState.QUEUED,
    ]);
    expect((await h.store.listExports(SPOT, { limit: 100 })).items).toHaveLength(3);
    expect(await h.backfills.findRecording('9999-01-01T00:00:00Z', 10)).toEqual([]);
  });
});
