import { describe, expect, it } from 'vitest';
import { ArchiveClaimRefusedError } from '../../../../lib/archive/errors';
import type { ArchiveClaim } from '../../../../lib/archive/ports';
import { ArchiveStatus, type ExportArchive } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { transitionExport } from '../../../../lib/exports/record/transitionExport';
import { DynamoDbArchiveRecords } from '../../../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbExportStore } from '../../../../lib/store/DynamoDbExportStore';
import { captureError } from '../../../support/captureError';
import { useDynaliteTable } from '../../../support/dynaliteFixture';
import { newExportRecordFixture } from '../../../support/exportRecordFixtures';

const NOW = '2025-01-02T00:00:00.000Z';
const LEASE_END = '2025-01-02T00:20:00.000Z';
const AFTER_LEASE = '2025-01-02T00:30:00.000Z';

let archives: DynamoDbArchiveRecords;
let store: DynamoDbExportStore;
const dynalite = useDynaliteTable({ spotPrefix: 'sp_archive' }, ({ tableOptions }) => {
  archives = new DynamoDbArchiveRecords(tableOptions);
  store = new DynamoDbExportStore(tableOptions);
});

const claimBy = (runId: string, overrides: Partial<ArchiveClaim> = {}): ArchiveClaim => ({
  runId,
  now: NOW,
  claimedUntil: LEASE_END,
  ...overrides,
});

const ARCHIVED: ExportArchive = {
  status: ArchiveStatus.ARCHIVED,
  files: [],
  fileCount: 0,
  rows: 0,
  bytes: 0,
  archivedAt: NOW,
};

/** An export of a spot of its own, taken to `status` (COMPLETED unless given). */
async function exportIn(status: ExportStatus = ExportStatus.COMPLETED): Promise<ExportRecord> {
  const spotId = dynalite.freshSpot();
  const created = await store.createExport(newExportRecordFixture({ spotId }));
  if (status === ExportStatus.REQUESTED) return created;
  const processing = await transitionExport(store, spotId, created.exportId, {
    from: ExportStatus.REQUESTED,
    to: ExportStatus.PROCESSING,
    changes: { upstreamExportId: `up_${created.exportId}`, startedAt: NOW },
  });
  return transitionExport(store, spotId, processing.exportId, {
    from: ExportStatus.PROCESSING,
    to: status,
    changes: { completedAt: NOW, links: ['https://exports.openweb.test/1.zip'] },
  });
}

describe('DynamoDbArchiveRecords (dynalite)', () => {
  it('claims a completed export for a run: PENDING, a version on, due to the reconciler when the claim lapses', async () => {
    // Prepare
    const completed = await exportIn();

    // Act
    const claimed = await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));

    // Assess
    expect(claimed.archive).toEqual({
      status: ArchiveStatus.PENDING,
      files: [],
      runId: 'run-1',
      claimedAt: NOW,
      claimedUntil: LEASE_END,
    });
    expect(claimed.version).toBe(completed.version + 1);
    expect(claimed.links).toEqual(completed.links);
    expect((await store.findArchivePending(LEASE_END, 10)).map((record) => record.exportId)).not.toContain(
      completed.exportId,
    );
    expect((await store.findArchivePending(AFTER_LEASE, 10)).map((record) => record.exportId)).toContain(
      completed.exportId,
    );
  });

  it('lets the same run claim again, and refuses another run while the claim holds, naming the holder', async () => {
    // Prepare
    const completed = await exportIn();
    await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));

    // Act
    const again = await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));
    const refused = await captureError(
      archives.claim(completed.spotId, completed.exportId, claimBy('run-2')),
    );

    // Assess
    expect(again.archive?.runId).toBe('run-1');
    expect(refused).toBeInstanceOf(ArchiveClaimRefusedError);
    expect((refused as ArchiveClaimRefusedError).current?.archive?.runId).toBe('run-1');
  });

  it('lets another run take over a claim whose lease has passed', async () => {
    // Prepare
    const completed = await exportIn();
    await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));

    // Act
    const taken = await archives.claim(
      completed.spotId,
      completed.exportId,
      claimBy('run-2', { now: AFTER_LEASE, claimedUntil: '2025-01-02T00:50:00.000Z' }),
    );

    // Assess
    expect(taken.archive).toMatchObject({ status: ArchiveStatus.PENDING, runId: 'run-2' });
  });

  it('refuses to claim an export that is not completed, or does not exist', async () => {
    // Prepare
    const failed = await exportIn(ExportStatus.FAILED);

    // Act
    const notCompleted = await captureError(archives.claim(failed.spotId, failed.exportId, claimBy('run-1')));
    const missing = await captureError(archives.claim(failed.spotId, 'ex_missing', claimBy('run-1')));

    // Assess
    expect(notCompleted).toBeInstanceOf(ArchiveClaimRefusedError);
    expect((notCompleted as ArchiveClaimRefusedError).current?.status).toBe(ExportStatus.FAILED);
    expect(missing).toBeInstanceOf(ArchiveClaimRefusedError);
    expect((missing as ArchiveClaimRefusedError).current).toBeUndefined();
  });

  it('records the outcome for the run that holds the claim only, and takes the export out of the reconciler’s index', async () => {
    // Prepare
    const completed = await exportIn();
    await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));

    // Act
    const byOther = await captureError(
      archives.finish(completed.spotId, completed.exportId, 'run-2', ARCHIVED),
    );
    const finished = await archives.finish(completed.spotId, completed.exportId, 'run-1', ARCHIVED);

    // Assess
    expect(byOther).toBeInstanceOf(ArchiveClaimRefusedError);
    expect(finished.archive).toEqual(ARCHIVED);
    expect((await store.findArchivePending(AFTER_LEASE, 10)).map((record) => record.exportId)).not.toContain(
      completed.exportId,
    );
  });

  it('leaves a finished archive alone unless forced, and lets a forced run take it again', async () => {
    // Prepare
    const completed = await exportIn();
    await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));
    await archives.finish(completed.spotId, completed.exportId, 'run-1', ARCHIVED);

    // Act
    const unforced = await captureError(
      archives.claim(completed.spotId, completed.exportId, claimBy('run-2')),
    );
    const forced = await archives.claim(
      completed.spotId,
      completed.exportId,
      claimBy('run-2', { force: true }),
    );

    // Assess
    expect(unforced).toBeInstanceOf(ArchiveClaimRefusedError);
    expect(forced.archive).toMatchObject({ status: ArchiveStatus.PENDING, runId: 'run-2' });
  });

  it('ends a live claim early for the run that holds it, so the next run may take it', async () => {
    // Prepare
    const completed = await exportIn();
    await archives.claim(completed.spotId, completed.exportId, claimBy('run-1'));

    // Act
    const byOther = await archives.lapseClaim(completed.spotId, completed.exportId, 'run-2', NOW);
    const byHolder = await archives.lapseClaim(completed.spotId, completed.exportId, 'run-1', NOW);
    const taken = await archives.claim(
      completed.spotId,
      completed.exportId,
      claimBy('run-2', { now: '2025-01-02T00:00:01.000Z' }),
    );

    // Assess
    expect(byOther).toBe(false);
    expect(byHolder).toBe(true);
    expect(taken.archive?.runId).toBe('run-2');
  });
});
