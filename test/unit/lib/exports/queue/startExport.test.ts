import { describe, expect, it } from 'vitest';
import { SpotBusyError } from '../../../../../lib/exports/queue/errors';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { QueuePriority } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { IdempotencyKeyReusedError } from '../../../../../lib/exports/record/errors';
import { captureError } from '../../../../support/captureError';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const DAY = { kind: 'dateRange' as const, from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
const NEXT_DAY = { kind: 'dateRange' as const, from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' };

describe('startExport', () => {
  it('records a REQUESTED export on a free spot, takes the spot and starts its named workflow, upstream untouched', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const { record, replayed } = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: DAY,
      source: 'api',
    });

    // Assess
    expect(replayed).toBe(false);
    expect(record).toMatchObject({
      spotId: SPOT,
      status: ExportStatus.REQUESTED,
      request: DAY,
      source: 'api',
    });
    expect(record.workflowExecutionName).toBeDefined();
    expect([...lifecycle.workflows.started.keys()]).toEqual([record.workflowExecutionName]);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(record.exportId);
    expect(await lifecycle.store.getExport(SPOT, record.exportId)).toEqual(record);
    expect(lifecycle.upstream.calls).toEqual([]);
  });

  it('answers a repeat of the same key with the first export, starting nothing again', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const command = { spotId: SPOT, request: DAY, source: 'api' as const, idempotencyKey: 'key-1' };
    const first = await startExport(lifecycle.deps, command);

    // Act
    const again = await startExport(lifecycle.deps, command);

    // Assess
    expect(again.replayed).toBe(true);
    expect(again.record.exportId).toBe(first.record.exportId);
    expect(lifecycle.workflows.started.size).toBe(1);
    expect((await lifecycle.store.listExports(SPOT, { limit: 10 })).items).toHaveLength(1);
  });

  it('refuses the same key for a different request', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api', idempotencyKey: 'key-1' });

    // Act
    const error = await captureError(
      startExport(lifecycle.deps, {
        spotId: SPOT,
        request: NEXT_DAY,
        source: 'api',
        idempotencyKey: 'key-1',
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('refuses a busy spot by default, naming the export that holds it and recording nothing', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const error = await captureError(
      startExport(lifecycle.deps, { spotId: SPOT, request: NEXT_DAY, source: 'api' }),
    );

    // Assess
    expect(error).toBeInstanceOf(SpotBusyError);
    expect((error as SpotBusyError).activeExportId).toBe(running.record.exportId);
    expect((await lifecycle.store.listExports(SPOT, { limit: 10 })).items).toHaveLength(1);
  });

  it('queues behind a busy spot when asked, with its priority, and starts nothing for it yet', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const { record } = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: NEXT_DAY,
      source: 'backfill',
      whenBusy: 'queue',
      priority: QueuePriority.BACKFILL,
      origin: { backfillId: 'bf_1' },
    });

    // Assess
    expect(record).toMatchObject({
      status: ExportStatus.QUEUED,
      queue: { priority: QueuePriority.BACKFILL },
      origin: { backfillId: 'bf_1' },
    });
    expect(lifecycle.workflows.started.size).toBe(1);
    expect(lifecycle.metrics).toContain('ExportsQueued');
  });

  it('starts a queued-if-busy export at once when the spot is free', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const { record } = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: DAY,
      source: 'schedule',
      whenBusy: 'queue',
    });

    // Assess
    expect(record.status).toBe(ExportStatus.REQUESTED);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(record.exportId);
    expect(lifecycle.workflows.started.size).toBe(1);
  });

  it('records one export for an id the caller named, however often it is started', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = 'ex_01kak3f4v2qz7m9d8c5b4a0001';

    // Act
    const first = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api', exportId });
    const again = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api', exportId });

    // Assess
    expect(first.record.exportId).toBe(exportId);
    expect(again.record).toEqual(first.record);
    expect(lifecycle.workflows.started.size).toBe(1);
  });

  it('tells of a spot without credentials before anything is recorded', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    lifecycle.deps.credentials.getCredentials = async () => {
      throw new Error('no credentials for sp_demo');
    };

    // Act
    const error = await captureError(
      startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' }),
    );

    // Assess
    expect(error.message).toBe('no credentials for sp_demo');
    expect(await lifecycle.spotLocks.get(SPOT)).toBeUndefined();
    expect((await lifecycle.store.listExports(SPOT, { limit: 10 })).items).toEqual([]);
  });
});
