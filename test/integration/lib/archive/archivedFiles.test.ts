import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchivedFilesDependencies, archivedFiles } from '../../../../lib/archive/archivedFiles';
import { type ArchivedFile, ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { exportRecordFixture, FIXTURE_SPOT_ID } from '../../../support/exportRecordFixtures';

const DAY_MS = 24 * 60 * 60 * 1000;
const ARCHIVED_AT = '2026-03-10T14:30:00.000Z';
const EXPIRE_AFTER_DAYS = 30;

function file(n: number, exportId: string): ArchivedFile {
  return {
    name: `comments_${n}.csv`,
    key: `exports/spot=${FIXTURE_SPOT_ID}/date=2026-03-10/${exportId}/${n}.csv.gz`,
    bytes: 10,
    sha256: '0'.repeat(64),
    rows: 1,
    sourceLink: 1,
  };
}

/** A completed export archived at ARCHIVED_AT with two files, the second listed only in its manifest. */
function archivedRecord(): ExportRecord {
  const record = exportRecordFixture({ status: ExportStatus.COMPLETED });
  const files = [file(1, record.exportId), file(2, record.exportId)];
  return {
    ...record,
    archive: {
      status: ArchiveStatus.ARCHIVED,
      files: files.slice(0, 1),
      fileCount: files.length,
      manifestKey: `exports/spot=${FIXTURE_SPOT_ID}/date=2026-03-10/${record.exportId}/manifest.json`,
      archivedAt: ARCHIVED_AT,
    },
  };
}

describe('the files of an archive the bucket’s lifecycle rule expires', () => {
  let s3: LocalS3;

  beforeAll(async () => {
    s3 = await startLocalS3();
  });

  afterAll(async () => {
    await s3.close();
  });

  function dependencies(record: ExportRecord, nowMs: number): ArchivedFilesDependencies {
    return {
      store: { getExport: async () => record },
      archiveReader: s3.archiveReader(),
      archiveSettings: { urlExpirySeconds: 900, expireAfterDays: EXPIRE_AFTER_DAYS },
      now: () => nowMs,
    };
  }

  async function storeManifest(record: ExportRecord): Promise<void> {
    const manifest = { files: [file(1, record.exportId), file(2, record.exportId)] };
    await s3.client.send(
      new PutObjectCommand({
        Bucket: s3.bucketName,
        Key: record.archive?.manifestKey,
        Body: JSON.stringify(manifest),
      }),
    );
  }

  it('are listed with download URLs while the rule keeps them', async () => {
    // Prepare
    const record = archivedRecord();
    await storeManifest(record);

    // Act
    const view = await archivedFiles(
      dependencies(record, Date.parse(ARCHIVED_AT) + (EXPIRE_AFTER_DAYS - 2) * DAY_MS),
      record.spotId,
      record.exportId,
    );

    // Assess
    expect(view?.archive.status).toBe(ArchiveStatus.ARCHIVED);
    expect(view?.items).toHaveLength(2);
  });

  it('are EXPIRED, with no URL, once the rule may have deleted them', async () => {
    // Prepare: S3 deletes objects from the midnight (UTC) after they are that many days old.
    const record = archivedRecord();
    await storeManifest(record);

    // Act
    const view = await archivedFiles(
      dependencies(record, Date.parse(ARCHIVED_AT) + EXPIRE_AFTER_DAYS * DAY_MS),
      record.spotId,
      record.exportId,
    );

    // Assess
    expect(view).toEqual({
      archive: {
        status: 'EXPIRED',
        archivedAt: ARCHIVED_AT,
        expiredAt: '2026-04-09T00:00:00.000Z',
        reason: `the bucket's lifecycle rule deletes archived files after ${EXPIRE_AFTER_DAYS} days`,
      },
      items: [],
    });
  });

  it('are EXPIRED, never an error, when the manifest is no longer in the bucket', async () => {
    // Prepare: the record still says ARCHIVED, but the objects are gone (deleted by hand, another bucket).
    const record = archivedRecord();

    // Act
    const view = await archivedFiles(
      dependencies(record, Date.parse(ARCHIVED_AT) + DAY_MS),
      record.spotId,
      record.exportId,
    );

    // Assess
    expect(view).toEqual({
      archive: {
        status: 'EXPIRED',
        archivedAt: ARCHIVED_AT,
        reason: 'the archived files are no longer in the bucket',
      },
      items: [],
    });
  });
});
