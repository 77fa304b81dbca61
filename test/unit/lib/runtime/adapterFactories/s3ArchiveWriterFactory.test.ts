import { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../../../../lib/config';
import { s3ArchiveWriterFactory } from '../../../../../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

describe('s3ArchiveWriterFactory', () => {
  const client = new S3Client({ region: 'eu-west-1' });
  const s3 = mockClient(client);

  beforeEach(() => {
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { archiveWriter: s3ArchiveWriterFactory },
      { metrics: new InMemoryExportMetrics(), clients: { s3: client } },
    );

  it('writes into the archive bucket (ARCHIVE_BUCKET_NAME) through the given client', async () => {
    // Prepare
    const { archiveWriter } = build({ ARCHIVE_BUCKET_NAME: 'archive-1' });

    // Act
    await archiveWriter.put('raw/sp_abc/ex_1.csv.gz', Readable.from([Buffer.from('a,b\n')]), {
      contentType: 'application/gzip',
    });

    // Assess
    expect(s3).toHaveReceivedCommandWith(PutObjectCommand, {
      Bucket: 'archive-1',
      Key: 'raw/sp_abc/ex_1.csv.gz',
    });
  });

  it('needs the archive bucket', async () => {
    // Act
    const error = await captureError((async () => build({}))());

    // Assess
    expect((error as ConfigError).problems).toEqual(['ARCHIVE_BUCKET_NAME is required']);
  });
});
