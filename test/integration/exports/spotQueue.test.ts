import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { pollExportForWorkflow } from '../../../lib/exports/lifecycle/pollExportForWorkflow';
import { queuePositions } from '../../../lib/exports/queue/spotQueue';
import { type StartExportCommand, startExport } from '../../../lib/exports/queue/startExport';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import type { ExportRecord, ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { QueuePriority } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { resumeActiveExports } from '../../../local/resumeActiveExports';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { FAR_DEADLINE, runCreateTask } from '../../support/startAndCreate';

const SPOT = 'sp_demo';
const OTHER_SPOT = 'sp_other';
const HOUR_MS = 3_600_000;

function hourOf(day: number, hour: number): ExportRequest {
  const from = Date.UTC(2026, 9, day, hour);
  return {
    kind: 'dateRange',
    from: new Date(from).toISOString().replace('.000Z', 'Z'),
    until: new Date(from + HOUR_MS).toISOString().replace('.000Z', 'Z'),
  };
}

/**
 * The per-spot queue on dynalite and the simulator over loopback HTTP, with a manual clock: the
 * workflow tasks of each export are run here as the state machine runs them.
 */
describe('the per-spot queue', () => {
  let h: ExportHarness;

  beforeEach(async () => {
    h = await startExportHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  function queue(command: Partial<StartExportCommand> & { request: ExportRequest }) {
    return startExport(h.deps, { spotId: SPOT, source: 'api', whenBusy: 'queue', ...command });
  }

  /** Create, then poll past the end: the export COMPLETED (its archive is not in these tests). */
  async function runToCompletion(exportId: string): Promise<ExportRecord> {
    await runCreateTask(h.deps, SPOT, exportId);
    h.clock.advance(2 * HOUR_MS);
    await pollExportForWorkflow(h.deps, { action: 'poll', spotId: SPOT, exportId, deadline: FAR_DEADLINE });
    return (await h.store.getExport(SPOT, exportId)) as ExportRecord;
  }

  async function statusOf(exportId: string): Promise<ExportStatus | undefined> {
    return (await h.store.getExport(SPOT, exportId))?.status;
  }

  it('starts at once when the spot is free, and queues behind a running export otherwise', async () => {
    // Act
    const first = await queue({ request: hourOf(1, 0) });
    const second = await queue({ request: hourOf(1, 1) });

    // Assess
    expect(first.record.status).toBe(ExportStatus.REQUESTED);
    expect(second.record.status).toBe(ExportStatus.QUEUED);
    expect(h.simulator.listExports(SPOT)).toHaveLength(0);
    expect(await h.spotLocks.get(SPOT)).toMatchObject({ exportId: first.record.exportId });
  });

  it('starts queued exports first in, first out, scheduled ones ahead of backfill windows', async () => {
    // Prepare: one running; behind it two backfill windows, then a scheduled run, then an API start.
    const running = await queue({ request: hourOf(1, 0) });
    h.clock.advance(1000);
    const backfillA = await queue({ request: hourOf(2, 0), priority: QueuePriority.BACKFILL });
    h.clock.advance(1000);
    const backfillB = await queue({ request: hourOf(2, 1), priority: QueuePriority.BACKFILL });
    h.clock.advance(1000);
    const scheduled = await queue({ request: hourOf(3, 0), source: 'schedule' });
    h.clock.advance(1000);
    const api = await queue({ request: hourOf(3, 1) });
    const waiting = [backfillA, backfillB, scheduled, api].map((started) => started.record);

    // Act: each export runs to its end; whatever started next is noted.
    const positions = await queuePositions(h.deps, waiting);
    const order: string[] = [];
    let current = running.record.exportId;
    for (let step = 0; step < waiting.length; step += 1) {
      await runToCompletion(current);
      const lock = await h.spotLocks.get(SPOT);
      current = lock?.exportId as string;
      order.push(current);
    }

    // Assess
    const ids = (started: { record: ExportRecord }) => started.record.exportId;
    expect(order).toEqual([ids(scheduled), ids(api), ids(backfillA), ids(backfillB)]);
    expect(waiting.map((record) => positions.get(record.exportId))).toEqual([3, 4, 1, 2]);
  });

  it('starts the next queued export as the running one ends, not at the next sweep', async () => {
    // Prepare
    const running = await queue({ request: hourOf(1, 0) });
    const next = await queue({ request: hourOf(1, 1) });

    // Act
    await runToCompletion(running.record.exportId);

    // Assess: its workflow was started by the end of the first, with no sweep in between.
    const started = await h.store.getExport(SPOT, next.record.exportId);
    expect(started?.status).toBe(ExportStatus.REQUESTED);
    expect(started?.dequeuedAt).toBeDefined();
    expect(h.workflows.started.has(started?.workflowExecutionName as string)).toBe(true);
  });

  it('aborts a queued export without a word to the upstream, and the queue goes on without it', async () => {
    // Prepare
    const running = await queue({ request: hourOf(1, 0) });
    const doomed = await queue({ request: hourOf(1, 1) });
    const after = await queue({ request: hourOf(1, 2) });

    // Act
    const aborted = await abortExport(h.deps, {
      spotId: SPOT,
      exportId: doomed.record.exportId,
      reason: 'requested',
    });
    await runToCompletion(running.record.exportId);

    // Assess
    expect(aborted.status).toBe(ExportStatus.ABORTED);
    expect(h.simulator.requestsTo('abort')).toHaveLength(0);
    expect(h.simulator.listExports(SPOT)).toHaveLength(1);
    expect(await statusOf(after.record.exportId)).toBe(ExportStatus.REQUESTED);
    expect(await h.spotLocks.get(SPOT)).toMatchObject({ exportId: after.record.exportId });
  });

  it('answers a repeated queued start with the same export', async () => {
    // Prepare
    await queue({ request: hourOf(1, 0) });

    // Act
    const first = await queue({ request: hourOf(1, 1), idempotencyKey: 'nightly-1' });
    const again = await startExport(h.newContainer(), {
      spotId: SPOT,
      source: 'api',
      whenBusy: 'queue',
      request: hourOf(1, 1),
      idempotencyKey: 'nightly-1',
    });

    // Assess
    expect(again.replayed).toBe(true);
    expect(again.record.exportId).toBe(first.record.exportId);
    expect(again.record.status).toBe(ExportStatus.QUEUED);
    const listed = await h.store.listExports(SPOT, { limit: 10, status: ExportStatus.QUEUED });
    expect(listed.items.map((record) => record.exportId)).toEqual([first.record.exportId]);
  });

  it('has the reconciler start a queued export whose spot is free when its start was lost', async () => {
    // Prepare: the running export ends, but the start of the next one is lost (a crash between
    // the release and the start): the spot is free and the next export still QUEUED.
    const running = await queue({ request: hourOf(1, 0) });
    const next = await queue({ request: hourOf(1, 1) });
    await runCreateTask(h.deps, SPOT, running.record.exportId);
    h.clock.advance(2 * HOUR_MS);
    const store = h.deps.store;
    const listingQueuedFails = new Proxy(store, {
      get(target, property) {
        if (property === 'listExports')
          return async (...args: Parameters<typeof store.listExports>) => {
            if (args[1].status === ExportStatus.QUEUED) throw new Error('socket hang up');
            return target.listExports(...args);
          };
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const lostStart = { ...h.deps, store: listingQueuedFails };
    await pollExportForWorkflow(lostStart, {
      action: 'poll',
      spotId: SPOT,
      exportId: running.record.exportId,
      deadline: FAR_DEADLINE,
    });
    const beforeSweep = await statusOf(next.record.exportId);

    // Act
    const sweep = await reconcileExports(h.deps);

    // Assess
    expect(await statusOf(running.record.exportId)).toBe(ExportStatus.COMPLETED);
    expect(beforeSweep).toBe(ExportStatus.QUEUED);
    expect(h.metrics.filter((name) => name.startsWith('QueueStarts'))).toHaveLength(1);
    expect(sweep.queuedStarted).toBe(1);
    expect(await statusOf(next.record.exportId)).toBe(ExportStatus.REQUESTED);
  });

  it('keeps each spot’s queue to itself', async () => {
    // Prepare
    const busy = await queue({ request: hourOf(1, 0) });
    await queue({ request: hourOf(1, 1) });

    // Act
    const elsewhere = await startExport(h.deps, {
      spotId: OTHER_SPOT,
      source: 'api',
      whenBusy: 'queue',
      request: hourOf(1, 1),
    });

    // Assess
    expect(busy.record.status).toBe(ExportStatus.REQUESTED);
    expect(elsewhere.record.status).toBe(ExportStatus.REQUESTED);
  });

  it('counts a queued export’s deadline from when it took the spot, not from its wait in the queue', async () => {
    // Prepare: the running export outlasts the whole deadline of the one queued behind it.
    const running = await queue({ request: hourOf(1, 0) });
    const next = await queue({ request: hourOf(1, 1) });
    await runCreateTask(h.deps, SPOT, running.record.exportId);
    h.clock.advance((h.deps.settings.exportDeadlineSeconds + 3600) * 1000);

    // Act
    await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: running.record.exportId,
      deadline: FAR_DEADLINE,
    });

    // Assess
    const started = await h.store.getExport(SPOT, next.record.exportId);
    const input = h.workflows.started.get(started?.workflowExecutionName as string);
    expect(Date.parse(input?.deadline as string)).toBe(
      h.clock.now() + h.deps.settings.exportDeadlineSeconds * 1000,
    );
  });

  it('resumes a non-empty queue when the local runtime starts again: its head starts, the rest wait', async () => {
    // Prepare: a runtime died after the running export ended and released the spot, before it
    // started the next one; two exports wait in the queue.
    // (A second between them: the queue is first in, first out by enqueue time.)
    const running = await queue({ request: hourOf(1, 0) });
    h.clock.advance(1000);
    const next = await queue({ request: hourOf(1, 1) });
    h.clock.advance(1000);
    const after = await queue({ request: hourOf(1, 2) });
    await abortExport(
      { ...h.deps, store: storeWithoutQueue(h.deps.store) },
      { spotId: SPOT, exportId: running.record.exportId, reason: 'requested' },
    );
    const beforeRestart = [await statusOf(next.record.exportId), await statusOf(after.record.exportId)];

    // Act: npm start's boot sweep.
    const resumed = await resumeActiveExports(h.newContainer(), h.clock.now());

    // Assess
    expect(beforeRestart).toEqual([ExportStatus.QUEUED, ExportStatus.QUEUED]);
    expect(resumed.queuedStarted).toBe(1);
    expect(await statusOf(next.record.exportId)).toBe(ExportStatus.REQUESTED);
    expect(await statusOf(after.record.exportId)).toBe(ExportStatus.QUEUED);
    expect(await h.spotLocks.get(SPOT)).toMatchObject({ exportId: next.record.exportId });
  });
});

/** The store as a process that dies before it reads the queue: the release happens, the next start does not. */
function storeWithoutQueue(store: ExportHarness['store']): ExportHarness['store'] {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'listExports')
        return async (...args: Parameters<typeof store.listExports>) => {
          if (args[1].status === ExportStatus.QUEUED) throw new Error('the process died');
          return target.listExports(...args);
        };
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
