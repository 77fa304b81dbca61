import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3ArchiveWriter } from '../../../../lib/s3/S3ArchiveWriter';

const MIB = 1024 * 1024;

describe('S3ArchiveWriter', () => {
  const client = new S3Client({ region: 'eu-west-1' });
  const s3 = mockClient(client);

  beforeEach(() => {
    s3.reset();
  });

  it('stores a small file in one request, as a download named after the key and without a content encoding', async () => {
    // Prepare
    s3.on(PutObjectCommand).resolves({});
    const writer = new S3ArchiveWriter({ client, bucketName: 'archive-1' });

    // Act
    await writer.put('raw/sp_abc/ex_1.csv.gz', Readable.from([Buffer.from('gz bytes')]), {
      contentType: 'application/gzip',
    });

    // Assess
    const [call] = s3.commandCalls(PutObjectCommand);
    expect(call?.args[0].input).toMatchObject({
      Bucket: 'archive-1',
      Key: 'raw/sp_abc/ex_1.csv.gz',
      ContentType: 'application/gzip',
      ContentDisposition: 'attachment; filename="ex_1.csv.gz"',
    });
    expect(call?.args[0].input.ContentEncoding).toBeUndefined();
  });

  it('streams a large file in parts of the configured size', async () => {
    // Prepare
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u1' });
    s3.on(UploadPartCommand).resolves({ ETag: '"e"' });
    s3.on(CompleteMultipartUploadCommand).resolves({});
    const writer = new S3ArchiveWriter({
      client,
      bucketName: 'archive-1',
      partSizeBytes: 5 * MIB,
      queueSize: 1,
    });

    // Act
    await writer.put('raw/big.csv.gz', Readable.from([Buffer.alloc(11 * MIB, 1)]), {
      contentType: 'application/gzip',
    });

    // Assess
    expect(s3).toHaveReceivedCommandTimes(UploadPartCommand, 3);
    expect(s3).toHaveReceivedCommandWith(CompleteMultipartUploadCommand, {
      Bucket: 'archive-1',
      UploadId: 'u1',
    });
  });

  it('aborts a failed multipart upload, so no parts are left behind, and passes the failure on', async () => {
    // Prepare
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u2' });
    s3.on(UploadPartCommand).rejects(new Error('connection reset'));
    s3.on(AbortMultipartUploadCommand).resolves({});
    const writer = new S3ArchiveWriter({
      client,
      bucketName: 'archive-1',
      partSizeBytes: 5 * MIB,
      queueSize: 1,
    });

    // Act
    const put = writer.put('raw/big.csv.gz', Readable.from([Buffer.alloc(11 * MIB, 1)]), {
      contentType: 'application/gzip',
    });

    // Assess
    await expect(put).rejects.toThrow('connection reset');
    expect(s3).toHaveReceivedCommandWith(AbortMultipartUploadCommand, { UploadId: 'u2' });
  });
});
