import {
  AccessDeniedException,
  AlreadyExistsException,
  CreatePartitionCommand,
  EntityNotFoundException,
  GlueClient,
  InternalServiceException,
  ThrottlingException,
} from '@aws-sdk/client-glue';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { PARQUET_STORAGE } from '../../../../lib/glue/commentRowsStorage';
import { CatalogPartitionError } from '../../../../lib/glue/errors';
import { GlueTablePartitions } from '../../../../lib/glue/GlueTablePartitions';
import { COMMENT_ROW_COLUMNS } from '../../../../lib/lake/commentRowsTable';
import { captureError } from '../../../support/captureError';

const BUCKET = 'archive-bucket-1';
const DATABASE = 'openweb_exports';

describe('GlueTablePartitions', () => {
  const client = new GlueClient({ region: 'eu-west-1' });
  const glue = mockClient(client);
  const partitions = new GlueTablePartitions({ client, databaseName: DATABASE, bucketName: BUCKET });

  beforeEach(() => {
    glue.reset();
  });

  it("creates the spot and day's partition of comment_rows, described exactly as the table (Parquet, same columns)", async () => {
    // Prepare
    glue.on(CreatePartitionCommand).resolves({});

    // Act
    await partitions.register('sp_demo', '2024-05-01');

    // Assess
    expect(glue).toHaveReceivedCommandTimes(CreatePartitionCommand, 1);
    expect(glue).toHaveReceivedCommandWith(CreatePartitionCommand, {
      DatabaseName: DATABASE,
      TableName: 'comment_rows',
      PartitionInput: {
        Values: ['sp_demo', '2024-05-01'],
        StorageDescriptor: {
          Columns: COMMENT_ROW_COLUMNS.map((column) => ({
            Name: column.name,
            Type: column.type,
            Comment: column.description,
          })),
          Location: `s3://${BUCKET}/tables/comments/spot=sp_demo/date=2024-05-01/`,
          InputFormat: PARQUET_STORAGE.inputFormat,
          OutputFormat: PARQUET_STORAGE.outputFormat,
          SerdeInfo: {
            SerializationLibrary: PARQUET_STORAGE.serializationLibrary,
            Parameters: { 'serialization.format': '1' },
          },
        },
      },
    });
  });

  it('treats a partition that exists already as registered (a second export of the same spot and day)', async () => {
    // Prepare
    glue
      .on(CreatePartitionCommand)
      .rejects(new AlreadyExistsException({ message: 'Partition already exists.', $metadata: {} }));

    // Act
    const registering = partitions.register('sp_demo', '2024-05-01');

    // Assess
    await expect(registering).resolves.toBeUndefined();
  });

  it.each([
    [
      'InternalServiceException',
      new InternalServiceException({ message: 'Internal error', $metadata: { httpStatusCode: 500 } }),
    ],
    [
      'ThrottlingException',
      new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 400 } }),
    ],
  ])(
    'names the partition and says %s is passing trouble, worth retrying with the archive',
    async (name, fault) => {
      // Prepare
      glue.on(CreatePartitionCommand).rejects(fault);

      // Act
      const error = await captureError(partitions.register('sp_demo', '2024-05-01'));

      // Assess
      expect(error).toBeInstanceOf(CatalogPartitionError);
      expect((error as CatalogPartitionError).retryable).toBe(true);
      expect((error as Error).message).toBe(
        `Glue did not register partition (sp_demo, 2024-05-01) of openweb_exports.comment_rows: ${name}`,
      );
    },
  );

  it.each([
    [
      'access denied',
      new AccessDeniedException({ message: 'not allowed', $metadata: { httpStatusCode: 400 } }),
    ],
    [
      'a missing table',
      new EntityNotFoundException({ message: 'no table', $metadata: { httpStatusCode: 400 } }),
    ],
  ])('says %s needs a fix, not a retry', async (_label, refusal) => {
    // Prepare
    glue.on(CreatePartitionCommand).rejects(refusal);

    // Act
    const error = await captureError(partitions.register('sp_demo', '2024-05-01'));

    // Assess
    expect(error).toBeInstanceOf(CatalogPartitionError);
    expect((error as CatalogPartitionError).retryable).toBe(false);
    expect((error as CatalogPartitionError).cause).toBe(refusal);
  });
});
