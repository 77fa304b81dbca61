import { CreatePartitionCommand, GlueClient } from '@aws-sdk/client-glue';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../../lib/config';
import { glueTablePartitionsFactory } from '../../../../../lib/runtime/adapterFactories/glueTablePartitionsFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

describe('glueTablePartitionsFactory', () => {
  const client = new GlueClient({ region: 'eu-west-1' });
  const glue = mockClient(client);

  beforeEach(() => {
    glue.reset();
    glue.on(CreatePartitionCommand).resolves({});
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { partitions: glueTablePartitionsFactory },
      { metrics: new InMemoryExportMetrics(), clients: { glue: client } },
    );

  it("registers in the stack's Glue database (LAKE_DATABASE_NAME), at the archive bucket's location", async () => {
    // Prepare
    const { partitions } = build({ ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'exports_lake' });

    // Act
    await partitions.register('sp_demo', '2024-05-01');

    // Assess
    expect(glue).toHaveReceivedCommandWith(CreatePartitionCommand, {
      DatabaseName: 'exports_lake',
      TableName: 'comment_rows',
      PartitionInput: expect.objectContaining({
        StorageDescriptor: expect.objectContaining({
          Location: 's3://archive-1/tables/comments/spot=sp_demo/date=2024-05-01/',
        }),
      }),
    });
  });

  it('uses the default database when none is configured, and needs the archive bucket', async () => {
    // Act
    const { partitions } = build({ ARCHIVE_BUCKET_NAME: 'archive-1' });
    await partitions.register('sp_demo', '2024-05-01');
    const missingBucket = await captureError((async () => build({}))());

    // Assess
    expect(glue).toHaveReceivedCommandWith(CreatePartitionCommand, { DatabaseName: 'openweb_exports' });
    expect((missingBucket as ConfigError).problems).toEqual(['ARCHIVE_BUCKET_NAME is required']);
  });

  it('refuses a database name Athena cannot read', async () => {
    // Act
    const error = await captureError(
      (async () => loadConfig({ ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'Exports-Lake' }))(),
    );

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'LAKE_DATABASE_NAME must be 1-255 of a-z, 0-9 and _ (the names Athena reads)',
    ]);
  });
});
