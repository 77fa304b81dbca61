import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ArchiveUserEraser } from '../../../../../lib/archive/ArchiveUserEraser';
import { type ConfigError, loadConfig } from '../../../../../lib/config';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { archiveUserEraserFactory } from '../../../../../lib/runtime/adapterFactories/archiveUserEraserFactory';
import { s3ArchiveWriterFactory } from '../../../../../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

describe('archiveUserEraserFactory', () => {
  const client = new S3Client({ region: 'eu-west-1' });
  const s3 = mockClient(client);
  const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));

  beforeEach(() => {
    s3.reset();
    s3.on(ListObjectVersionsCommand).resolves({ Versions: [] });
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { archiveWriter: s3ArchiveWriterFactory, eraser: archiveUserEraserFactory },
      { metrics: new InMemoryExportMetrics(), clients: { s3: client, documentClient } },
    );

  it('reads the archive bucket (ARCHIVE_BUCKET_NAME) through the given client', async () => {
    // Prepare
    const { eraser } = build({ ARCHIVE_BUCKET_NAME: 'archive-1', TABLE_NAME: 'exports' });
    const record = {
      spotId: 'sp_a',
      exportId: 'ex_1',
      request: {},
      archive: { status: 'ARCHIVED', files: [], fileCount: 0 },
    } as unknown as ExportRecord;

    // Act
    const check = await eraser.checkExport(record, 'u_1', ['exports/spot=sp_a/1.csv.gz']);

    // Assess
    expect(eraser).toBeInstanceOf(ArchiveUserEraser);
    expect(check.versionsLeft).toBe(0);
    expect(s3).toHaveReceivedCommandWith(ListObjectVersionsCommand, {
      Bucket: 'archive-1',
      Prefix: 'exports/spot=sp_a/1.csv.gz',
    });
  });

  it('needs the archive bucket and the table', async () => {
    // Act
    const noBucket = await captureError((async () => build({ TABLE_NAME: 'exports' }))());
    const noTable = await captureError((async () => build({ ARCHIVE_BUCKET_NAME: 'archive-1' }))());

    // Assess
    expect((noBucket as ConfigError).problems).toEqual(['ARCHIVE_BUCKET_NAME is required']);
    expect((noTable as ConfigError).problems).toEqual(['TABLE_NAME is required']);
  });
});
