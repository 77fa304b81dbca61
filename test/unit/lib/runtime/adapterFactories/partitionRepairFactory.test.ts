import { BatchCreatePartitionCommand, GetPartitionsCommand, GlueClient } from '@aws-sdk/client-glue';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../../../../lib/config';
import { partitionRepairFactory } from '../../../../../lib/runtime/adapterFactories/partitionRepairFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

describe('partitionRepairFactory', () => {
  const glueClient = new GlueClient({ region: 'eu-west-1' });
  const s3Client = new S3Client({ region: 'eu-west-1' });
  const glue = mockClient(glueClient);
  const s3 = mockClient(s3Client);

  beforeEach(() => {
    glue.reset();
    s3.reset();
    s3.on(ListObjectsV2Command, { Prefix: 'tables/comments/spot=sp_demo/' }).resolves({
      CommonPrefixes: [{ Prefix: 'tables/comments/spot=sp_demo/date=2024-05-01/' }],
    });
    s3.on(ListObjectsV2Command, { Prefix: 'tables/comments/' }).resolves({
      CommonPrefixes: [{ Prefix: 'tables/comments/spot=sp_demo/' }],
    });
    glue.on(GetPartitionsCommand).resolves({ Partitions: [] });
    glue.on(BatchCreatePartitionCommand).resolves({});
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { partitionRepair: partitionRepairFactory },
      { metrics: new InMemoryExportMetrics(), clients: { glue: glueClient, s3: s3Client } },
    );

  it("lists the archive bucket and repairs the stack's Glue database (LAKE_DATABASE_NAME)", async () => {
    // Prepare
    const { partitionRepair } = build({
      ARCHIVE_BUCKET_NAME: 'archive-1',
      LAKE_DATABASE_NAME: 'exports_lake',
    });

    // Act
    const result = await partitionRepair.repair('sp_demo');

    // Assess
    expect(result).toEqual({ spotsChecked: 1, registered: 1 });
    expect(s3).toHaveReceivedCommandWith(ListObjectsV2Command, { Bucket: 'archive-1' });
    expect(glue).toHaveReceivedCommandWith(BatchCreatePartitionCommand, {
      DatabaseName: 'exports_lake',
      PartitionInputList: [
        expect.objectContaining({
          StorageDescriptor: expect.objectContaining({
            Location: 's3://archive-1/tables/comments/spot=sp_demo/date=2024-05-01/',
          }),
        }),
      ],
    });
  });

  it('keeps what it checked for the life of the build (a container), and needs the archive bucket', async () => {
    // Prepare
    const { partitionRepair } = build({ ARCHIVE_BUCKET_NAME: 'archive-1' });
    await partitionRepair.repair('sp_demo');
    glue.resetHistory();

    // Act
    const again = await partitionRepair.repair('sp_demo');
    const missingBucket = await captureError((async () => build({}))());

    // Assess
    expect(again).toEqual({ spotsChecked: 0, registered: 0 });
    expect(glue).toHaveReceivedCommandTimes(GetPartitionsCommand, 0);
    expect((missingBucket as ConfigError).problems).toEqual(['ARCHIVE_BUCKET_NAME is required']);
  });
});
