import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ArchiveDependencies } from '../../lib/archive/archiveExport';
import { PATH_TABLE_PARTITIONS } from '../../lib/archive/pathTablePartitions';
import type { ArchiveSettings } from '../../lib/archive/ports';
import type { ExportRecord, ExportRequest } from '../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { newExportId } from '../../lib/exports/record/exportId';
import { downloadLinkPolicy } from '../../lib/openweb/downloadLinkPolicy';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbSuppressionList } from '../../lib/store/DynamoDbSuppressionList';
import type { LocalS3 } from '../../local/localS3';
import type { ExportHarness } from './exportHarness';

/** The day the archive's tests export: 24 hours, at most 100 records a file, so 250 records make three files. */
export const ARCHIVED_DAY: ExportRequest = {
  kind: 'dateRange',
  from: '2026-10-30T00:00:00Z',
  until: '2026-10-31T00:00:00Z',
  maxRecordsInFile: 100,
};

/** The archive's settings in tests: links only from `exportBaseUrl`, a 20-minute claim, Parquet on. */
export function testArchiveSettings(
  exportBaseUrl: string,
  overrides: Partial<ArchiveSettings> = {},
): ArchiveSettings {
  return {
    claimLeaseSeconds: 1200,
    downloadTimeoutMs: 10_000,
    downloadPolicy: downloadLinkPolicy(exportBaseUrl, []),
    urlExpirySeconds: 900,
    writeTable: true,
    ...overrides,
  };
}

/**
 * The archive's dependencies on a harness (its table, ledger, events and clock) and the S3
 * stand-in, as `npm start` wires them; `overrides` replaces any of them.
 */
export function archiveDependenciesOn(
  h: ExportHarness,
  s3: LocalS3,
  overrides: Partial<ArchiveDependencies> = {},
): ArchiveDependencies {
  return {
    store: h.store,
    archives: new DynamoDbArchiveRecords({ client: h.table.documentClient, tableName: h.table.tableName }),
    archiveWriter: new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName }),
    suppressions: new DynamoDbSuppressionList({
      client: h.table.documentClient,
      tableName: h.table.tableName,
    }),
    partitions: PATH_TABLE_PARTITIONS,
    archiveEvents: { publishArchived: async () => {} },
    coverage: h.coverage,
    events: h.deps.events,
    metrics: h.deps.metrics,
    settings: h.deps.settings,
    archiveSettings: testArchiveSettings(h.simulator.exportBaseUrl),
    now: h.clock.now,
    ...overrides,
  };
}

/** A COMPLETED export of `spotId` with these links, as its workflow leaves it for the archive step. */
export function completedExportOn(
  h: ExportHarness,
  init: { spotId: string; request: ExportRequest; links: string[]; completedAt?: string },
): Promise<ExportRecord> {
  const now = new Date(h.clock.now()).toISOString();
  return h.store.createExport({
    spotId: init.spotId,
    exportId: newExportId(h.clock.now()),
    status: ExportStatus.COMPLETED,
    request: init.request,
    links: init.links,
    requestedAt: now,
    completedAt: init.completedAt ?? now,
    pollCount: 1,
    source: 'api',
    workflowExecutionName: 'run-1',
  });
}

/** A stream's bytes, all of them. */
export async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every object in the S3 stand-in's bucket, by key. */
export async function bucketObjects(s3: LocalS3): Promise<Map<string, Buffer>> {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucketName }));
  const objects = new Map<string, Buffer>();
  for (const { Key } of listed.Contents ?? []) {
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucketName, Key }));
    objects.set(Key as string, await bytesOf(object.Body as Readable));
  }
  return objects;
}
