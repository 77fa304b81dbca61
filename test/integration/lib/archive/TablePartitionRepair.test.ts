import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArchiveDependencies, archiveExport } from '../../../../lib/archive/archiveExport';
import type { PartitionCatalog, TablePartitions } from '../../../../lib/archive/ports';
import { TablePartitionRepair } from '../../../../lib/archive/TablePartitionRepair';
import { pollExportForWorkflow } from '../../../../lib/exports/lifecycle/pollExportForWorkflow';
import { CatalogStatus } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord, ExportRequest } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { S3StoredPartitions } from '../../../../lib/s3/S3StoredPartitions';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { archiveDependenciesOn } from '../../../support/archiveHarness';
import { type ExportHarness, startExportHarness } from '../../../support/exportHarness';
import { startAndCreate } from '../../../support/startAndCreate';

const HOUR_MS = 60 * 60 * 1000;

/** One day's export, partitioned under that day. */
function dayRequest(day: string): ExportRequest {
  const from = `${day}T00:00:00Z`;
  return {
    kind: 'dateRange',
    from,
    until: new Date(Date.parse(from) + 24 * HOUR_MS).toISOString().replace('.000Z', 'Z'),
    maxRecordsInFile: 100,
  };
}

/** A Glue database in memory: the partitions it holds, as `<spot> <date>`. */
class CatalogStandIn implements TablePartitions, PartitionCatalog {
  readonly partitions = new Set<string>();

  async register(spotId: string, date: string): Promise<void> {
    this.partitions.add(`${spotId} ${date}`);
  }

  async registeredDates(spotId: string): Promise<string[]> {
    return [...this.partitions]
      .filter((key) => key.startsWith(`${spotId} `))
      .map((key) => key.split(' ')[1] as string);
  }

  async registerDates(spotId: string, dates: readonly string[]): Promise<number> {
    const before = this.partitions.size;
    for (const date of dates) this.partitions.add(`${spotId} ${date}`);
    return this.partitions.size - before;
  }
}

describe('the partition repair over the S3 stand-in, after the catalog database changed', () => {
  let h: ExportHarness;
  let s3: LocalS3;

  beforeEach(async () => {
    h = await startExportHarness({ simulator: { commentsPerHour: 2, deleteShare: 0 } });
    s3 = await startLocalS3();
  });

  afterEach(async () => {
    await s3.close();
    await h.close();
  });

  /** A COMPLETED export of the simulator for `spotId` and one day. */
  async function completedExport(spotId: string, day: string): Promise<ExportRecord> {
    const { record } = await startAndCreate(h.deps, { spotId, request: dayRequest(day), source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    const output = await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId,
      exportId: record.exportId,
      deadline: '2099-01-01T00:00:00Z',
    });
    expect(output.status).toBe(ExportStatus.COMPLETED);
    return (await h.store.getExport(spotId, record.exportId)) as ExportRecord;
  }

  async function archive(record: ExportRecord, deps: Partial<ArchiveDependencies>) {
    const result = await archiveExport(archiveDependenciesOn(h, s3, deps), {
      spotId: record.spotId,
      exportId: record.exportId,
    });
    expect(result.record?.archive?.catalog).toBe(CatalogStatus.REGISTERED);
    return result;
  }

  /** The partitions the bucket holds, from the Parquet files' keys (`<spot> <date>`). */
  async function storedPartitions(): Promise<Set<string>> {
    const listed = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.bucketName, Prefix: 'tables/comments/' }),
    );
    return new Set(
      (listed.Contents ?? []).map(({ Key }) => {
        const [, spot, date] = /spot=([^/]+)\/date=([^/]+)\//.exec(String(Key)) ?? [];
        return `${spot} ${date}`;
      }),
    );
  }

  it('registers every archived partition in a fresh database, with no export registering them again', async () => {
    // Prepare: three partitions of two spots archived and registered in the first database.
    const first = new CatalogStandIn();
    for (const [spotId, day] of [
      ['sp_demo', '2026-10-28'],
      ['sp_demo', '2026-10-29'],
      ['sp_other', '2026-10-28'],
    ] as const) {
      await archive(await completedExport(spotId, day), { partitions: first });
    }
    expect(first.partitions).toEqual(await storedPartitions());
    // The database changes (renamed, a new stack's default, or deployed again): it holds none of them.
    const fresh = new CatalogStandIn();
    const repair = new TablePartitionRepair({
      catalog: fresh,
      stored: new S3StoredPartitions({ client: s3.client, bucketName: s3.bucketName }),
    });

    // Act: the next archive, of one spot's new day, registers its own partition; its repair the rest.
    const next = await archive(await completedExport('sp_demo', '2026-10-30'), {
      partitions: fresh,
      partitionRepair: repair,
    });

    // Assess: every partition the bucket holds, the other spot's included.
    const stored = await storedPartitions();
    expect(stored.size).toBe(4);
    expect(fresh.partitions).toEqual(stored);
    expect(next.partitionRepair).toEqual({ spotsChecked: 2, registered: 3 });
    expect(h.metrics).toContain('PartitionsRepaired');
    expect(h.metrics).not.toContain('PartitionRepairsFailed');
  });

  it('registers them with no archive at all, run after run, and sends nothing once all are there', async () => {
    // Prepare: partitions archived with no catalog (their registrations lost).
    for (const day of ['2026-10-28', '2026-10-29']) {
      await archive(await completedExport('sp_demo', day), { partitions: new CatalogStandIn() });
    }
    const fresh = new CatalogStandIn();
    const stored = new S3StoredPartitions({ client: s3.client, bucketName: s3.bucketName });

    // Act: one container, then another (a new container checks again).
    const firstRun = await new TablePartitionRepair({ catalog: fresh, stored }).repair('sp_demo');
    const nextContainer = await new TablePartitionRepair({ catalog: fresh, stored }).repair('sp_demo');

    // Assess
    expect(firstRun).toEqual({ spotsChecked: 1, registered: 2 });
    expect(nextContainer).toEqual({ spotsChecked: 1, registered: 0 });
    expect(fresh.partitions).toEqual(await storedPartitions());
  });

  it('never holds the archive back: a catalog that refuses the repair leaves the export ARCHIVED, the failure counted', async () => {
    // Prepare: the catalog takes the export's registration, then refuses to be read.
    const refusing = new CatalogStandIn();
    refusing.registeredDates = async () => {
      throw new Error('AccessDeniedException');
    };
    const repair = new TablePartitionRepair({
      catalog: refusing,
      stored: new S3StoredPartitions({ client: s3.client, bucketName: s3.bucketName }),
    });

    // Act
    const result = await archive(await completedExport('sp_demo', '2026-10-28'), {
      partitions: refusing,
      partitionRepair: repair,
    });

    // Assess
    expect(result.outcome).toBe('archived');
    expect(result.partitionRepair).toEqual({
      spotsChecked: 1,
      registered: 0,
      failure: 'AccessDeniedException',
    });
    expect(h.metrics).toContain('PartitionRepairsFailed');
    expect(h.metrics).not.toContain('PartitionsRepaired');
  });
});
