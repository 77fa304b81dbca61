import { describe, expect, it } from 'vitest';
import { WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ReconcileFailedError } from '../../../../../lib/exports/reconciler/errors';
import { reconcileExports } from '../../../../../lib/exports/reconciler/reconcileExports';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { UpstreamUnavailableError } from '../../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../../lib/exports/upstream/UpstreamExports';
import { captureError } from '../../../../support/captureError';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';
import { runCreateTask } from '../../../../support/startAndCreate';

const SPOT = 'sp_demo';
const DAY = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;
const NEXT_DAY = { kind: 'dateRange', from: '2026-11-01T00:00:00Z', until: '2026-11-02T00:00:00Z' } as const;
const STALE_SECONDS = 600;

function report(status: UpstreamExportStatus, links: string[] = []) {
  return { exportId: 'up_1', status, rawStatus: status, links, rejectedLinkCount: 0, raw: {} };
}

/** An export the upstream accepted, on its own spot, then left alone long enough to be stale. */
async function staleExport(lifecycle: InMemoryLifecycle, spotId = SPOT) {
  const { record } = await startExport(lifecycle.deps, { spotId, request: DAY, source: 'api' });
  await runCreateTask(lifecycle.deps, spotId, record.exportId);
  return (await lifecycle.store.getExport(spotId, record.exportId)) ?? record;
}

const passTime = (lifecycle: InMemoryLifecycle) => lifecycle.clock.advance((STALE_SECONDS + 1) * 1000);

describe('reconcileExports', () => {
  it('gives a stale export whose workflow is gone a new workflow, and leaves one whose workflow runs', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ reconcileStaleAfterSeconds: STALE_SECONDS });
    const lost = await staleExport(lifecycle, 'sp_lost');
    const running = await staleExport(lifecycle, 'sp_running');
    await lifecycle.workflows.stop(lost.workflowExecutionName ?? '');
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];
    passTime(lifecycle);

    // Act
    const summary = await reconcileExports(lifecycle.deps);

    // Assess
    expect(summary).toMatchObject({ examined: 2, finished: 0, workflowsRestarted: 1, failures: 0 });
    const restarted = await lifecycle.store.getExport('sp_lost', lost.exportId);
    expect(restarted?.workflowExecutionName).toBe(`${lost.workflowExecutionName}-r1`);
    expect(lifecycle.workflows.started.has(`${lost.workflowExecutionName}-r1`)).toBe(true);
    expect((await lifecycle.store.getExport('sp_running', running.exportId))?.workflowExecutionName).toBe(
      running.workflowExecutionName,
    );
    expect(lifecycle.metrics.filter((name) => name === 'WorkflowsRestarted')).toHaveLength(1);
  });

  it('records the end of a stale export the upstream finished, and starts the export queued behind it', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ reconcileStaleAfterSeconds: STALE_SECONDS });
    const finished = await staleExport(lifecycle);
    const queued = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: NEXT_DAY,
      source: 'schedule',
      whenBusy: 'queue',
    });
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.FAILED)];
    passTime(lifecycle);

    // Act
    const summary = await reconcileExports(lifecycle.deps);

    // Assess
    expect(summary).toMatchObject({ examined: 1, finished: 1 });
    expect((await lifecycle.store.getExport(SPOT, finished.exportId))?.status).toBe(ExportStatus.FAILED);
    expect((await lifecycle.store.getExport(SPOT, queued.record.exportId))?.status).toBe(
      ExportStatus.REQUESTED,
    );
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(queued.record.exportId);
  });

  it('starts a queued export whose spot was freed without starting it (a crash after the release)', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const queued = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: NEXT_DAY,
      source: 'api',
      whenBusy: 'queue',
    });
    await lifecycle.spotLocks.release(SPOT, running.record.exportId);

    // Act
    const summary = await reconcileExports(lifecycle.deps);

    // Assess
    expect(summary.queuedStarted).toBe(1);
    expect((await lifecycle.store.getExport(SPOT, queued.record.exportId))?.status).toBe(
      ExportStatus.REQUESTED,
    );
  });

  it('retries a coverage window whose cooldown is over', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    await lifecycle.coverage.claimWindow(
      coverageWindowFixture({
        spotId: SPOT,
        from: DAY.from,
        until: DAY.until,
        state: WindowState.RETRYING,
        dueAt: '2026-11-01T11:00:00.000Z',
      }),
    );

    // Act
    const summary = await reconcileExports(lifecycle.deps);

    // Assess
    expect(summary.windowsAdvanced).toBe(1);
    const window = await lifecycle.coverage.getWindow(SPOT, DAY.from, DAY.until);
    expect(window).toMatchObject({ state: WindowState.IN_FLIGHT, attempts: 2 });
    expect(await lifecycle.store.getExport(SPOT, window?.exportId ?? '')).toBeDefined();
  });

  it('counts a passing failure and goes on; throws once the sweep is over for one that is not passing', async () => {
    // Prepare: the upstream is down for the older export, and a bug answers for the newer
    const lifecycle = inMemoryLifecycle({ reconcileStaleAfterSeconds: STALE_SECONDS });
    await staleExport(lifecycle, 'sp_a');
    lifecycle.clock.advance(1000);
    const broken = await staleExport(lifecycle, 'sp_b');
    lifecycle.upstream.answers.getExportStatus = [
      { error: new UpstreamUnavailableError('down', { statusCode: 503 }) },
      { error: new TypeError('a bug') },
    ];
    passTime(lifecycle);

    // Act
    const error = await captureError(reconcileExports(lifecycle.deps));

    // Assess
    expect(error).toBeInstanceOf(ReconcileFailedError);
    expect((error as ReconcileFailedError).summary).toMatchObject({ examined: 2, failures: 2 });
    expect((error as ReconcileFailedError).failedExportIds).toEqual([broken.exportId]);
  });
});
