import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_LIMIT,
  listExports,
  MAX_LIST_LIMIT,
} from '../../../../../lib/exports/lifecycle/listExports';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import type { ExportPage, ListExportsOptions } from '../../../../../lib/exports/record/ExportStore';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { InMemoryExportStore } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';

/** The in-memory store, noting what each listing asked it. */
class ListingStore extends InMemoryExportStore {
  readonly asked: [string, ListExportsOptions][] = [];

  override async listExports(spotId: string, options: ListExportsOptions): Promise<ExportPage> {
    this.asked.push([spotId, options]);
    return super.listExports(spotId, { ...options, nextToken: undefined });
  }
}

describe('listExports', () => {
  it(`asks for ${DEFAULT_LIST_LIMIT} by default and never more than ${MAX_LIST_LIMIT} a page`, async () => {
    // Prepare
    const store = new ListingStore();

    // Act
    await listExports({ store }, { spotId: SPOT });
    await listExports({ store }, { spotId: SPOT, limit: 1000 });
    await listExports({ store }, { spotId: SPOT, limit: 5 });

    // Assess
    expect(store.asked).toEqual([
      [SPOT, { limit: DEFAULT_LIST_LIMIT }],
      [SPOT, { limit: MAX_LIST_LIMIT }],
      [SPOT, { limit: 5 }],
    ]);
  });

  it("passes the page token and status filter on, and answers the spot's exports that match", async () => {
    // Prepare
    const store = new ListingStore();
    await store.createExport(exportRecordFixture({ spotId: SPOT, status: ExportStatus.FAILED }));
    await store.createExport(exportRecordFixture({ spotId: SPOT, status: ExportStatus.COMPLETED }));
    await store.createExport(exportRecordFixture({ spotId: 'sp_other', status: ExportStatus.FAILED }));

    // Act
    const page = await listExports(
      { store },
      { spotId: SPOT, status: ExportStatus.FAILED, nextToken: 'eyJhIjoiYiJ9' },
    );

    // Assess
    expect(store.asked).toEqual([
      [SPOT, { limit: DEFAULT_LIST_LIMIT, status: ExportStatus.FAILED, nextToken: 'eyJhIjoiYiJ9' }],
    ]);
    expect(page.items.map((record) => [record.spotId, record.status])).toEqual([[SPOT, ExportStatus.FAILED]]);
  });
});
