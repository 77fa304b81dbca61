import { describe, expect, it } from 'vitest';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { IllegalTransitionError } from '../../../../../lib/exports/record/errors';
import { transitionExport, transitionOrCurrent } from '../../../../../lib/exports/record/transitionExport';
import { captureError } from '../../../../support/captureError';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { InMemoryExportStore } from '../../../../support/inMemoryPorts';

async function storeWithProcessing() {
  const store = new InMemoryExportStore();
  const record = await store.createExport(exportRecordFixture({ status: ExportStatus.PROCESSING }));
  return { store, record };
}

describe('transitionExport', () => {
  it('writes a legal transition, from the legal sources of its target when none is named', async () => {
    // Prepare
    const { store, record } = await storeWithProcessing();

    // Act
    const next = await transitionExport(store, record.spotId, record.exportId, {
      to: ExportStatus.COMPLETED,
      changes: { completedAt: '2026-11-01T00:00:00.000Z' },
    });

    // Assess
    expect(next).toMatchObject({ status: ExportStatus.COMPLETED, completedAt: '2026-11-01T00:00:00.000Z' });
  });

  it('refuses an illegal transition before writing, and names the current record when it lost to one', async () => {
    // Prepare
    const { store, record } = await storeWithProcessing();
    await transitionExport(store, record.spotId, record.exportId, { to: ExportStatus.FAILED });

    // Act
    const illegal = await captureError(
      transitionExport(store, record.spotId, record.exportId, {
        to: ExportStatus.PROCESSING,
        from: ExportStatus.COMPLETED,
      }),
    );
    const lost = await captureError(
      transitionExport(store, record.spotId, record.exportId, {
        to: ExportStatus.COMPLETED,
        from: ExportStatus.PROCESSING,
      }),
    );

    // Assess
    expect(illegal).toBeInstanceOf(IllegalTransitionError);
    expect(lost).toBeInstanceOf(IllegalTransitionError);
    expect((lost as IllegalTransitionError).current?.status).toBe(ExportStatus.FAILED);
  });

  it('refuses an empty list of expected statuses', async () => {
    // Prepare
    const { store, record } = await storeWithProcessing();

    // Act / Assess
    await expect(
      transitionExport(store, record.spotId, record.exportId, { to: ExportStatus.COMPLETED, from: [] }),
    ).rejects.toThrow(TypeError);
  });
});

describe('transitionOrCurrent', () => {
  it('tells the winner of a race from the loser, who gets the record as the winner left it', async () => {
    // Prepare: two writers read the same version
    const { store, record } = await storeWithProcessing();

    // Act
    const first = await transitionOrCurrent({ store }, record, ExportStatus.COMPLETED, {});
    const second = await transitionOrCurrent({ store }, record, ExportStatus.FAILED, {
      failureReason: 'late',
    });

    // Assess
    expect(first).toMatchObject({ won: true, record: { status: ExportStatus.COMPLETED } });
    expect(second).toMatchObject({ won: false, record: { status: ExportStatus.COMPLETED } });
  });
});
