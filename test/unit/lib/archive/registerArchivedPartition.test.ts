import {
  AccessDeniedException,
  CreatePartitionCommand,
  GlueClient,
  OperationTimeoutException,
} from '@aws-sdk/client-glue';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { PATH_TABLE_PARTITIONS } from '../../../../lib/archive/pathTablePartitions';
import type { TablePartitions } from '../../../../lib/archive/ports';
import {
  type CatalogDependencies,
  catchUpCatalog,
  registerArchivedPartition,
} from '../../../../lib/archive/registerArchivedPartition';
import type { ExportMetricName } from '../../../../lib/exports/record/ports';
import { GlueTablePartitions } from '../../../../lib/glue/GlueTablePartitions';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

const DATE_RANGE = {
  kind: 'dateRange',
  from: '2024-05-01T22:00:00Z',
  until: '2024-05-03T00:00:00Z',
} as const;

/** Records the partitions asked for; refuses those of `refusedSpots`. */
function recordingPartitions(refusedSpots: string[] = []): TablePartitions & { registered: string[] } {
  const registered: string[] = [];
  return {
    registered,
    register: async (spotId, date) => {
      if (refusedSpots.includes(spotId)) throw new Error(`refused ${spotId}`);
      registered.push(`${spotId} ${date}`);
    },
  };
}

/** The catalog's dependencies with `pending` exports waiting and the metrics counted. */
function catalogDeps(
  partitions: TablePartitions,
  pending: ReturnType<typeof exportRecordFixture>[] = [],
): CatalogDependencies & { counted: [ExportMetricName, number | undefined][]; recorded: string[] } {
  const counted: [ExportMetricName, number | undefined][] = [];
  const recorded: string[] = [];
  return {
    partitions,
    archives: {
      findCatalogPending: async (limit) => pending.slice(0, limit),
      recordCatalogRegistered: async (_spotId, exportId) => {
        recorded.push(exportId);
        return true;
      },
    },
    metrics: { count: (name, value) => counted.push([name, value]) },
    counted,
    recorded,
  };
}

describe('registerArchivedPartition', () => {
  it("registers the export's spot and the day of its window's start, where its files are stored", async () => {
    // Prepare
    const partitions = recordingPartitions();
    const record = exportRecordFixture({
      spotId: 'sp_demo',
      request: DATE_RANGE,
      requestedAt: '2024-06-01T08:00:00.000Z',
    });

    // Act
    const outcome = await registerArchivedPartition(catalogDeps(partitions), record);

    // Assess
    expect(outcome).toEqual({ catalog: 'REGISTERED' });
    expect(partitions.registered).toEqual(['sp_demo 2024-05-01']);
  });

  it('registers the day a conversation export was requested', async () => {
    // Prepare
    const partitions = recordingPartitions();
    const record = exportRecordFixture({
      spotId: 'sp_demo',
      request: { kind: 'conversation', conversationId: 'sp_demo_post1' },
      requestedAt: '2024-06-01T23:30:00.000Z',
    });

    // Act
    await registerArchivedPartition(catalogDeps(partitions), record);

    // Assess
    expect(partitions.registered).toEqual(['sp_demo 2024-06-01']);
  });

  it('has nothing to register where partitions are read from the keys', async () => {
    // Act
    const outcome = await registerArchivedPartition(
      catalogDeps(PATH_TABLE_PARTITIONS),
      exportRecordFixture(),
    );

    // Assess
    expect(outcome).toEqual({ catalog: 'REGISTERED' });
  });

  describe('when Glue fails', () => {
    const client = new GlueClient({ region: 'eu-west-1' });
    const glue = mockClient(client);
    const partitions = new GlueTablePartitions({
      client,
      databaseName: 'openwebexports',
      bucketName: 'archive-1',
    });

    beforeEach(() => {
      glue.reset();
    });

    it.each([
      [
        'a timeout the SDK does not retry',
        new OperationTimeoutException({ message: 'Operation timed out', $metadata: {} }),
        'OperationTimeoutException',
      ],
      [
        'a lasting refusal',
        new AccessDeniedException({ message: 'not authorized to CreatePartition', $metadata: {} }),
        'AccessDeniedException',
      ],
    ])('leaves the catalog PENDING with the reason on %s, and never throws', async (_case, error, name) => {
      // Prepare
      glue.on(CreatePartitionCommand).rejects(error);
      const deps = catalogDeps(partitions);

      // Act
      const outcome = await registerArchivedPartition(
        deps,
        exportRecordFixture({ spotId: 'sp_demo', request: DATE_RANGE }),
      );

      // Assess
      expect(glue).toHaveReceivedCommandTimes(CreatePartitionCommand, 1);
      expect(outcome).toEqual({
        catalog: 'PENDING',
        catalogReason: `Glue did not register partition (sp_demo, 2024-05-01) of openwebexports.comment_rows: ${name}`,
      });
      expect(deps.counted).toEqual([['CatalogRegistrationsDeferred', undefined]]);
    });
  });
});

describe('catchUpCatalog', () => {
  const pending = ['sp_a', 'sp_b', 'sp_c'].map((spotId, index) =>
    exportRecordFixture({ spotId, exportId: `ex_${index}`, request: DATE_RANGE }),
  );

  it('registers the partition of each export left PENDING, oldest first, and records it REGISTERED', async () => {
    // Prepare
    const partitions = recordingPartitions();
    const deps = catalogDeps(partitions, pending);

    // Act
    const caughtUp = await catchUpCatalog(deps, 25);

    // Assess
    expect(caughtUp).toBe(3);
    expect(partitions.registered).toEqual(['sp_a 2024-05-01', 'sp_b 2024-05-01', 'sp_c 2024-05-01']);
    expect(deps.recorded).toEqual(['ex_0', 'ex_1', 'ex_2']);
    expect(deps.counted).toEqual([['CatalogRegistrationsCaughtUp', 3]]);
  });

  it('stops at the first refusal and leaves the rest PENDING for the next run', async () => {
    // Prepare
    const deps = catalogDeps(recordingPartitions(['sp_b']), pending);

    // Act
    const caughtUp = await catchUpCatalog(deps, 25);

    // Assess
    expect(caughtUp).toBe(1);
    expect(deps.recorded).toEqual(['ex_0']);
  });

  it('takes at most a batch per run', async () => {
    // Prepare
    const deps = catalogDeps(recordingPartitions(), pending);

    // Act
    await catchUpCatalog(deps, 2);

    // Assess
    expect(deps.recorded).toEqual(['ex_0', 'ex_1']);
  });
});
