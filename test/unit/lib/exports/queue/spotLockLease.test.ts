import { describe, expect, it } from 'vitest';
import { SpotBusyError } from '../../../../../lib/exports/queue/errors';
import {
  exportLockLeaseSeconds,
  SPOT_LOCK_DEADLINE_MARGIN_SECONDS,
  takeSpotLock,
} from '../../../../../lib/exports/queue/spotLockLease';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { captureError } from '../../../../support/captureError';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';

describe('exportLockLeaseSeconds', () => {
  it("outlasts the export's deadline by a margin, so no second export starts while the first may run", () => {
    // Act / Assess
    expect(exportLockLeaseSeconds({ exportDeadlineSeconds: 3600 })).toBe(
      3600 + SPOT_LOCK_DEADLINE_MARGIN_SECONDS,
    );
  });
});

describe('takeSpotLock', () => {
  it('takes a free spot for the length of an export', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    await takeSpotLock(lifecycle.deps, SPOT, 'ex_new');

    // Assess
    const lock = await lifecycle.spotLocks.get(SPOT);
    expect(lock?.exportId).toBe('ex_new');
    expect(lock?.expiresAtEpochSeconds).toBe(
      Math.floor(lifecycle.clock.nowMs / 1000) + exportLockLeaseSeconds(lifecycle.deps.settings),
    );
  });

  it('refuses a spot held by a running export', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const holder = await lifecycle.store.createExport(
      exportRecordFixture({ spotId: SPOT, status: ExportStatus.PROCESSING }),
    );
    await lifecycle.spotLocks.acquire(SPOT, holder.exportId);

    // Act
    const error = await captureError(takeSpotLock(lifecycle.deps, SPOT, 'ex_new'));

    // Assess
    expect(error).toBeInstanceOf(SpotBusyError);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(holder.exportId);
  });

  it('takes over a lock whose export ended without releasing it', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const holder = await lifecycle.store.createExport(
      exportRecordFixture({ spotId: SPOT, status: ExportStatus.COMPLETED }),
    );
    await lifecycle.spotLocks.acquire(SPOT, holder.exportId);

    // Act
    await takeSpotLock(lifecycle.deps, SPOT, 'ex_new');

    // Assess
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe('ex_new');
  });

  it('takes over the lock of a start that died before recording its export, once its lease is over', async () => {
    // Prepare: a lock whose export was never recorded
    const lifecycle = inMemoryLifecycle({ startLockLeaseSeconds: 300 });
    await lifecycle.spotLocks.acquire(SPOT, 'ex_crashed');

    // Act
    const early = await captureError(takeSpotLock(lifecycle.deps, SPOT, 'ex_new'));
    lifecycle.clock.advance(301_000);
    await takeSpotLock(lifecycle.deps, SPOT, 'ex_new');

    // Assess
    expect(early).toBeInstanceOf(SpotBusyError);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe('ex_new');
  });
});
