import { CreatePartitionCommand, GlueClient } from '@aws-sdk/client-glue';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { PATH_TABLE_PARTITIONS } from '../../../../../lib/archive/pathTablePartitions';
import { ConfigError, loadConfig } from '../../../../../lib/config';
import { glueTablePartitions } from '../../../../../lib/runtime/ports/glueTablePartitions';
import { captureError } from '../../../../support/captureError';

describe('glueTablePartitions', () => {
  const client = new GlueClient({ region: 'eu-west-1' });
  const glue = mockClient(client);

  beforeEach(() => {
    glue.reset();
    glue.on(CreatePartitionCommand).resolves({});
  });

  it("registers in the stack's Glue database (LAKE_DATABASE_NAME), at the archive bucket's location", async () => {
    // Prepare
    const config = loadConfig({ ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'exports_lake' });

    // Act
    await glueTablePartitions(config, client).register('sp_demo', '2024-05-01');

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

  it('registers nothing without a catalog (the local runtime: DuckDB reads partitions from the keys)', () => {
    // Prepare
    const config = loadConfig({ ARCHIVE_BUCKET_NAME: 'archive-1' });

    // Act
    const partitions = glueTablePartitions(config, client);

    // Assess
    expect(partitions).toBe(PATH_TABLE_PARTITIONS);
  });

  it('refuses a database name Athena cannot read', async () => {
    // Act
    const error = await captureError(
      (async () => loadConfig({ ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'Exports-Lake' }))(),
    );

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'LAKE_DATABASE_NAME must be a Glue database name Athena reads (a-z, 0-9 and _)',
    ]);
  });
});
