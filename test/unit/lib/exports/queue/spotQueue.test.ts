import { describe, expect, it } from 'vitest';
import {
  queuePositions,
  startNextQueued,
  startNextQueuedLater,
} from '../../../../../lib/exports/queue/spotQueue';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { QueuePriority } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { UpstreamUnavailableError } from '../../../../../lib/exports/upstream/errors';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const day = (n: number) =>
  ({
    kind: 'dateRange',
    from: new Date(Date.UTC(2026, 9, n)).toISOString().replace('.000Z', 'Z'),
    until: new Date(Date.UTC(2026, 9, n + 1)).toISOString().replace('.000Z', 'Z'),
  }) as const;

/** A running export and the ones queued behind it, in the order given. */
async function busySpot(lifecycle: InMemoryLifecycle, priorities: QueuePriority[]) {
  const running = await startExport(lifecycle.deps, { spotId: SPOT, request: day(1), source: 'api' });
  const queued = [];
  for (const [index, priority] of priorities.entries()) {
    lifecycle.clock.advance(1000);
    queued.push(
      (
        await startExport(lifecycle.deps, {
          spotId: SPOT,
          request: day(index + 2),
          source: 'api',
          whenBusy: 'queue',
          priority,
        })
      ).record,
    );
  }
  return { running: running.record, queued };
}

describe('startNextQueued', () => {
  it('starts the head of the queue once the spot is free: scheduled runs before backfill, then first come', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { running, queued } = await busySpot(lifecycle, [
      QueuePriority.BACKFILL,
      QueuePriority.FIRST,
      QueuePriority.FIRST,
    ]);
    await lifecycle.spotLocks.release(SPOT, running.exportId);

    // Act
    const started = await startNextQueued(lifecycle.deps, SPOT);

    // Assess
    expect(started?.exportId).toBe(queued[1]?.exportId);
    expect(started).toMatchObject({
      status: ExportStatus.REQUESTED,
      workflowExecutionName: queued[1]?.exportId,
    });
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(queued[1]?.exportId);
    expect(lifecycle.workflows.started.has(queued[1]?.exportId as string)).toBe(true);
    expect(lifecycle.metrics).toContain('ExportsDequeued');
  });

  it('starts nothing while the spot is busy, or when nothing waits', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { queued } = await busySpot(lifecycle, [QueuePriority.FIRST]);

    // Act
    const whileBusy = await startNextQueued(lifecycle.deps, SPOT);
    const emptySpot = await startNextQueued(lifecycle.deps, 'sp_idle');

    // Assess
    expect(whileBusy).toBeUndefined();
    expect(emptySpot).toBeUndefined();
    expect((await lifecycle.store.getExport(SPOT, queued[0]?.exportId as string))?.status).toBe(
      ExportStatus.QUEUED,
    );
  });
});

describe('startNextQueuedLater', () => {
  it('counts a start it could not make instead of failing the caller, passing or not', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const listExports = lifecycle.store.listExports.bind(lifecycle.store);
    const failures = [new UpstreamUnavailableError('table busy'), new TypeError('a bug')];
    lifecycle.store.listExports = async (spotId, options) => {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return listExports(spotId, options);
    };

    // Act
    await startNextQueuedLater(lifecycle.deps, SPOT);
    await startNextQueuedLater(lifecycle.deps, SPOT);

    // Assess
    expect(lifecycle.metrics).toEqual(['QueueStartsDeferred', 'QueueStartsFailed']);
  });
});

describe('queuePositions', () => {
  it("answers each queued export's place in its spot's queue, and nothing for the others", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { running, queued } = await busySpot(lifecycle, [QueuePriority.FIRST, QueuePriority.FIRST]);

    // Act
    const positions = await queuePositions(lifecycle.deps, [running, ...queued]);

    // Assess
    expect([...positions]).toEqual([
      [queued[0]?.exportId, 1],
      [queued[1]?.exportId, 2],
    ]);
  });
});
