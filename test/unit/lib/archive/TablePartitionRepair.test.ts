import {
  BatchCreatePartitionCommand,
  type BatchCreatePartitionCommandInput,
  GetPartitionsCommand,
  type GetPartitionsCommandInput,
  GlueClient,
  InternalServiceException,
} from '@aws-sdk/client-glue';
import { ListObjectsV2Command, type ListObjectsV2CommandInput, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TablePartitionRepair } from '../../../../lib/archive/TablePartitionRepair';
import { commentRowsPartitionInput } from '../../../../lib/glue/commentRowsStorage';
import { GlueTablePartitions } from '../../../../lib/glue/GlueTablePartitions';
import { S3StoredPartitions } from '../../../../lib/s3/S3StoredPartitions';

const BUCKET = 'openweb-exports-archive-1a2b3c';
const DATABASE = 'openwebexports_staging';

/** `count` consecutive days from `first` (YYYY-MM-DD). */
function days(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, day) =>
    new Date(start + day * 86_400_000).toISOString().slice(0, 10),
  );
}

describe('TablePartitionRepair', () => {
  const glueClient = new GlueClient({ region: 'eu-west-1' });
  const s3Client = new S3Client({ region: 'eu-west-1' });
  const glue = mockClient(glueClient);
  const s3 = mockClient(s3Client);
  /** The bucket's partitions (`<spot> <date>`), and the catalog's, as the mocks answer them. */
  let stored: Set<string>;
  let registered: Set<string>;

  /** A repair over the real adapters, their clients mocked: a new one is a new container. */
  const newRepair = (limits: { spotsPerRun?: number; partitionsPerRun?: number } = {}) =>
    new TablePartitionRepair({
      catalog: new GlueTablePartitions({ client: glueClient, databaseName: DATABASE, bucketName: BUCKET }),
      stored: new S3StoredPartitions({ client: s3Client, bucketName: BUCKET }),
      ...limits,
    });

  const store = (spotId: string, dates: string[]) => {
    for (const date of dates) stored.add(`${spotId} ${date}`);
  };
  const register = (spotId: string, dates: string[]) => {
    for (const date of dates) registered.add(`${spotId} ${date}`);
  };

  beforeEach(() => {
    glue.reset();
    s3.reset();
    stored = new Set();
    registered = new Set();
    // S3: the prefixes directly under the asked one, as ListObjectsV2 with a `/` delimiter answers.
    s3.on(ListObjectsV2Command).callsFake((input: ListObjectsV2CommandInput) => {
      const prefix = String(input.Prefix);
      const spot = /^tables\/comments\/spot=([^/]+)\/$/.exec(prefix)?.[1];
      const names = [...stored]
        .map((partition) => partition.split(' ') as [string, string])
        .filter(([spotId]) => spot === undefined || spotId === spot)
        .map(([spotId, date]) => (spot === undefined ? `spot=${spotId}` : `date=${date}`));
      return { CommonPrefixes: [...new Set(names)].map((name) => ({ Prefix: `${prefix}${name}/` })) };
    });
    // Glue: the catalog's partitions of the spot the expression names; a batch adds to them.
    glue.on(GetPartitionsCommand).callsFake((input: GetPartitionsCommandInput) => {
      const spot = /^spot = '(.+)'$/.exec(String(input.Expression))?.[1];
      return {
        Partitions: [...registered]
          .map((partition) => partition.split(' '))
          .filter(([spotId]) => spotId === spot)
          .map((values) => ({ Values: values })),
      };
    });
    glue.on(BatchCreatePartitionCommand).callsFake((input: BatchCreatePartitionCommandInput) => {
      const errors = [];
      for (const partition of input.PartitionInputList ?? []) {
        const key = (partition.Values ?? []).join(' ');
        if (registered.has(key))
          errors.push({
            PartitionValues: partition.Values,
            ErrorDetail: { ErrorCode: 'AlreadyExistsException' },
          });
        registered.add(key);
      }
      return { Errors: errors };
    });
  });

  it('registers every day the bucket holds and the catalog lacks, the archived spot first', async () => {
    // Prepare: a database of a new name holds the newest day only.
    store('sp_demo', days('2026-11-20', 5));
    register('sp_demo', ['2026-11-24']);

    // Act
    const result = await newRepair().repair('sp_demo');

    // Assess
    expect(result).toEqual({ spotsChecked: 1, registered: 4 });
    expect(registered).toEqual(stored);
    expect(glue).toHaveReceivedCommandTimes(BatchCreatePartitionCommand, 1);
    expect(glue).toHaveReceivedCommandWith(BatchCreatePartitionCommand, {
      DatabaseName: DATABASE,
      TableName: 'comment_rows',
      PartitionInputList: days('2026-11-20', 4).map((date) =>
        commentRowsPartitionInput(BUCKET, 'sp_demo', date),
      ),
    });
  });

  it('sweeps the other spots of the bucket a few per run, and checks each spot once per container', async () => {
    // Prepare: spots nobody exports any more, whose partitions only the bucket knows.
    for (const spotId of ['sp_a', 'sp_b', 'sp_c', 'sp_d']) store(spotId, days('2026-01-01', 3));
    store('sp_demo', ['2026-11-24']);
    register('sp_demo', ['2026-11-24']);
    const repair = newRepair({ spotsPerRun: 3 });

    // Act
    const first = await repair.repair('sp_demo');
    const second = await repair.repair('sp_demo');
    const third = await repair.repair('sp_demo');

    // Assess: sp_demo then two others; the last two; then nothing left to check, and nothing sent.
    expect(first).toEqual({ spotsChecked: 3, registered: 6 });
    expect(second).toEqual({ spotsChecked: 2, registered: 6 });
    expect(third).toEqual({ spotsChecked: 0, registered: 0 });
    expect(registered).toEqual(stored);
    // The bucket's spots are listed once per container.
    const spotListings = s3
      .commandCalls(ListObjectsV2Command)
      .filter((call) => call.args[0].input.Prefix === 'tables/comments/');
    expect(spotListings).toHaveLength(1);
    expect(glue).toHaveReceivedCommandTimes(GetPartitionsCommand, 5);
  });

  it('registers at most its bound per run and takes the rest up at the next run', async () => {
    // Prepare
    store('sp_demo', days('2025-01-01', 250));

    // Act
    const repair = newRepair();
    const first = await repair.repair('sp_demo');
    const second = await repair.repair('sp_demo');

    // Assess: 200 (two batches), then the last 50.
    expect(first).toEqual({ spotsChecked: 1, registered: 200 });
    expect(second).toEqual({ spotsChecked: 1, registered: 50 });
    expect(registered).toEqual(stored);
    expect(glue).toHaveReceivedCommandTimes(BatchCreatePartitionCommand, 3);
  });

  it('is idempotent: partitions that exist already are not counted, and a second container sends none', async () => {
    // Prepare
    store('sp_demo', days('2026-11-01', 3));
    await newRepair().repair('sp_demo');
    glue.resetHistory();

    // Act
    const again = await newRepair().repair('sp_demo');

    // Assess
    expect(again).toEqual({ spotsChecked: 1, registered: 0 });
    expect(glue).toHaveReceivedCommandTimes(BatchCreatePartitionCommand, 0);
  });

  it('never throws: a Glue failure is answered, and the spot is checked again at the next run', async () => {
    // Prepare
    store('sp_demo', days('2026-11-01', 2));
    glue
      .on(BatchCreatePartitionCommand)
      .rejectsOnce(new InternalServiceException({ message: 'Internal error', $metadata: {} }));
    const repair = newRepair();

    // Act
    const failed = await repair.repair('sp_demo');
    glue.on(BatchCreatePartitionCommand).resolves({});
    const retried = await repair.repair('sp_demo');

    // Assess
    expect(failed).toEqual({
      spotsChecked: 1,
      registered: 0,
      failure: expect.stringContaining('Glue did not register partition (sp_demo, 2026-11-01, 2026-11-02)'),
    });
    expect(retried).toEqual({ spotsChecked: 1, registered: 2 });
  });
});
