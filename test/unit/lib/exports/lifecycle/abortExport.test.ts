import { describe, expect, it } from 'vitest';
import { abortExport } from '../../../../../lib/exports/lifecycle/abortExport';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const DAY = { kind: 'dateRange' as const, from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };

describe('abortExport', () => {
  it('takes a QUEUED export out of its queue at once: ABORTED, nothing sent upstream, the running one untouched', async () => {
    // Prepare: one export holds the spot, another waits behind it
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const queued = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: { ...DAY, from: '2026-10-29T00:00:00Z', until: '2026-10-30T00:00:00Z' },
      source: 'api',
      whenBusy: 'queue',
    });

    // Act
    const aborted = await abortExport(lifecycle.deps, {
      spotId: SPOT,
      exportId: queued.record.exportId,
      reason: 'requested',
    });

    // Assess
    expect(queued.record.status).toBe(ExportStatus.QUEUED);
    expect(aborted.status).toBe(ExportStatus.ABORTED);
    expect(aborted.completedAt).toBeDefined();
    expect(lifecycle.upstream.calls).toEqual([]);
    expect(lifecycle.workflows.stopped).toEqual([]);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(running.record.exportId);
    expect(lifecycle.published.map((record) => record.exportId)).toEqual([queued.record.exportId]);
  });
});
