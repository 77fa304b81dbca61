import { describe, expect, it } from 'vitest';
import { ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import { QueuePriority } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import {
  exportRecordToItem,
  itemToExportRecord,
  reconcilerIndexOf,
  statusIndexSortKeyOf,
} from '../../../../lib/store/exportItem';
import { ReconcilerIndexPartition } from '../../../../lib/store/tableKeys';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

const AT = '2026-11-01T12:00:00.000Z';

describe('exportRecordToItem and itemToExportRecord', () => {
  it('store a record with its keys and read back exactly the record, no keys and no empty fields', () => {
    // Prepare
    const record = exportRecordFixture({
      status: ExportStatus.PROCESSING,
      upstreamExportId: 'up_1',
      lastPolledAt: AT,
      origin: { schedule: 'daily' },
    });

    // Act
    const item = exportRecordToItem(record);

    // Assess
    expect(item).toMatchObject({ pk: `SPOT#${record.spotId}`, sk: `EXPORT#${record.exportId}` });
    expect(Object.values(item)).not.toContain(undefined);
    expect(itemToExportRecord(item)).toEqual(record);
  });

  it('read an item written before some fields existed with their defaults', () => {
    // Prepare
    const { links: _links, pollCount: _pollCount, ...older } = exportRecordToItem(exportRecordFixture());

    // Act
    const record = itemToExportRecord(older);

    // Assess
    expect(record.links).toEqual([]);
    expect(record.pollCount).toBe(0);
  });
});

describe('reconcilerIndexOf', () => {
  it("puts queued, active and unarchived completed exports in the reconciler's view, and nothing else", () => {
    // Act
    const queued = reconcilerIndexOf(
      exportRecordFixture({
        status: ExportStatus.QUEUED,
        queue: { priority: QueuePriority.FIRST, enqueuedAt: AT },
      }),
    );
    const active = reconcilerIndexOf(
      exportRecordFixture({ status: ExportStatus.PROCESSING, lastPolledAt: AT }),
    );
    const pending = reconcilerIndexOf(
      exportRecordFixture({
        status: ExportStatus.COMPLETED,
        archive: { status: ArchiveStatus.PENDING, files: [], claimedUntil: AT },
      }),
    );
    const archived = reconcilerIndexOf(
      exportRecordFixture({
        status: ExportStatus.COMPLETED,
        archive: { status: ArchiveStatus.ARCHIVED, files: [] },
      }),
    );
    const failed = reconcilerIndexOf(exportRecordFixture({ status: ExportStatus.FAILED }));

    // Assess
    expect(queued?.activeIndexPk).toBe(ReconcilerIndexPartition.QUEUED);
    expect(queued?.activeIndexSk.startsWith(AT)).toBe(true);
    expect(active).toEqual({ activeIndexPk: ReconcilerIndexPartition.ACTIVE, activeIndexSk: AT });
    expect(pending).toEqual({ activeIndexPk: ReconcilerIndexPartition.ARCHIVE_PENDING, activeIndexSk: AT });
    expect(archived).toBeUndefined();
    expect(failed).toBeUndefined();
  });
});

describe('statusIndexSortKeyOf', () => {
  it('sorts queued exports by priority then arrival, and the others by id', () => {
    // Prepare
    const queued = (priority: QueuePriority, enqueuedAt: string) =>
      statusIndexSortKeyOf(
        exportRecordFixture({ status: ExportStatus.QUEUED, queue: { priority, enqueuedAt } }),
      );

    // Act
    const keys = [
      queued(QueuePriority.BACKFILL, '2026-11-01T00:00:00.000Z'),
      queued(QueuePriority.FIRST, '2026-11-01T01:00:00.000Z'),
      queued(QueuePriority.FIRST, '2026-11-01T00:30:00.000Z'),
    ];
    const completed = exportRecordFixture({ status: ExportStatus.COMPLETED });

    // Assess
    expect([...keys].sort()).toEqual([keys[2], keys[1], keys[0]]);
    expect(statusIndexSortKeyOf(completed)).toContain(completed.exportId);
  });
});
