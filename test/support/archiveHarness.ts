import type { ArchiveDependencies } from '../../lib/archive/archiveExport';
import { PATH_TABLE_PARTITIONS } from '../../lib/archive/pathTablePartitions';
import type { ArchiveSettings } from '../../lib/archive/ports';
import { downloadLinkPolicy } from '../../lib/openweb/downloadLinkPolicy';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../lib/store/DynamoDbArchiveRecords';
import type { LocalS3 } from '../../local/localS3';
import type { ExportHarness } from './exportHarness';

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
