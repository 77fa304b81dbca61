import { describe, expect, it } from 'vitest';
import { checkExport } from '../../../../../lib/exports/lifecycle/checkExport';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { ExportNotFoundError } from '../../../../../lib/exports/record/errors';
import { UpstreamExportNotFoundError } from '../../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../../lib/exports/upstream/UpstreamExports';
import { captureError } from '../../../../support/captureError';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';
import { runCreateTask } from '../../../../support/startAndCreate';

const SPOT = 'sp_demo';
const REQUEST = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;
const LINK = 'https://exports.example.com/part-1.zip';

function report(status: UpstreamExportStatus, links: string[] = []) {
  return { exportId: 'up_1', status, rawStatus: status.toLowerCase(), links, rejectedLinkCount: 0, raw: {} };
}

/** An export the upstream accepted (PROCESSING, upstream id up_1). */
async function createdExport(lifecycle: InMemoryLifecycle): Promise<string> {
  const { record } = await startExport(lifecycle.deps, { spotId: SPOT, request: REQUEST, source: 'api' });
  await runCreateTask(lifecycle.deps, SPOT, record.exportId);
  return record.exportId;
}

const statusCalls = (lifecycle: InMemoryLifecycle) =>
  lifecycle.upstream.calls.filter((call) => call.startsWith('getExportStatus'));

describe('checkExport', () => {
  it('serves an API read from the record while its last poll is fresh, and polls once it is stale', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ statusFreshnessSeconds: 30 });
    const exportId = await createdExport(lifecycle);
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];
    await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'api' });

    // Act
    lifecycle.clock.advance(10_000);
    await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'api' });
    const fresh = statusCalls(lifecycle).length;
    lifecycle.clock.advance(30_000);
    await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'api' });

    // Assess
    expect(fresh).toBe(1);
    expect(statusCalls(lifecycle)).toEqual(['getExportStatus sp_demo up_1', 'getExportStatus sp_demo up_1']);
  });

  it('always polls for the reconciler, however fresh the record', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = await createdExport(lifecycle);
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'reconcile' });
    await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'reconcile' });

    // Assess
    expect(statusCalls(lifecycle)).toHaveLength(2);
  });

  it('records a completion with its links, releases the spot and announces the end once', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = await createdExport(lifecycle);
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.COMPLETED, [LINK])];

    // Act
    const record = await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'api' });
    const again = await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'reconcile' });

    // Assess
    expect(record).toMatchObject({ status: ExportStatus.COMPLETED, links: [LINK] });
    expect(again).toEqual(record);
    expect(statusCalls(lifecycle)).toHaveLength(1);
    expect(await lifecycle.spotLocks.get(SPOT)).toBeUndefined();
    expect(lifecycle.published.map((published) => published.exportId)).toEqual([exportId]);
  });

  it('shares one upstream call among concurrent checks of one export', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = await createdExport(lifecycle);
    lifecycle.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    const records = await Promise.all(
      Array.from({ length: 5 }, () =>
        checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'reconcile' }),
      ),
    );

    // Assess
    expect(statusCalls(lifecycle)).toHaveLength(1);
    expect(new Set(records.map((record) => record.status))).toEqual(new Set([ExportStatus.PROCESSING]));
  });

  it('fails an export the upstream no longer knows', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = await createdExport(lifecycle);
    lifecycle.upstream.answers.getExportStatus = [{ error: new UpstreamExportNotFoundError(SPOT, 'up_1') }];

    // Act
    const record = await checkExport(lifecycle.deps, { spotId: SPOT, exportId, mode: 'reconcile' });

    // Assess
    expect(record).toMatchObject({
      status: ExportStatus.FAILED,
      failureReason: 'the upstream no longer knows this export',
    });
  });

  it('asks nothing of the upstream for an export whose create was never sent', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await startExport(lifecycle.deps, { spotId: SPOT, request: REQUEST, source: 'api' });

    // Act
    const checked = await checkExport(lifecycle.deps, {
      spotId: SPOT,
      exportId: record.exportId,
      mode: 'reconcile',
    });

    // Assess
    expect(checked).toEqual(record);
    expect(lifecycle.upstream.calls).toEqual([]);
  });

  it("refuses an unknown id, and another spot's id", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const exportId = await createdExport(lifecycle);

    // Act
    const unknown = await captureError(
      checkExport(lifecycle.deps, { spotId: SPOT, exportId: 'ex_01kak3f4v2qz7m9d8c5b4a9999', mode: 'api' }),
    );
    const otherSpot = await captureError(
      checkExport(lifecycle.deps, { spotId: 'sp_other', exportId, mode: 'api' }),
    );

    // Assess
    expect(unknown).toBeInstanceOf(ExportNotFoundError);
    expect(otherSpot).toBeInstanceOf(ExportNotFoundError);
  });
});
