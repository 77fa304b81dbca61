import { afterEach, describe, expect, it } from 'vitest';
import type { ExportDependencies } from '../../../lib/exports/ExportDependencies';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { checkExport } from '../../../lib/exports/lifecycle/checkExport';
import { startExport } from '../../../lib/exports/queue/startExport';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import type { ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { crashingStore } from '../../support/crashingStore';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { SimulatedCrash } from '../../support/SimulatedCrash';
import { runCreateTask, startAndCreate } from '../../support/startAndCreate';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
const HOUR_MS = 60 * 60 * 1000;

function createdUpstreamExports(h: ExportHarness): number {
  return h.simulator.listExports(SPOT).length;
}

describe('create convergence after crashes and ambiguous creates', () => {
  let h: ExportHarness;

  afterEach(async () => {
    await h.close();
  });

  /** A running export whose abort met an upstream outage: left ABORTING for the reconciler. */
  async function interruptedAbort(reason: 'requested' | 'timeout' = 'requested') {
    h = await startExportHarness({
      simulator: { faults: { script: [{ endpoint: 'abort', kind: 'error', status: 503, times: 10 }] } },
    });
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await expect(abortExport(h.deps, { spotId: SPOT, exportId: record.exportId, reason })).rejects.toThrow();
    h.simulator.setFaults({});
    return record;
  }

  it('converges on one recorded upstream export when the process dies after the create and before recording it', async () => {
    // Prepare
    h = await startExportHarness({ settings: { createClaimTimeoutSeconds: 30 } });
    const crashing: ExportDependencies = {
      ...h.deps,
      store: crashingStore(h.store, ExportStatus.PROCESSING),
    };
    const command = { spotId: SPOT, request: DAY, source: 'api' as const, idempotencyKey: 'retry-me' };
    const { record } = await startExport(h.deps, command);
    await expect(runCreateTask(crashing, SPOT, record.exportId)).rejects.toThrow(SimulatedCrash);
    h.clock.advance(31_000);

    // Act: the workflow's Retry runs the create task again; a 409 proves ours runs upstream.
    await runCreateTask(h.deps, SPOT, record.exportId);
    const retried = await h.store.getExport(SPOT, record.exportId);
    h.clock.advance(2 * HOUR_MS);
    const polled = await checkExport(h.deps, { spotId: SPOT, exportId: record.exportId, mode: 'workflow' });

    // Assess
    expect(retried?.status).toBe(ExportStatus.REQUESTED);
    expect(h.simulator.requestsTo('create').map((request) => request.status)).toEqual([200, 409]);
    expect(createdUpstreamExports(h)).toBe(1);
    expect(polled.status).toBe(ExportStatus.COMPLETED);
    expect(polled.upstreamExportId).toBe(h.simulator.listExports(SPOT)[0]?.id);
    expect(polled.links.length).toBeGreaterThan(0);
    expect(h.workflows.started.has(record.exportId)).toBe(true);
    expect(h.metrics).toContain('ExportsRecovered');
  });

  it('recovers an ambiguous create (connection reset after the upstream created it) without a second export', async () => {
    // Prepare
    h = await startExportHarness({
      simulator: { faults: { script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }] } },
    });

    // Act
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    const polled = await checkExport(h.deps, { spotId: SPOT, exportId: record.exportId, mode: 'workflow' });

    // Assess
    expect(record.status).toBe(ExportStatus.REQUESTED);
    expect(h.simulator.requestsTo('create').map((request) => request.status)).toEqual(['reset', 409]);
    expect(createdUpstreamExports(h)).toBe(1);
    expect(polled.status).toBe(ExportStatus.COMPLETED);
    expect(polled.upstreamExportId).toBe(h.simulator.listExports(SPOT)[0]?.id);
  });

  it('creates the export on recovery when the ambiguous create never reached the upstream', async () => {
    // Prepare
    h = await startExportHarness({
      simulator: { faults: { script: [{ endpoint: 'create', kind: 'resetBeforeProcessing' }] } },
    });

    // Act
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Assess
    expect(record.status).toBe(ExportStatus.PROCESSING);
    expect(createdUpstreamExports(h)).toBe(1);
    expect(record.upstreamExportId).toBe(h.simulator.listExports(SPOT)[0]?.id);
  });

  it('sends the create once when the task died before sending anything', async () => {
    // Prepare
    h = await startExportHarness({ settings: { createClaimTimeoutSeconds: 30 } });
    const crashing: ExportDependencies = { ...h.deps, store: crashingStore(h.store, ExportStatus.REQUESTED) };
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await expect(runCreateTask(crashing, SPOT, record.exportId)).rejects.toThrow(SimulatedCrash);

    // Act
    await runCreateTask(h.deps, SPOT, record.exportId);

    // Assess
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.PROCESSING);
  });

  it('frees a spot whose start died before recording anything once the short start lease lapses', async () => {
    // Prepare: the start took the spot, then its process died before the record was written.
    h = await startExportHarness();
    await h.spotLocks.acquire(SPOT, 'ex_01jdeadstart0000000000000', {
      leaseSeconds: h.deps.settings.startLockLeaseSeconds,
    });
    const whileHeld = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' }).catch(
      (error: unknown) => error,
    );
    h.clock.advance(h.deps.settings.startLockLeaseSeconds * 1000 + 1);

    // Act
    const next = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Assess
    expect((whileHeld as Error).name).toBe('SpotBusyError');
    expect(next.record.status).toBe(ExportStatus.REQUESTED);
    expect(h.simulator.requestsTo('create')).toHaveLength(0);
  });

  it('restarts the polling workflow of an export whose workflow is gone', async () => {
    // Prepare
    h = await startExportHarness();
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.workflows.running.clear();
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);

    // Act
    const summary = await reconcileExports(h.deps);

    // Assess
    expect(summary).toMatchObject({ examined: 1, workflowsRestarted: 1, failures: 0 });
    expect(h.workflows.started.has(`${record.exportId}-r1`)).toBe(true);
    expect((await h.store.getExport(SPOT, record.exportId))?.workflowExecutionName).toBe(
      `${record.exportId}-r1`,
    );
  });

  it('finishes an interrupted abort on the next reconciler run', async () => {
    // Prepare
    const record = await interruptedAbort();
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);

    // Act
    const summary = await reconcileExports(h.deps);

    // Assess
    expect(summary).toMatchObject({ examined: 1, finished: 1 });
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.ABORTED);
    expect(h.simulator.getExport(record.upstreamExportId as string)?.state).toBe('aborted');
  });

  it('ends an interrupted abort as COMPLETED when the upstream finished the export first', async () => {
    // Prepare
    const record = await interruptedAbort();
    h.simulator.finishExport(record.upstreamExportId as string, 'completed');
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);

    // Act
    const summary = await reconcileExports(h.deps);

    // Assess: the upstream's outcome stands; the sweep neither fails nor counts a failure.
    expect(summary).toMatchObject({ examined: 1, finished: 1, failures: 0 });
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.COMPLETED);
  });

  it('keeps no failure reason on an export that completed before its deadline abort took', async () => {
    // Prepare
    const record = await interruptedAbort('timeout');
    expect((await h.store.getExport(SPOT, record.exportId))?.failureReason).toBe('polling deadline passed');
    h.simulator.finishExport(record.upstreamExportId as string, 'completed');
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);

    // Act
    await reconcileExports(h.deps);

    // Assess
    const final = await h.store.getExport(SPOT, record.exportId);
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.failureReason).toBeUndefined();
  });

  it('shares one upstream token between 50 cold containers', async () => {
    // Prepare
    h = await startExportHarness();
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.simulator.clearRequestLog();
    const containers = Array.from({ length: 50 }, () => h.newContainer());
    await h.table.documentClient.send(
      // Forget the token the start used, so every container starts cold.
      new (await import('@aws-sdk/lib-dynamodb')).DeleteCommand({
        TableName: h.table.tableName,
        Key: { pk: `SPOT#${SPOT}`, sk: 'UPSTREAM_TOKEN' },
      }),
    );

    // Act
    await Promise.all(
      containers.map((deps) =>
        checkExport(deps, { spotId: SPOT, exportId: record.exportId, mode: 'workflow' }),
      ),
    );

    // Assess
    expect(h.simulator.requestsTo('auth')).toHaveLength(1);
    expect(h.simulator.requestsTo('status').length).toBeGreaterThanOrEqual(1);
  });

  it('answers a start whose workflow could not be launched, and leaves the launch to the reconciler', async () => {
    // Prepare
    h = await startExportHarness();
    const failingOnce: ExportDependencies = {
      ...h.deps,
      workflows: {
        ...h.workflows,
        start: async () =>
          Promise.reject(
            Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $retryable: {} }),
          ),
        isRunning: async () => false,
        stop: async () => undefined,
      },
    };

    // Act
    const { record } = await startExport(failingOnce, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);
    const summary = await reconcileExports(h.deps);

    // Assess
    expect(record.status).toBe(ExportStatus.REQUESTED);
    // Named with the export from the start, so the start writes nothing after it; the reconciler
    // finds that execution missing and starts the next attempt.
    expect(record.workflowExecutionName).toBe(record.exportId);
    expect(h.metrics).toContain('WorkflowStartsFailed');
    expect(summary).toMatchObject({ examined: 1, workflowsRestarted: 1 });
    expect(h.workflows.started.has(`${record.exportId}-r1`)).toBe(true);
  });

  it('keeps looking for an export whose create answer was lost even past the polling deadline, and records its outcome', async () => {
    // Prepare: the answer to the create is lost, and the export outlasts the polling deadline.
    h = await startExportHarness({
      simulator: {
        exportDurationMs: () => 8 * HOUR_MS,
        faults: { script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }] },
      },
    });
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(h.deps.settings.exportDeadlineSeconds * 1000 + 1);
    const pastDeadline = await checkExport(h.deps, {
      spotId: SPOT,
      exportId: record.exportId,
      mode: 'workflow',
    });
    // The workflow's timeout path asks for an abort; the id is still unknown.
    const abortAsked = await abortExport(h.deps, {
      spotId: SPOT,
      exportId: record.exportId,
      reason: 'timeout',
    });

    // Act: the upstream export finishes; the reconciler finds it.
    h.clock.advance(3 * HOUR_MS);
    const summary = await reconcileExports(h.deps);

    // Assess
    expect(pastDeadline.status).toBe(ExportStatus.REQUESTED);
    expect(abortAsked.status).toBe(ExportStatus.ABORTING);
    expect(summary).toMatchObject({ examined: 1, finished: 1, failures: 0 });
    const final = await h.store.getExport(SPOT, record.exportId);
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.upstreamExportId).toBe(h.simulator.listExports(SPOT)[0]?.id);
    expect(createdUpstreamExports(h)).toBe(1);
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('fails a reconciler run visibly when a record fails for a reason that is not passing, after repairing the rest', async () => {
    // Prepare: two exports whose workflows are gone; starting workflows is denied for one of them.
    h = await startExportHarness();
    const { record: denied } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const { record: fine } = await startAndCreate(h.deps, {
      spotId: 'sp_other',
      request: DAY,
      source: 'api',
    });
    h.workflows.running.clear();
    h.clock.advance(h.deps.settings.reconcileStaleAfterSeconds * 1000 + 1);
    const accessDenied = Object.assign(new Error('not authorized to perform states:StartExecution'), {
      name: 'AccessDeniedException',
      $fault: 'client',
    });
    const deps: ExportDependencies = {
      ...h.deps,
      workflows: {
        ...h.workflows,
        isRunning: async () => false,
        start: async (name, input) =>
          name.startsWith(denied.exportId) ? Promise.reject(accessDenied) : h.workflows.start(name, input),
        stop: async () => undefined,
      },
    };

    // Act
    const error = await reconcileExports(deps).catch((caught: unknown) => caught);

    // Assess
    expect((error as Error).name).toBe('ReconcileFailedError');
    expect((error as Error).message).toContain(`${denied.exportId}: AccessDeniedException`);
    expect(h.workflows.started.has(`${fine.exportId}-r1`)).toBe(true);
  });
});
