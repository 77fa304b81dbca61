import {
  AccessDeniedException,
  AlreadyExistsException,
  BatchCreatePartitionCommand,
  CreatePartitionCommand,
  EntityNotFoundException,
  GetPartitionsCommand,
  GlueClient,
  InternalServiceException,
  ThrottlingException,
} from '@aws-sdk/client-glue';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { commentRowsPartitionInput, PARQUET_STORAGE } from '../../../../lib/glue/commentRowsStorage';
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

  describe('for the repair', () => {
    it("reads a spot's registered days page by page, asking for the values only", async () => {
      // Prepare
      glue
        .on(GetPartitionsCommand)
        .resolvesOnce({
          Partitions: [{ Values: ['sp_demo', '2024-05-01'] }, { Values: ['sp_demo', '2024-05-02'] }],
          NextToken: 'page-2',
        })
        .resolvesOnce({ Partitions: [{ Values: ['sp_demo', '2024-05-03'] }] });

      // Act
      const dates = await partitions.registeredDates('sp_demo');

      // Assess
      expect(dates).toEqual(['2024-05-01', '2024-05-02', '2024-05-03']);
      expect(glue).toHaveReceivedCommandTimes(GetPartitionsCommand, 2);
      expect(glue).toHaveReceivedNthCommandWith(GetPartitionsCommand, 1, {
        DatabaseName: DATABASE,
        TableName: 'comment_rows',
        Expression: "spot = 'sp_demo'",
        ExcludeColumnSchema: true,
      });
      expect(glue).toHaveReceivedNthCommandWith(GetPartitionsCommand, 2, { NextToken: 'page-2' });
    });

    it("registers missing days in batches of 100, each described as the archive's own registration", async () => {
      // Prepare
      glue.on(BatchCreatePartitionCommand).resolves({});
      const dates = Array.from({ length: 150 }, (_, day) =>
        new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10),
      );

      // Act
      const created = await partitions.registerDates('sp_demo', dates);

      // Assess
      expect(created).toBe(150);
      const batches = glue.commandCalls(BatchCreatePartitionCommand).map((call) => call.args[0].input);
      expect(batches.map((batch) => batch.PartitionInputList?.length)).toEqual([100, 50]);
      expect(batches[0]?.DatabaseName).toBe(DATABASE);
      expect(batches[0]?.PartitionInputList?.[0]).toEqual(
        commentRowsPartitionInput(BUCKET, 'sp_demo', '2024-01-01'),
      );
      expect(batches[1]?.PartitionInputList?.[49]?.Values).toEqual(['sp_demo', '2024-05-29']);
    });

    it('counts only new partitions: one that exists already (a race with an archive) is success', async () => {
      // Prepare
      glue.on(BatchCreatePartitionCommand).resolves({
        Errors: [
          {
            PartitionValues: ['sp_demo', '2024-05-02'],
            ErrorDetail: { ErrorCode: 'AlreadyExistsException', ErrorMessage: 'Partition already exists.' },
          },
        ],
      });

      // Act
      const created = await partitions.registerDates('sp_demo', ['2024-05-01', '2024-05-02']);

      // Assess
      expect(created).toBe(1);
    });

    it('names a partition Glue refused in the batch, and a failed call, as CatalogPartitionError', async () => {
      // Prepare
      glue.on(BatchCreatePartitionCommand).resolves({
        Errors: [
          {
            PartitionValues: ['sp_demo', '2024-05-02'],
            ErrorDetail: { ErrorCode: 'ResourceNumberLimitExceededException', ErrorMessage: 'too many' },
          },
        ],
      });
      glue.on(GetPartitionsCommand).rejects(new AccessDeniedException({ message: 'no', $metadata: {} }));

      // Act
      const refused = await captureError(partitions.registerDates('sp_demo', ['2024-05-01', '2024-05-02']));
      const unread = await captureError(partitions.registeredDates('sp_demo'));

      // Assess
      expect(refused).toBeInstanceOf(CatalogPartitionError);
      expect((refused as Error).message).toBe(
        'Glue did not register partition (sp_demo, 2024-05-02) of openweb_exports.comment_rows: ResourceNumberLimitExceededException',
      );
      expect(unread).toBeInstanceOf(CatalogPartitionError);
      expect((unread as CatalogPartitionError).retryable).toBe(false);
    });
  });
});
