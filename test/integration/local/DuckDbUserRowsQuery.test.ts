import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableQueryFailedError } from '../../../lib/lake/errors';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { LOCAL_S3_DATA_FOLDER, localArchiveBucketDirectory } from '../../../lib/settings/localRuntimeLayout';
import { DuckDbUserRowsQuery } from '../../../local/DuckDbUserRowsQuery';
import { startLocalS3 } from '../../../local/localS3';
import { captureError } from '../../support/captureError';
import { archiveLakeExports, exportRows } from '../../support/lakeFixtures';

const LINEAGE = {
  exportId: 'exp-1',
  windowFrom: '2026-10-30T00:00:00.000Z',
  windowUntil: '2026-10-31T00:00:00.000Z',
  exportedAt: '2026-10-31T01:00:00.000Z',
};
const comment = (id: string, userId: string) => ({
  id,
  userId,
  status: 'approved',
  writtenAt: '2026-10-30T10:00:00.000Z',
});

describe('DuckDbUserRowsQuery', () => {
  let dataDir: string;
  let userRows: DuckDbUserRowsQuery;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'user-rows-'));
    userRows = new DuckDbUserRowsQuery({ bucketDirectory: localArchiveBucketDirectory(dataDir) });
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("counts a user's rows of one spot across every Parquet file, and no other spot's", async () => {
    // Prepare: the user in two files of sp_a, and in sp_b.
    await archiveLakeExports(
      dataDir,
      [
        {
          spotId: 'sp_a',
          date: '2026-10-30',
          exportId: 'exp-1',
          files: [
            exportRows([comment('c1', 'u1'), comment('c2', 'u2')], { ...LINEAGE, spotId: 'sp_a' }),
            exportRows([comment('c3', 'u1'), comment('c4', 'u1')], { ...LINEAGE, spotId: 'sp_a' }),
          ],
        },
        {
          spotId: 'sp_b',
          date: '2026-10-30',
          exportId: 'exp-2',
          files: [exportRows([comment('c5', 'u1')], { ...LINEAGE, exportId: 'exp-2', spotId: 'sp_b' })],
        },
      ],
      'archive',
    );

    // Act
    const counts = await Promise.all([
      userRows.count('sp_a', 'u1'),
      userRows.count('sp_a', 'u2'),
      userRows.count('sp_b', 'u1'),
      userRows.count('sp_a', 'nobody'),
    ]);

    // Assess
    expect(counts).toEqual([3, 1, 1, 0]);
  });

  it('binds the user as a value: a user id that reads as SQL matches no row and changes nothing', async () => {
    // Prepare
    await archiveLakeExports(dataDir, [
      {
        spotId: 'sp_a',
        date: '2026-10-30',
        exportId: 'exp-1',
        files: [exportRows([comment('c1', "o'brien"), comment('c2', 'u2')], { ...LINEAGE, spotId: 'sp_a' })],
      },
    ]);

    // Act
    const injected = await userRows.count('sp_a', "x' OR '1'='1");
    const quoted = await userRows.count('sp_a', "o'brien");

    // Assess
    expect(injected).toBe(0);
    expect(quoted).toBe(1);
  });

  it('answers 0 from an archive with no table files yet', async () => {
    // Act / Assess
    expect(await userRows.count('sp_a', 'u1')).toBe(0);
  });

  it('sees a file added after an earlier question (the files are listed at every question)', async () => {
    // Prepare
    const before = await userRows.count('sp_a', 'u1');
    await archiveLakeExports(dataDir, [
      {
        spotId: 'sp_a',
        date: '2026-10-31',
        exportId: 'exp-3',
        files: [exportRows([comment('c9', 'u1')], { ...LINEAGE, exportId: 'exp-3', spotId: 'sp_a' })],
      },
    ]);

    // Act
    const after = await userRows.count('sp_a', 'u1');

    // Assess
    expect([before, after]).toEqual([0, 1]);
  });

  it('names the engine, the query and the values it was given', () => {
    // Act / Assess
    expect(userRows.describe('sp_a', 'u1')).toBe(
      "DuckDB: SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = 'sp_a', user_id = 'u1'",
    );
  });

  it('fails with a named error when a table file cannot be read', async () => {
    // Prepare: an object of the table that is not Parquet.
    const s3 = await startLocalS3({ directory: join(dataDir, LOCAL_S3_DATA_FOLDER) });
    try {
      await new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName }).put(
        'tables/comments/spot=sp_a/date=2026-10-30/broken.parquet',
        Readable.from([Buffer.from('not a parquet file')]),
        { contentType: 'application/vnd.apache.parquet' },
      );
    } finally {
      await s3.close();
    }

    // Act
    const error = await captureError(userRows.count('sp_a', 'u1'));

    // Assess
    expect(error).toBeInstanceOf(TableQueryFailedError);
    expect((error as TableQueryFailedError).message).toMatch(/^DuckDB did not answer the query: /);
  });
});
