import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordPoll } from '../../../../lib/exports/lifecycle/recordPoll';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  IllegalTransitionError,
  InvalidPaginationTokenError,
  TransitionConflictError,
} from '../../../../lib/exports/record/errors';
import { transitionExport } from '../../../../lib/exports/record/transitionExport';
import { DynamoDbExportStore } from '../../../../lib/store/DynamoDbExportStore';
import { DynamoDbIdempotencyKeys } from '../../../../lib/store/DynamoDbIdempotencyKeys';
import { DynamoDbSpotLocks } from '../../../../lib/store/DynamoDbSpotLocks';
import { exportRecordToItem } from '../../../../lib/store/exportItem';
import { encodePaginationToken } from '../../../../lib/store/paginationToken';
import { exportRecordFixture, FIXTURE_SPOT_ID } from '../../../support/exportRecordFixtures';

const TABLE_NAME = 'exports-unit';
const NOW_MS = Date.UTC(2025, 0, 1);
const NOW_SECONDS = NOW_MS / 1000;
const { QUEUED, REQUESTED, PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED } = ExportStatus;

const documentClient = mockClient(DynamoDBDocumentClient);

function conditionalCheckFailed(item?: Record<string, unknown>): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item === undefined ? {} : { Item: marshall(item, { removeUndefinedValues: true }) }),
  });
}

function adapterOptions() {
  return {
    client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' })),
    tableName: TABLE_NAME,
    now: () => NOW_MS,
  };
}

function newStore(): DynamoDbExportStore {
  return new DynamoDbExportStore(adapterOptions());
}

function newLocks(): DynamoDbSpotLocks {
  return new DynamoDbSpotLocks(adapterOptions());
}

function newKeys(): DynamoDbIdempotencyKeys {
  return new DynamoDbIdempotencyKeys(adapterOptions());
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

beforeEach(() => {
  documentClient.reset();
});

describe('DynamoDbExportStore.createExport', () => {
  it('puts the record at version 1 only if absent, with the index keys of an active record', async () => {
    // Prepare
    const record = exportRecordFixture();
    const { version: _version, ...newRecord } = record;
    documentClient.on(PutCommand).resolves({});

    // Act
    const created = await newStore().createExport(newRecord);

    // Assess
    expect(created).toEqual({ ...newRecord, version: 1 });
    expect(documentClient).toHaveReceivedCommandWith(PutCommand, {
      TableName: TABLE_NAME,
      ConditionExpression: 'attribute_not_exists(#pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      Item: expect.objectContaining({
        pk: `SPOT#${FIXTURE_SPOT_ID}`,
        sk: `EXPORT#${record.exportId}`,
        statusIndexPk: `SPOT#${FIXTURE_SPOT_ID}#STATUS#REQUESTED`,
        statusIndexSk: record.exportId,
        activeIndexPk: 'ACTIVE',
        activeIndexSk: record.requestedAt,
        version: 1,
      }),
    });
  });

  it('translates a failed condition into ExportAlreadyExistsError with the stored record, without a read', async () => {
    // Prepare
    const existing = exportRecordFixture({ status: PROCESSING, version: 3 });
    documentClient.on(PutCommand).rejects(conditionalCheckFailed(exportRecordToItem(existing)));
    const { version: _version, ...newRecord } = existing;

    // Act
    const error = await rejection(newStore().createExport(newRecord));

    // Assess
    expect(error).toBeInstanceOf(ExportAlreadyExistsError);
    expect((error as ExportAlreadyExistsError).existing).toEqual(existing);
    expect(documentClient).not.toHaveReceivedCommand(GetCommand);
  });
});

describe('DynamoDbExportStore.transition', () => {
  it('guards on the legal source statuses when no expected status is given', async () => {
    // Prepare
    const updated = exportRecordFixture({ status: ABORTED, version: 4 });
    documentClient.on(UpdateCommand).resolves({ Attributes: exportRecordToItem(updated) });

    // Act
    const result = await transitionExport(newStore(), FIXTURE_SPOT_ID, updated.exportId, { to: ABORTED });

    // Assess
    expect(result).toEqual(updated);
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: 'attribute_exists(#pk) AND #status IN (:from0, :from1, :from2, :from3)',
      ExpressionAttributeValues: expect.objectContaining({
        ':from0': QUEUED,
        ':from1': REQUESTED,
        ':from2': PROCESSING,
        ':from3': ABORTING,
      }),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('moves a COMPLETED record to the archive-pending partition of the reconciler index, due at once', async () => {
    // Prepare
    const updated = exportRecordFixture({ status: COMPLETED, version: 4 });
    documentClient.on(UpdateCommand).resolves({ Attributes: exportRecordToItem(updated) });

    // Act
    await transitionExport(newStore(), FIXTURE_SPOT_ID, updated.exportId, {
      from: PROCESSING,
      to: COMPLETED,
      changes: { links: ['https://files/a.csv.zip'], completedAt: '2025-01-01T01:00:00.000Z' },
    });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression:
        'SET #status = :to, #version = #version + :one, #statusIndexPk = :statusIndexPk, #links = :links, #completedAt = :completedAt, #activeIndexPk = :archivePending, #activeIndexSk = :archiveDueAt REMOVE #linkCount, #linkPages, #linkSetId',
      ConditionExpression: 'attribute_exists(#pk) AND #status IN (:from0)',
      ExpressionAttributeValues: expect.objectContaining({
        ':statusIndexPk': `SPOT#${FIXTURE_SPOT_ID}#STATUS#COMPLETED`,
        ':links': ['https://files/a.csv.zip'],
        ':archivePending': 'ARCHIVE_PENDING',
        ':archiveDueAt': '2025-01-01T01:00:00.000Z',
      }),
    });
  });

  it('takes a FAILED record out of the reconciler index and moves it to its status partition', async () => {
    // Prepare
    const updated = exportRecordFixture({ status: FAILED, version: 4 });
    documentClient.on(UpdateCommand).resolves({ Attributes: exportRecordToItem(updated) });

    // Act
    await transitionExport(newStore(), FIXTURE_SPOT_ID, updated.exportId, {
      from: PROCESSING,
      to: FAILED,
      changes: { failureReason: 'upstream failed', completedAt: '2025-01-01T01:00:00.000Z' },
    });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression:
        'SET #status = :to, #version = #version + :one, #statusIndexPk = :statusIndexPk, #completedAt = :completedAt, #failureReason = :failureReason REMOVE #activeIndexPk, #activeIndexSk',
      ExpressionAttributeValues: expect.objectContaining({
        ':statusIndexPk': `SPOT#${FIXTURE_SPOT_ID}#STATUS#FAILED`,
      }),
    });
  });

  it('puts a dequeued export in the active partition and its status listing in id order', async () => {
    // Prepare
    const updated = exportRecordFixture({ status: REQUESTED, version: 2 });
    documentClient.on(UpdateCommand).resolves({ Attributes: exportRecordToItem(updated) });

    // Act
    await transitionExport(newStore(), FIXTURE_SPOT_ID, updated.exportId, {
      from: QUEUED,
      to: REQUESTED,
      changes: { dequeuedAt: '2025-01-01T00:10:00.000Z' },
    });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression: expect.stringContaining(
        '#activeIndexPk = :active, #activeIndexSk = :dequeuedAt, #statusIndexSk = :exportId',
      ),
      ExpressionAttributeValues: expect.objectContaining({
        ':active': 'ACTIVE',
        ':dequeuedAt': '2025-01-01T00:10:00.000Z',
        ':exportId': updated.exportId,
        ':statusIndexPk': `SPOT#${FIXTURE_SPOT_ID}#STATUS#REQUESTED`,
      }),
    });
  });

  it('moves an active record in the reconciler index when it records a poll, guarded by version', async () => {
    // Prepare
    const updated = exportRecordFixture({ status: PROCESSING, version: 6 });
    documentClient.on(UpdateCommand).resolves({ Attributes: exportRecordToItem(updated) });

    // Act
    await transitionExport(newStore(), FIXTURE_SPOT_ID, updated.exportId, {
      from: PROCESSING,
      to: PROCESSING,
      expectedVersion: 5,
      changes: { lastPolledAt: '2025-01-01T00:30:00.000Z' },
    });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression:
        'SET #status = :to, #version = #version + :one, #statusIndexPk = :statusIndexPk, #lastPolledAt = :lastPolledAt, #activeIndexSk = :lastPolledAt',
      ConditionExpression: 'attribute_exists(#pk) AND #status IN (:from0) AND #version = :expectedVersion',
      ExpressionAttributeValues: expect.objectContaining({ ':expectedVersion': 5 }),
    });
  });

  it('refuses an expected status that cannot reach the target without calling DynamoDB', async () => {
    // Act
    const error = await rejection(
      transitionExport(newStore(), FIXTURE_SPOT_ID, 'ex_1', { from: [PROCESSING, COMPLETED], to: FAILED }),
    );

    // Assess
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ from: COMPLETED, to: FAILED, current: undefined });
    expect(documentClient).not.toHaveReceivedAnyCommand();
  });

  it('translates a failed condition on a terminal record into IllegalTransitionError with the record', async () => {
    // Prepare
    const current = exportRecordFixture({ status: ABORTED, version: 5 });
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed(exportRecordToItem(current)));

    // Act
    const error = await rejection(
      transitionExport(newStore(), FIXTURE_SPOT_ID, current.exportId, { to: COMPLETED }),
    );

    // Assess
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ from: ABORTED, to: COMPLETED, exportId: current.exportId, current });
    expect(documentClient).not.toHaveReceivedCommand(GetCommand);
  });

  it('translates a failed condition on a legal but unexpected status into TransitionConflictError', async () => {
    // Prepare
    const current = exportRecordFixture({ status: ABORTING, version: 5 });
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed(exportRecordToItem(current)));

    // Act
    const error = await rejection(
      transitionExport(newStore(), FIXTURE_SPOT_ID, current.exportId, { from: PROCESSING, to: COMPLETED }),
    );

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect(error).toMatchObject({ current, to: COMPLETED, expectedFrom: [PROCESSING] });
    expect((error as Error).cause).toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('reads the record when the backend does not return it with the failure', async () => {
    // Prepare
    const current = exportRecordFixture({ status: PROCESSING, version: 9 });
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed());
    documentClient.on(GetCommand).resolves({ Item: exportRecordToItem(current) });

    // Act
    const error = await rejection(
      transitionExport(newStore(), FIXTURE_SPOT_ID, current.exportId, { to: PROCESSING, expectedVersion: 8 }),
    );

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect((error as TransitionConflictError).current).toEqual(current);
    expect(documentClient).toHaveReceivedCommandWith(GetCommand, { ConsistentRead: true });
  });

  it('translates a failed condition on a missing record into ExportNotFoundError', async () => {
    // Prepare
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed());
    documentClient.on(GetCommand).resolves({});

    // Act
    const error = await rejection(
      transitionExport(newStore(), FIXTURE_SPOT_ID, 'ex_missing', { to: PROCESSING }),
    );

    // Assess
    expect(error).toBeInstanceOf(ExportNotFoundError);
    expect(error).toMatchObject({ spotId: FIXTURE_SPOT_ID, exportId: 'ex_missing' });
  });

  it('passes other DynamoDB errors through unchanged', async () => {
    // Prepare
    const throttled = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
    });
    documentClient.on(UpdateCommand).rejects(throttled);

    // Act
    const error = await rejection(transitionExport(newStore(), FIXTURE_SPOT_ID, 'ex_1', { to: PROCESSING }));

    // Assess
    expect(error).toBe(throttled);
  });
});

describe('DynamoDbExportStore.recordPoll', () => {
  it('sends nothing when the poll changed nothing', async () => {
    // Prepare
    const current = exportRecordFixture({
      status: PROCESSING,
      upstreamStatus: 'Processing',
      lastPolledAt: '2025-01-01T00:00:00.000Z',
    });

    // Act
    const result = await recordPoll(newStore(), current, {
      status: PROCESSING,
      upstreamStatus: 'Processing',
      observedAt: '2025-01-01T00:01:00.000Z',
    });

    // Assess
    expect(result).toEqual({ outcome: 'unchanged', record: current });
    expect(documentClient).not.toHaveReceivedAnyCommand();
  });

  it('gives up after a bounded number of lost races', async () => {
    // Prepare
    const current = exportRecordFixture({ status: PROCESSING, version: 1 });
    let version = 1;
    documentClient.on(UpdateCommand).callsFake(() => {
      version += 1;
      throw conditionalCheckFailed(exportRecordToItem({ ...current, version }));
    });

    // Act
    const error = await rejection(
      recordPoll(newStore(), current, { status: COMPLETED, observedAt: '2025-01-01T00:01:00.000Z' }),
    );

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect(documentClient).toHaveReceivedCommandTimes(UpdateCommand, 3);
  });
});

describe('DynamoDbExportStore.listExports', () => {
  it('queries the spot partition newest first, one item beyond the page to detect a next page', async () => {
    // Prepare
    const records = [3, 2, 1].map((version) => exportRecordFixture({ version }));
    documentClient.on(QueryCommand).resolves({ Items: records.map(exportRecordToItem) });

    // Act
    const page = await newStore().listExports(FIXTURE_SPOT_ID, { limit: 2 });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, {
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :exportPrefix)',
      ScanIndexForward: false,
      Limit: 3,
      ExclusiveStartKey: undefined,
    });
    expect(page.items).toEqual(records.slice(0, 2));
    const lastKey = { pk: `SPOT#${FIXTURE_SPOT_ID}`, sk: `EXPORT#${records[1]?.exportId}` };
    expect(page.nextToken).toBe(encodePaginationToken(lastKey));
  });

  it('queries the status index when filtering and resumes from the token', async () => {
    // Prepare
    const startKey = {
      pk: `SPOT#${FIXTURE_SPOT_ID}`,
      sk: 'EXPORT#ex_1',
      statusIndexPk: `SPOT#${FIXTURE_SPOT_ID}#STATUS#FAILED`,
      statusIndexSk: 'ex_1',
    };
    documentClient.on(QueryCommand).resolves({ Items: [] });

    // Act
    const page = await newStore().listExports(FIXTURE_SPOT_ID, {
      limit: 10,
      status: FAILED,
      nextToken: encodePaginationToken(startKey),
    });

    // Assess
    expect(page).toEqual({ items: [] });
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, {
      IndexName: 'byStatus',
      ExpressionAttributeValues: { ':statusIndexPk': `SPOT#${FIXTURE_SPOT_ID}#STATUS#FAILED` },
      ExclusiveStartKey: startKey,
    });
  });

  it('rejects a malformed token before querying', async () => {
    // Act
    const error = await rejection(newStore().listExports(FIXTURE_SPOT_ID, { limit: 10, nextToken: '%%%' }));

    // Assess
    expect(error).toBeInstanceOf(InvalidPaginationTokenError);
    expect(documentClient).not.toHaveReceivedAnyCommand();
  });

  it('clamps the page size to the allowed range', async () => {
    // Prepare
    documentClient.on(QueryCommand).resolves({ Items: [] });

    // Act
    await newStore().listExports(FIXTURE_SPOT_ID, { limit: 10_000 });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, { Limit: 101 });
  });
});

describe('DynamoDbExportStore.findActiveNotPolledSince', () => {
  it('queries the sparse active index, oldest first', async () => {
    // Prepare
    documentClient.on(QueryCommand).resolves({ Items: [exportRecordToItem(exportRecordFixture())] });

    // Act
    const found = await newStore().findActiveNotPolledSince('2025-01-01T00:00:00.000Z', 25);

    // Assess
    expect(found).toHaveLength(1);
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, {
      IndexName: 'activeByLastPolled',
      KeyConditionExpression: '#indexPk = :partition AND #indexSk < :before',
      ExpressionAttributeValues: { ':partition': 'ACTIVE', ':before': '2025-01-01T00:00:00.000Z' },
      ScanIndexForward: true,
      Limit: 25,
    });
  });
});

describe('DynamoDbSpotLocks', () => {
  it('takes the lock if free, lapsed or already held by the same export', async () => {
    // Prepare
    documentClient.on(PutCommand).resolves({});

    // Act
    const lock = await newLocks().acquire(FIXTURE_SPOT_ID, 'ex_a', { leaseSeconds: 120 });

    // Assess
    expect(lock.expiresAtEpochSeconds).toBe(NOW_SECONDS + 120);
    expect(documentClient).toHaveReceivedCommandWith(PutCommand, {
      Item: expect.objectContaining({ pk: `SPOT#${FIXTURE_SPOT_ID}`, sk: 'LOCK', exportId: 'ex_a' }),
      ConditionExpression: 'attribute_not_exists(#pk) OR #exportId = :exportId OR #expiresAt <= :nowSeconds',
      ExpressionAttributeValues: { ':exportId': 'ex_a', ':nowSeconds': NOW_SECONDS },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('raises SpotBusyError naming the live holder from the failed condition', async () => {
    // Prepare
    documentClient.on(PutCommand).rejects(
      conditionalCheckFailed({
        pk: `SPOT#${FIXTURE_SPOT_ID}`,
        sk: 'LOCK',
        spotId: FIXTURE_SPOT_ID,
        exportId: 'ex_holder',
        acquiredAt: '2025-01-01T00:00:00.000Z',
        expiresAtEpochSeconds: NOW_SECONDS + 10,
      }),
    );

    // Act
    const error = await rejection(newLocks().acquire(FIXTURE_SPOT_ID, 'ex_a'));

    // Assess
    expect(error).toBeInstanceOf(SpotBusyError);
    expect(error).toMatchObject({ spotId: FIXTURE_SPOT_ID, activeExportId: 'ex_holder' });
  });

  it('tries again when the holder it saw has meanwhile lapsed', async () => {
    // Prepare
    const lapsed = {
      spotId: FIXTURE_SPOT_ID,
      exportId: 'ex_old',
      acquiredAt: '2024-12-31T00:00:00.000Z',
      expiresAtEpochSeconds: NOW_SECONDS,
    };
    documentClient.on(PutCommand).rejectsOnce(conditionalCheckFailed(lapsed)).resolves({});

    // Act
    const lock = await newLocks().acquire(FIXTURE_SPOT_ID, 'ex_a');

    // Assess
    expect(lock.exportId).toBe('ex_a');
    expect(documentClient).toHaveReceivedCommandTimes(PutCommand, 2);
  });

  it('releases only when the export holds the lock, and reports a no-op as false', async () => {
    // Prepare
    documentClient.on(DeleteCommand).rejects(conditionalCheckFailed());

    // Act
    const released = await newLocks().release(FIXTURE_SPOT_ID, 'ex_a');

    // Assess
    expect(released).toBe(false);
    expect(documentClient).toHaveReceivedCommandWith(DeleteCommand, {
      Key: { pk: `SPOT#${FIXTURE_SPOT_ID}`, sk: 'LOCK' },
      ConditionExpression: '#exportId = :exportId',
      ExpressionAttributeValues: { ':exportId': 'ex_a' },
    });
  });
});

describe('DynamoDbIdempotencyKeys', () => {
  const stored = {
    pk: `SPOT#${FIXTURE_SPOT_ID}`,
    sk: 'IDEMPOTENCY#key-1',
    spotId: FIXTURE_SPOT_ID,
    idempotencyKey: 'key-1',
    exportId: 'ex_first',
    requestFingerprint: 'fp-1',
    createdAt: '2024-12-31T23:00:00.000Z',
    expiresAtEpochSeconds: NOW_SECONDS + 60,
  };

  it('puts a key only if absent or expired', async () => {
    // Prepare
    documentClient.on(PutCommand).resolves({});

    // Act
    await newKeys().put(FIXTURE_SPOT_ID, 'key-1', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: NOW_SECONDS + 3600,
    });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(PutCommand, {
      Item: expect.objectContaining({ sk: 'IDEMPOTENCY#key-1', expiresAtEpochSeconds: NOW_SECONDS + 3600 }),
      ConditionExpression: 'attribute_not_exists(#pk) OR #expiresAt <= :nowSeconds',
      ExpressionAttributeValues: { ':nowSeconds': NOW_SECONDS },
    });
  });

  it.each([
    ['the same request', 'fp-1', IdempotencyConflictError],
    ['a different request', 'fp-2', IdempotencyKeyReusedError],
  ])(
    'answers %s under a taken key with its error and the existing record',
    async (_case, fingerprint, expected) => {
      // Prepare
      documentClient.on(PutCommand).rejects(conditionalCheckFailed(stored));

      // Act
      const error = await rejection(
        newKeys().put(FIXTURE_SPOT_ID, 'key-1', {
          exportId: 'ex_a',
          requestFingerprint: fingerprint,
          expiresAtEpochSeconds: NOW_SECONDS + 3600,
        }),
      );

      // Assess
      expect(error).toBeInstanceOf(expected);
      expect((error as IdempotencyConflictError).existing).toEqual({
        spotId: FIXTURE_SPOT_ID,
        key: 'key-1',
        exportId: 'ex_first',
        requestFingerprint: 'fp-1',
        createdAt: '2024-12-31T23:00:00.000Z',
        expiresAtEpochSeconds: NOW_SECONDS + 60,
      });
    },
  );

  it('reads an expired record as absent', async () => {
    // Prepare
    documentClient.on(GetCommand).resolves({ Item: { ...stored, expiresAtEpochSeconds: NOW_SECONDS } });

    // Act
    const record = await newKeys().get(FIXTURE_SPOT_ID, 'key-1');

    // Assess
    expect(record).toBeUndefined();
  });
});
