import { describe, expect, it } from 'vitest';
import { abortBackfill } from '../../../../../lib/exports/backfill/abortBackfill';
import { BackfillState } from '../../../../../lib/exports/backfill/BackfillRecord';
import { BackfillStatus } from '../../../../../lib/exports/backfill/backfillProgress';
import { createBackfill } from '../../../../../lib/exports/backfill/createBackfill';
import { BackfillNotFoundError } from '../../../../../lib/exports/backfill/errors';
import { windowsBetween } from '../../../../../lib/exports/coverage/runSchedule';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { captureError } from '../../../../support/captureError';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const RANGE = { spotId: SPOT, from: '2026-10-01T00:00:00Z', until: '2026-10-04T00:00:00Z', windowHours: 24 };

describe('abortBackfill', () => {
  it('marks the backfill ABORTED, withdraws its windows and aborts their exports, queued ones with nothing sent', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await createBackfill(lifecycle.deps, RANGE);
    const planned = await windowsBetween(
      lifecycle.coverage,
      SPOT,
      Date.parse(RANGE.from),
      Date.parse(RANGE.until),
    );

    // Act
    const report = await abortBackfill(lifecycle.deps, { spotId: SPOT, backfillId: record.backfillId });

    // Assess
    expect(report.record).toMatchObject({ state: BackfillState.ABORTED, abortedAt: expect.any(String) });
    expect(report.progress.status).toBe(BackfillStatus.ABORTED);
    expect(
      await windowsBetween(lifecycle.coverage, SPOT, Date.parse(RANGE.from), Date.parse(RANGE.until)),
    ).toEqual([]);
    const exports = await Promise.all(
      planned.map((window) => lifecycle.store.getExport(SPOT, window.exportId)),
    );
    expect(exports.map((exported) => exported?.status)).toEqual([
      ExportStatus.ABORTED,
      ExportStatus.ABORTED,
      ExportStatus.ABORTED,
    ]);
    expect(lifecycle.upstream.calls.filter((call) => call.startsWith('abortExport'))).toEqual([]);
    expect(await lifecycle.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('is safe to repeat, counting the abort once', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await createBackfill(lifecycle.deps, RANGE);
    const first = await abortBackfill(lifecycle.deps, { spotId: SPOT, backfillId: record.backfillId });

    // Act
    const again = await abortBackfill(lifecycle.deps, { spotId: SPOT, backfillId: record.backfillId });

    // Assess
    expect(again.record).toEqual(first.record);
    expect(lifecycle.metrics.filter((name) => name === 'BackfillsAborted')).toHaveLength(1);
  });

  it('refuses an unknown backfill', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act / Assess
    expect(
      await captureError(
        abortBackfill(lifecycle.deps, { spotId: SPOT, backfillId: 'bf_01kak3f4v2qz7m9d8c5b4a0001' }),
      ),
    ).toBeInstanceOf(BackfillNotFoundError);
  });
});
