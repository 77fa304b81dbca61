import { describe, expect, it } from 'vitest';
import { someoneWaitsFor } from '../../../../../lib/exports/lifecycle/someoneWaits';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import type { ExportStore } from '../../../../../lib/exports/record/ExportStore';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { InMemoryExportStore } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_waits';

function running(overrides: Parameters<typeof exportRecordFixture>[0] = {}) {
  return exportRecordFixture({
    spotId: SPOT,
    exportId: 'ex_running',
    status: ExportStatus.PROCESSING,
    ...overrides,
  });
}

describe('someoneWaitsFor', () => {
  it('says no when the export is not urgent and nothing is queued behind it', async () => {
    // Prepare
    const store = new InMemoryExportStore();

    // Act
    const waits = await someoneWaitsFor({ store }, running());

    // Assess
    expect(waits).toBe(false);
  });

  it("says yes when the caller asked for it urgently, without reading the spot's queue", async () => {
    // Prepare
    const store = {
      listExports: async () => {
        throw new Error('must not be read');
      },
    } as unknown as ExportStore;

    // Act
    const waits = await someoneWaitsFor({ store }, running({ urgent: true }));

    // Assess
    expect(waits).toBe(true);
  });

  it('says yes once an export is queued behind it on the spot, asked afresh each time', async () => {
    // Prepare
    const store = new InMemoryExportStore();
    const record = running();
    const before = await someoneWaitsFor({ store }, record);
    const { version: _, ...queued } = exportRecordFixture({
      spotId: SPOT,
      exportId: 'ex_queued',
      status: ExportStatus.QUEUED,
    });
    await store.createExport(queued);

    // Act
    const after = await someoneWaitsFor({ store }, record);

    // Assess
    expect(before).toBe(false);
    expect(after).toBe(true);
  });

  it('counts a queue that cannot be read as waiting: a few more polls cost less than a late find', async () => {
    // Prepare
    const store = {
      listExports: async () => {
        throw new Error('table unavailable');
      },
    } as unknown as ExportStore;

    // Act
    const waits = await someoneWaitsFor({ store }, running());

    // Assess
    expect(waits).toBe(true);
  });
});
