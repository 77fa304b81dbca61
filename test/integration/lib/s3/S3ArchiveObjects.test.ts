import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchivedObjectMissingError } from '../../../../lib/archive/errors';
import { S3ArchiveObjects } from '../../../../lib/s3/S3ArchiveObjects';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { captureError } from '../../../support/captureError';

const KEY = 'exports/spot=sp_demo/date=2026-10-30/exp_1/1.csv.gz';

describe("S3ArchiveObjects on the stand-in's versioned bucket", () => {
  let s3: LocalS3;
  let objects: S3ArchiveObjects;

  beforeEach(async () => {
    s3 = await startLocalS3();
    objects = new S3ArchiveObjects({ client: s3.client, bucketName: s3.bucketName });
  });

  afterEach(async () => {
    await s3.close();
  });

  async function put(key: string, body: string): Promise<void> {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucketName, Key: key, Body: body }));
  }

  it('keeps an overwritten object as a noncurrent version, and deletes versions one by one for good', async () => {
    // Prepare
    await put(KEY, 'first');
    await put(KEY, 'second');
    await put(`${KEY}.other`, 'another key with the same prefix');

    // Act
    const versions = await objects.versionsOf(KEY);

    // Assess
    expect(versions.map((version) => version.isLatest)).toEqual([true, false]);
    expect(Buffer.from(await objects.read(KEY)).toString()).toBe('second');
    await objects.deleteVersion(KEY, (versions[1] as { versionId: string }).versionId);
    expect(await objects.versionsOf(KEY)).toEqual([versions[0]]);
    await objects.deleteVersion(KEY, (versions[0] as { versionId: string }).versionId);
    expect(await objects.versionsOf(KEY)).toEqual([]);
    expect(await captureError(objects.read(KEY))).toBeInstanceOf(ArchivedObjectMissingError);
    expect(await objects.versionsOf(`${KEY}.other`)).toHaveLength(1);
  });
});
