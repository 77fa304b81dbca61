import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findLakeFilesInBucket, findLocalLakeFiles } from '../../../../lib/lake/localLakeFiles';
import {
  localArchiveBucketDirectory,
  S3RVER_METADATA_SUFFIX,
  S3RVER_OBJECT_SUFFIX,
} from '../../../../lib/settings/localRuntimeLayout';

describe('localLakeFiles', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lake-files-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** An object of the stand-in: its bytes, and its metadata once `complete`. */
  async function object(folder: string, name: string, complete = true): Promise<string> {
    await mkdir(folder, { recursive: true });
    const file = join(folder, `${name}${S3RVER_OBJECT_SUFFIX}`);
    await writeFile(file, 'PAR1');
    if (complete) await writeFile(join(folder, `${name}${S3RVER_METADATA_SUFFIX}`), '{}');
    return file;
  }

  it("lists every complete object of the table's partitions, in key order, and no hidden or partial one", async () => {
    // Prepare
    const table = join(localArchiveBucketDirectory(dataDir), 'tables', 'comments');
    const b = await object(join(table, 'spot=sp_b', 'date=2026-10-30'), 'exp-2-1.parquet');
    const a2 = await object(join(table, 'spot=sp_a', 'date=2026-10-31'), 'exp-1-1.parquet');
    const a1 = await object(join(table, 'spot=sp_a', 'date=2026-10-30'), 'exp-1-1.parquet');
    await object(join(table, 'spot=sp_a', 'date=2026-10-30'), '_SUCCESS');
    await object(join(table, 'spot=sp_a', 'date=2026-10-30'), 'exp-3-1.parquet', false);
    await object(join(table, 'not-a-partition'), 'stray.parquet');

    // Act
    const found = await findLocalLakeFiles(dataDir);

    // Assess
    expect(found).toEqual({ directory: table, files: [a1, a2, b] });
  });

  it('finds the same in a bucket folder given directly, and nothing where there is no table yet', async () => {
    // Prepare
    const bucket = join(dataDir, 'elsewhere', 'bucket');
    const file = await object(
      join(bucket, 'tables', 'comments', 'spot=sp_a', 'date=2026-10-30'),
      'x.parquet',
    );

    // Act
    const found = await findLakeFilesInBucket(bucket);
    const none = await findLocalLakeFiles(dataDir);

    // Assess
    expect(found.files).toEqual([file]);
    expect(none.files).toEqual([]);
  });
});
