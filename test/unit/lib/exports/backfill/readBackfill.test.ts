import { describe, expect, it } from 'vitest';
import { BackfillStatus } from '../../../../../lib/exports/backfill/backfillProgress';
import { createBackfill } from '../../../../../lib/exports/backfill/createBackfill';
import { BackfillNotFoundError } from '../../../../../lib/exports/backfill/errors';
import { readBackfill } from '../../../../../lib/exports/backfill/readBackfill';
import { captureError } from '../../../../support/captureError';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const RANGE = { spotId: SPOT, from: '2026-10-01T00:00:00Z', until: '2026-10-04T00:00:00Z', windowHours: 24 };

describe('readBackfill', () => {
  it('reports a new backfill running: one window running, the others queued behind it', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await createBackfill(lifecycle.deps, RANGE);

    // Act
    const report = await readBackfill(lifecycle.deps, SPOT, record.backfillId);

    // Assess
    expect(report.record).toEqual(record);
    expect(report.progress.status).toBe(BackfillStatus.RUNNING);
    expect(report.progress.counts).toMatchObject({ total: 3, running: 1, queued: 2, done: 0 });
    expect(report.progress.windows.map((window) => window.from)).toEqual([
      '2026-10-01T00:00:00Z',
      '2026-10-02T00:00:00Z',
      '2026-10-03T00:00:00Z',
    ]);
  });

  it("refuses an unknown backfill, and another spot's", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await createBackfill(lifecycle.deps, RANGE);

    // Act
    const unknown = await captureError(readBackfill(lifecycle.deps, SPOT, 'bf_01kak3f4v2qz7m9d8c5b4a0001'));
    const otherSpot = await captureError(readBackfill(lifecycle.deps, 'sp_other', record.backfillId));

    // Assess
    expect(unknown).toBeInstanceOf(BackfillNotFoundError);
    expect(otherSpot).toBeInstanceOf(BackfillNotFoundError);
  });
});
