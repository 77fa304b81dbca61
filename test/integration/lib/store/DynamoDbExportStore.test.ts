import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPoll } from '../../../../lib/exports/lifecycle/recordPoll';
import { ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import { type ExportRecord, QueuePriority } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import type { TransitionRequest } from '../../../../lib/exports/record/ExportStore';
import {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  IllegalTransitionError,
  InvalidPaginationTokenError,
  TransitionConflictError,
} from '../../../../lib/exports/record/errors';
import { newExportId } from '../../../../lib/exports/record/exportId';
import { transitionExport } from '../../../../lib/exports/record/transitionExport';
import { DynamoDbArchiveRecords } from '../../../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbExportStore } from '../../../../lib/store/DynamoDbExportStore';
import { encodePaginationToken } from '../../../../lib/store/paginationToken';
import { exportKey } from '../../../../lib/store/tableKeys';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';
import { dynamoDbItemBytes } from '../../../support/dynamoDbItemBytes';
import { newExportRecordFixture } from '../../../support/exportRecordFixtures';

const { QUEUED, REQUESTED, PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED } = ExportStatus;

let table: DynaliteTable;
let store: DynamoDbExportStore;
let spotCounter = 0;

beforeAll(async () => {
  table = await startDynaliteTable();
  store = new DynamoDbExportStore({ client: table.documentClient, tableName: table.tableName });
});

afterAll(async () => {
  await table?.close();
});

// Transitions as the use cases make them: the domain decides legality, the store writes.
function transition(spotId: string, exportId: string, request: TransitionRequest): Promise<ExportRecord> {
  return transitionExport(store, spotId, exportId, request);
}

// Every test works in its own spot, so tests cannot see each other's records.
function freshSpot(): string {
  spotCounter += 1;
  return `sp_exports_${spotCounter}`;
}

async function createProcessing(
  spotId: string,
  overrides: Partial<ExportRecord> = {},
): Promise<ExportRecord> {
  const created = await store.createExport(newExportRecordFixture({ spotId, ...overrides }));
  return transition(spotId, created.exportId, {
    from: REQUESTED,
    to: PROCESSING,
    changes: { upstreamExportId: `up_${created.exportId}`, startedAt: '2025-01-01T00:00:05.000Z' },
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('DynamoDbExportStore (dynalite): create and get', () => {
  it('creates a record at version 1 and reads it back unchanged', async () => {
    // Prepare
    const spotId = freshSpot();
    const record = newExportRecordFixture({
      spotId,
      request: { kind: 'conversation', conversationId: `${spotId}_post1`, delimiter: ';' },
      idempotencyKey: 'key-1',
    });

    // Act
    const created = await store.createExport(record);
    const read = await store.getExport(spotId, record.exportId);

    // Assess
    expect(created).toEqual({ ...record, version: 1 });
    expect(read).toEqual(created);
  });

  it('refuses to create the same export twice and returns the existing record', async () => {
    // Prepare
    const spotId = freshSpot();
    const record = newExportRecordFixture({ spotId });
    const first = await store.createExport(record);

    // Act
    const error = await rejection(store.createExport({ ...record, source: 'schedule' }));

    // Assess
    expect(error).toBeInstanceOf(ExportAlreadyExistsError);
    expect((error as ExportAlreadyExistsError).existing).toEqual(first);
  });

  it('lists each spot that has had an export once, in id order, whichever instance wrote it', async () => {
    // Prepare: two exports of one spot, one of another, the last through a second instance
    const [later, earlier] = [`zz_${freshSpot()}`, `zy_${freshSpot()}`];
    await store.createExport(newExportRecordFixture({ spotId: later }));
    await store.createExport(newExportRecordFixture({ spotId: later }));
    const other = new DynamoDbExportStore({ client: table.documentClient, tableName: table.tableName });
    await other.createExport(newExportRecordFixture({ spotId: earlier }));

    // Act
    const spots = await store.listSpots(1000);

    // Assess: every spot in order, once; the two just created at the end (their ids sort last)
    expect(spots).toEqual([...spots].sort());
    expect(new Set(spots).size).toBe(spots.length);
    expect(spots.slice(-2)).toEqual([earlier, later]);
  });

  it('returns undefined for an unknown export', async () => {
    // Act
    const read = await store.getExport(freshSpot(), newExportId());

    // Assess
    expect(read).toBeUndefined();
  });
});

describe('DynamoDbExportStore (dynalite): transitions', () => {
  it('applies a legal transition with its changes and increments the version', async () => {
    // Prepare
    const spotId = freshSpot();
    const created = await store.createExport(newExportRecordFixture({ spotId }));

    // Act
    const processing = await transition(spotId, created.exportId, {
      from: REQUESTED,
      to: PROCESSING,
      changes: { upstreamExportId: 'up_1', workflowExecutionName: `poll-${created.exportId}` },
    });

    // Assess
    expect(processing).toEqual({
      ...created,
      status: PROCESSING,
      upstreamExportId: 'up_1',
      workflowExecutionName: `poll-${created.exportId}`,
      version: 2,
    });
    expect(await store.getExport(spotId, created.exportId)).toEqual(processing);
  });

  it('raises IllegalTransitionError with the current record for an illegal transition', async () => {
    // Prepare
    const spotId = freshSpot();
    const created = await store.createExport(newExportRecordFixture({ spotId }));

    // Act
    const error = await rejection(transition(spotId, created.exportId, { to: COMPLETED }));

    // Assess
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ from: REQUESTED, to: COMPLETED, current: created });
    expect(await store.getExport(spotId, created.exportId)).toEqual(created);
  });

  it.each([COMPLETED, FAILED, ABORTED])('never changes a %s record', async (terminal) => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const ended = await transition(spotId, processing.exportId, { to: terminal });

    // Act
    const attempts = await Promise.all(
      [REQUESTED, PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED].map((to) =>
        rejection(transition(spotId, processing.exportId, { to, changes: { failureReason: 'late' } })),
      ),
    );

    // Assess
    for (const error of attempts) {
      expect(error).toBeInstanceOf(IllegalTransitionError);
      expect((error as IllegalTransitionError).current).toEqual(ended);
    }
    expect(await store.getExport(spotId, processing.exportId)).toEqual(ended);
  });

  it('raises TransitionConflictError with the current record when the expected status is stale', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const aborting = await transition(spotId, processing.exportId, { from: PROCESSING, to: ABORTING });

    // Act
    const error = await rejection(transition(spotId, processing.exportId, { from: PROCESSING, to: FAILED }));

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect((error as TransitionConflictError).current).toEqual(aborting);
  });

  it('raises TransitionConflictError when the expected version is stale', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const bumped = await transition(spotId, processing.exportId, {
      to: PROCESSING,
      changes: { upstreamStatus: 'Queued' },
    });

    // Act
    const error = await rejection(
      transition(spotId, processing.exportId, { to: PROCESSING, expectedVersion: processing.version }),
    );

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect((error as TransitionConflictError).current).toEqual(bumped);
  });

  it('raises ExportNotFoundError for an unknown export', async () => {
    // Act
    const error = await rejection(transition(freshSpot(), newExportId(), { to: PROCESSING }));

    // Assess
    expect(error).toBeInstanceOf(ExportNotFoundError);
  });

  it('lets exactly one of a racing abort and completion win', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);

    // Act
    const results = await Promise.allSettled([
      transition(spotId, processing.exportId, { from: PROCESSING, to: ABORTING }),
      transition(spotId, processing.exportId, {
        from: PROCESSING,
        to: COMPLETED,
        changes: { links: ['https://files/a.csv.zip'] },
      }),
    ]);

    // Assess
    const winners = results.filter((result) => result.status === 'fulfilled');
    const losers = results.filter((result) => result.status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const stored = await store.getExport(spotId, processing.exportId);
    expect(stored).toEqual(winners[0]?.value);
    expect(stored?.version).toBe(processing.version + 1);
    const reason = losers[0]?.reason as TransitionConflictError | IllegalTransitionError;
    expect(reason.current).toEqual(stored);
  });

  it('lets exactly one of two racing terminal writes on an aborting export win', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    await transition(spotId, processing.exportId, { to: ABORTING });

    // Act
    const results = await Promise.allSettled([
      transition(spotId, processing.exportId, { to: ABORTED }),
      transition(spotId, processing.exportId, { to: COMPLETED }),
    ]);

    // Assess
    const losers = results.filter((result) => result.status === 'rejected');
    expect(losers).toHaveLength(1);
    expect(losers[0]?.reason).toBeInstanceOf(IllegalTransitionError);
  });
});

describe('DynamoDbExportStore (dynalite): recordPoll', () => {
  it('writes nothing when a poll sees no change', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const polled = await recordPoll(store, processing, {
      status: PROCESSING,
      upstreamStatus: 'Processing',
      observedAt: '2025-01-01T00:01:00.000Z',
    });

    // Act
    const again = await recordPoll(store, polled.record, {
      status: PROCESSING,
      upstreamStatus: 'Processing',
      observedAt: '2025-01-01T00:02:00.000Z',
    });

    // Assess
    expect(polled.outcome).toBe('updated');
    expect(again.outcome).toBe('unchanged');
    const stored = await store.getExport(spotId, processing.exportId);
    expect(stored?.version).toBe(polled.record.version);
    expect(stored?.lastPolledAt).toBe('2025-01-01T00:01:00.000Z');
  });

  it('bumps lastPolledAt and pollCount once the bookkeeping interval has passed', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId, { upstreamStatus: 'Processing' });
    const first = await recordPoll(
      store,
      { ...processing },
      { status: PROCESSING, upstreamStatus: 'Processing', observedAt: '2025-01-01T00:01:00.000Z' },
      { pollBookkeepingIntervalSeconds: 600 },
    );

    // Act
    const due = await recordPoll(
      store,
      first.record,
      { status: PROCESSING, upstreamStatus: 'Processing', observedAt: '2025-01-01T00:11:00.000Z' },
      { pollBookkeepingIntervalSeconds: 600 },
    );

    // Assess
    expect(first.outcome).toBe('bookkept');
    expect(due.outcome).toBe('bookkept');
    expect(due.record).toMatchObject({ lastPolledAt: '2025-01-01T00:11:00.000Z', pollCount: 2 });
    expect(due.record.version).toBe(processing.version + 2);
  });

  it("records completion with links and moves the record to the reconciler index's archive-pending partition", async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);

    // Act
    const result = await recordPoll(store, processing, {
      status: COMPLETED,
      upstreamStatus: 'Done',
      links: ['https://files/a.csv.zip'],
      observedAt: '2025-01-01T00:05:00.000Z',
    });

    // Assess
    expect(result.outcome).toBe('updated');
    expect(result.record).toMatchObject({
      status: COMPLETED,
      links: ['https://files/a.csv.zip'],
      completedAt: '2025-01-01T00:05:00.000Z',
    });
    const { Item } = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: exportKey(spotId, processing.exportId) }),
    );
    expect(Item).toMatchObject({
      statusIndexPk: `SPOT#${spotId}#STATUS#COMPLETED`,
      activeIndexPk: 'ARCHIVE_PENDING',
      activeIndexSk: '2025-01-01T00:05:00.000Z',
    });
    expect(await store.findActiveNotPolledSince('9999-12-31T00:00:00.000Z', 100)).not.toContainEqual(
      expect.objectContaining({ exportId: processing.exportId }),
    );
  });

  it('re-decides against a newer record: a stale completion still wins over a pending abort', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    await transition(spotId, processing.exportId, { from: PROCESSING, to: ABORTING });

    // Act
    const result = await recordPoll(store, processing, {
      status: COMPLETED,
      upstreamStatus: 'Done',
      links: ['https://files/a.csv.zip'],
      observedAt: '2025-01-01T00:05:00.000Z',
    });

    // Assess
    expect(result.outcome).toBe('updated');
    expect(result.record.status).toBe(COMPLETED);
  });

  it('answers unchanged when another poller already recorded the same completion', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const observation = {
      status: COMPLETED,
      upstreamStatus: 'Done',
      links: ['https://files/a.csv.zip'],
      observedAt: '2025-01-01T00:05:00.000Z',
    };
    const first = await recordPoll(store, processing, observation);

    // Act
    const second = await recordPoll(store, processing, observation);

    // Assess
    expect(second).toEqual({ outcome: 'unchanged', record: first.record });
  });

  it('refuses to complete an export that was aborted meanwhile', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    await transition(spotId, processing.exportId, { to: ABORTING });
    const aborted = await transition(spotId, processing.exportId, { to: ABORTED });

    // Act
    const error = await rejection(
      recordPoll(store, processing, { status: COMPLETED, observedAt: '2025-01-01T00:05:00.000Z' }),
    );

    // Assess
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect((error as IllegalTransitionError).current).toEqual(aborted);
  });
});

describe('DynamoDbExportStore (dynalite): link sets too big for the item', () => {
  // 200 links of 4,000 characters: about 800 KB, twice what one item may hold.
  const manyLinks = (tag: string) =>
    Array.from({ length: 200 }, (_, index) => `https://files/${tag}/${index}.csv.zip?${'s'.repeat(3_970)}`);

  async function partitionItems(spotId: string, prefix: string): Promise<Record<string, unknown>[]> {
    const { Items = [] } = await table.documentClient.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `SPOT#${spotId}`, ':prefix': prefix },
      }),
    );
    return Items;
  }

  it('keeps them in pages beside the record and reads them back in order wherever the record is read', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const links = manyLinks('a');

    // Act
    const completed = await transition(spotId, processing.exportId, {
      from: PROCESSING,
      to: COMPLETED,
      changes: { links },
    });

    // Assess
    expect(completed.links).toEqual(links);
    expect((await store.getExport(spotId, processing.exportId))?.links).toEqual(links);
    expect((await store.listExports(spotId, { limit: 10 })).items[0]?.links).toEqual(links);
    expect((await store.listExports(spotId, { limit: 10, status: COMPLETED })).items[0]?.links).toEqual(
      links,
    );
    const [item] = await partitionItems(spotId, 'EXPORT#');
    expect(item).not.toHaveProperty('links');
    expect(item).toMatchObject({ linkCount: 200, linkPages: expect.any(Number) });
    const pages = await partitionItems(spotId, `LINKS#${processing.exportId}#`);
    expect(pages).toHaveLength(item?.linkPages as number);
    expect(pages.length).toBeGreaterThan(1);
    for (const stored of [item, ...pages]) expect(dynamoDbItemBytes(stored ?? {})).toBeLessThan(400 * 1024);
  });

  it('writes the same pages again when the same completion is recorded twice', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const observation = { status: COMPLETED, links: manyLinks('b'), observedAt: '2025-01-01T00:05:00.000Z' };

    // Act
    const results = await Promise.all([
      recordPoll(store, processing, observation),
      recordPoll(store, processing, observation),
    ]);

    // Assess
    expect(results.map((result) => result.outcome).sort()).toEqual(['unchanged', 'updated']);
    const [item] = await partitionItems(spotId, 'EXPORT#');
    expect(await partitionItems(spotId, `LINKS#${processing.exportId}#`)).toHaveLength(
      item?.linkPages as number,
    );
    expect((await store.getExport(spotId, processing.exportId))?.links).toEqual(observation.links);
  });

  it('removes the pages of a completion that lost to an abort', async () => {
    // Prepare
    const spotId = freshSpot();
    const processing = await createProcessing(spotId);
    const aborting = await transition(spotId, processing.exportId, { from: PROCESSING, to: ABORTING });

    // Act
    const error = await rejection(
      transition(spotId, processing.exportId, {
        from: PROCESSING,
        to: COMPLETED,
        changes: { links: manyLinks('c') },
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(TransitionConflictError);
    expect((error as TransitionConflictError).current).toEqual(aborting);
    expect(await partitionItems(spotId, 'LINKS#')).toEqual([]);
  });
});

describe('DynamoDbExportStore (dynalite): listExports', () => {
  const recordCount = 25;
  const spotId = 'sp_listing';
  let created: ExportRecord[] = [];

  beforeAll(async () => {
    // One record per minute, every third one completed.
    created = [];
    for (let index = 0; index < recordCount; index++) {
      const requestedAt = new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString();
      let record = await store.createExport(newExportRecordFixture({ spotId, requestedAt }));
      if (index % 3 === 0) {
        record = await transition(spotId, record.exportId, { to: PROCESSING });
        record = await transition(spotId, record.exportId, { to: COMPLETED });
      }
      created.push(record);
    }
    // Another spot's records must never show up.
    await store.createExport(newExportRecordFixture({ spotId: 'sp_listing_other' }));
  });

  it('pages through every record newest first', async () => {
    // Act
    const pages = [];
    let nextToken: string | undefined;
    do {
      const page = await store.listExports(spotId, { limit: 10, nextToken });
      pages.push(page);
      nextToken = page.nextToken;
    } while (nextToken !== undefined);

    // Assess
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((page) => page.items)).toEqual([...created].reverse());
  });

  it('pages through one status only, newest first', async () => {
    // Prepare
    const completed = created.filter((record) => record.status === COMPLETED).reverse();

    // Act
    const first = await store.listExports(spotId, { limit: 5, status: COMPLETED });
    const second = await store.listExports(spotId, {
      limit: 5,
      status: COMPLETED,
      nextToken: first.nextToken,
    });

    // Assess
    expect(completed).toHaveLength(9);
    expect(first.items).toEqual(completed.slice(0, 5));
    expect(second.items).toEqual(completed.slice(5));
    expect(second.nextToken).toBeUndefined();
  });

  it('gives no token on a page that ends exactly at the last record', async () => {
    // Act
    const page = await store.listExports(spotId, { limit: recordCount });

    // Assess
    expect(page.items).toHaveLength(recordCount);
    expect(page.nextToken).toBeUndefined();
  });

  it.each([
    ['garbage', 'not a token!'],
    ['non-JSON base64url', Buffer.from('{{{').toString('base64url')],
    ['a JSON array', Buffer.from('[1,2]').toString('base64url')],
    ['another spot', encodePaginationToken({ pk: 'SPOT#sp_other', sk: 'EXPORT#ex_x' })],
    ['wrong attribute types', Buffer.from('{"pk":"SPOT#sp_listing","sk":7}').toString('base64url')],
    ['a sort key of another item type', encodePaginationToken({ pk: 'SPOT#sp_listing', sk: 'LOCK' })],
  ])('rejects a malformed nextToken (%s) with InvalidPaginationTokenError', async (_case, nextToken) => {
    // Act
    const error = await rejection(store.listExports(spotId, { limit: 10, nextToken }));

    // Assess
    expect(error).toBeInstanceOf(InvalidPaginationTokenError);
  });

  it('rejects a token of the unfiltered listing when a status is asked for', async () => {
    // Prepare
    const { nextToken } = await store.listExports(spotId, { limit: 10 });

    // Act
    const error = await rejection(store.listExports(spotId, { limit: 10, status: COMPLETED, nextToken }));

    // Assess
    expect(error).toBeInstanceOf(InvalidPaginationTokenError);
  });
});

describe('DynamoDbExportStore (dynalite): findActiveNotPolledSince', () => {
  it('finds active records not touched since the given instant, oldest first, and no terminal ones', async () => {
    // Prepare
    const spotId = freshSpot();
    const stale = await store.createExport(
      newExportRecordFixture({ spotId, requestedAt: '2020-01-01T00:00:00.000Z' }),
    );
    const stalePolled = await createProcessing(spotId, { requestedAt: '2020-01-01T00:01:00.000Z' });
    await recordPoll(
      store,
      stalePolled,
      { status: PROCESSING, upstreamStatus: 'Processing', observedAt: '2020-01-01T00:02:00.000Z' },
      { pollBookkeepingIntervalSeconds: 0 },
    );
    const freshlyPolled = await createProcessing(spotId, { requestedAt: '2020-01-01T00:00:30.000Z' });
    await recordPoll(
      store,
      freshlyPolled,
      { status: PROCESSING, upstreamStatus: 'Processing', observedAt: '2020-01-01T01:00:00.000Z' },
      { pollBookkeepingIntervalSeconds: 0 },
    );
    const finished = await createProcessing(spotId, { requestedAt: '2020-01-01T00:00:10.000Z' });
    await transition(spotId, finished.exportId, { to: FAILED, changes: { failureReason: 'rejected' } });

    // Act
    const found = await store.findActiveNotPolledSince('2020-01-01T00:30:00.000Z', 10);

    // Assess
    expect(found.map((record) => record.exportId)).toEqual([stale.exportId, stalePolled.exportId]);
  });
});

describe('DynamoDbExportStore (dynalite): the queue and the archives left pending', () => {
  function createQueued(spotId: string, enqueuedAt: string, priority: QueuePriority): Promise<ExportRecord> {
    return store.createExport(
      newExportRecordFixture({
        spotId,
        status: QUEUED,
        requestedAt: enqueuedAt,
        queue: { priority, enqueuedAt },
      }),
    );
  }

  it('finds queued exports of every spot and counts each one’s place in its own spot’s queue', async () => {
    // Prepare
    const spotA = freshSpot();
    const spotB = freshSpot();
    const backfill = await createQueued(spotA, '2025-01-01T00:00:01.000Z', QueuePriority.BACKFILL);
    const laterFirst = await createQueued(spotA, '2025-01-01T00:00:03.000Z', QueuePriority.FIRST);
    const earlierFirst = await createQueued(spotA, '2025-01-01T00:00:02.000Z', QueuePriority.FIRST);
    const elsewhere = await createQueued(spotB, '2025-01-01T00:00:00.000Z', QueuePriority.BACKFILL);
    const running = await store.createExport(newExportRecordFixture({ spotId: spotA }));

    // Act
    const found = (await store.findQueued(100)).map((record) => record.exportId);
    const positions = await Promise.all(
      [earlierFirst, laterFirst, backfill, elsewhere].map((record) => store.queuePosition(record)),
    );
    const head = await store.listExports(spotA, { status: QUEUED, limit: 1 });

    // Assess
    expect(found).toEqual(
      expect.arrayContaining([
        backfill.exportId,
        laterFirst.exportId,
        earlierFirst.exportId,
        elsewhere.exportId,
      ]),
    );
    expect(found).not.toContain(running.exportId);
    expect(positions).toEqual([1, 2, 3, 1]);
    expect(head.items.map((record) => record.exportId)).toEqual([earlierFirst.exportId]);
  });

  it('takes an export out of the queue and its index once it leaves the queue', async () => {
    // Prepare
    const spotId = freshSpot();
    const first = await createQueued(spotId, '2025-01-01T00:00:01.000Z', QueuePriority.FIRST);
    const second = await createQueued(spotId, '2025-01-01T00:00:02.000Z', QueuePriority.FIRST);

    // Act
    await transition(spotId, first.exportId, {
      from: QUEUED,
      to: REQUESTED,
      changes: { dequeuedAt: '2025-01-01T00:01:00.000Z' },
    });
    const aborted = await transition(spotId, second.exportId, {
      from: QUEUED,
      to: ABORTED,
      changes: { completedAt: '2025-01-01T00:01:00.000Z' },
    });

    // Assess
    const found = (await store.findQueued(100)).map((record) => record.exportId);
    expect(found).not.toContain(first.exportId);
    expect(found).not.toContain(second.exportId);
    expect(aborted.status).toBe(ABORTED);
    expect((await store.listExports(spotId, { status: QUEUED, limit: 10 })).items).toEqual([]);
  });

  it('finds a COMPLETED export whose archive claim lapsed, and not once it is archived', async () => {
    // Prepare
    const spotId = freshSpot();
    const archives = new DynamoDbArchiveRecords({ client: table.documentClient, tableName: table.tableName });
    const processing = await createProcessing(spotId);
    const { record: completed } = await recordPoll(store, processing, {
      status: COMPLETED,
      upstreamStatus: 'Done',
      links: ['https://files/a.csv.zip'],
      observedAt: '2025-01-01T00:05:00.000Z',
    });
    const ids = async (beforeIso: string) =>
      (await store.findArchivePending(beforeIso, 1000)).map((record) => record.exportId);

    // Act
    const beforeCompletion = await ids('2025-01-01T00:04:00.000Z');
    const afterCompletion = await ids('2025-01-01T00:06:00.000Z');
    await archives.claim(spotId, completed.exportId, {
      runId: 'run-1',
      now: '2025-01-01T00:06:00.000Z',
      claimedUntil: '2025-01-01T00:26:00.000Z',
    });
    const duringClaim = await ids('2025-01-01T00:20:00.000Z');
    const claimLapsed = await ids('2025-01-01T00:30:00.000Z');
    await archives.finish(spotId, completed.exportId, 'run-1', {
      status: ArchiveStatus.ARCHIVED,
      files: [],
      archivedAt: '2025-01-01T00:07:00.000Z',
    });
    const archived = await ids('2030-01-01T00:00:00.000Z');

    // Assess
    expect(beforeCompletion).not.toContain(completed.exportId);
    expect(afterCompletion).toContain(completed.exportId);
    expect(duringClaim).not.toContain(completed.exportId);
    expect(claimLapsed).toContain(completed.exportId);
    expect(archived).not.toContain(completed.exportId);
  });

  it('keeps an export ARCHIVED with its catalog PENDING findable until its partition is recorded REGISTERED', async () => {
    // Prepare
    const spotId = freshSpot();
    const archives = new DynamoDbArchiveRecords({ client: table.documentClient, tableName: table.tableName });
    const processing = await createProcessing(spotId);
    const { record: completed } = await recordPoll(store, processing, {
      status: COMPLETED,
      upstreamStatus: 'Done',
      links: ['https://files/a.csv.zip'],
      observedAt: '2025-01-01T00:05:00.000Z',
    });
    await archives.claim(spotId, completed.exportId, {
      runId: 'run-1',
      now: '2025-01-01T00:06:00.000Z',
      claimedUntil: '2025-01-01T00:26:00.000Z',
    });
    const pendingIds = async () => (await archives.findCatalogPending(1000)).map((record) => record.exportId);

    // Act
    const archived = await archives.finish(spotId, completed.exportId, 'run-1', {
      status: ArchiveStatus.ARCHIVED,
      files: [],
      archivedAt: '2025-01-01T00:07:00.000Z',
      catalog: 'PENDING',
      catalogReason: 'Glue did not register partition: OperationTimeoutException',
    });
    const whilePending = await pendingIds();
    const archivePending = (await store.findArchivePending('2030-01-01T00:00:00.000Z', 1000)).map(
      (record) => record.exportId,
    );
    const recorded = await archives.recordCatalogRegistered(spotId, completed.exportId);
    const recordedAgain = await archives.recordCatalogRegistered(spotId, completed.exportId);
    const after = await store.getExport(spotId, completed.exportId);

    // Assess
    expect(archived.archive).toMatchObject({ status: ArchiveStatus.ARCHIVED, catalog: 'PENDING' });
    expect(whilePending).toContain(completed.exportId);
    expect(archivePending).not.toContain(completed.exportId);
    expect([recorded, recordedAgain]).toEqual([true, false]);
    expect(after?.archive).toMatchObject({ status: ArchiveStatus.ARCHIVED, catalog: 'REGISTERED' });
    expect(after?.archive?.catalogReason).toBeUndefined();
    expect(await pendingIds()).not.toContain(completed.exportId);
  });

  it('indexes COMPLETED exports from before the archive index once, so the sweep finds them', async () => {
    // Prepare: its own table, holding what an older version wrote: COMPLETED with the archive
    // PENDING (or absent), and no reconciler index attributes.
    const legacyTable = await startDynaliteTable();
    try {
      const legacyStore = new DynamoDbExportStore({
        client: legacyTable.documentClient,
        tableName: legacyTable.tableName,
      });
      const spotId = freshSpot();
      const legacy = [
        { archive: { status: ArchiveStatus.PENDING, files: [] } },
        {},
        { archive: { status: ArchiveStatus.ARCHIVED, files: [], archivedAt: '2024-06-01T00:10:00.000Z' } },
      ].map((extra) => ({
        ...newExportRecordFixture({ spotId, status: COMPLETED, requestedAt: '2024-06-01T00:00:00.000Z' }),
        completedAt: '2024-06-01T00:05:00.000Z',
        links: ['https://files/a.csv.zip'],
        ...extra,
      }));
      for (const record of legacy) {
        await legacyTable.documentClient.send(
          new PutCommand({
            TableName: legacyTable.tableName,
            Item: {
              ...exportKey(spotId, record.exportId),
              entityType: 'EXPORT',
              ...record,
              version: 1,
            },
          }),
        );
      }

      // Act
      const before = await legacyStore.findArchivePending('2030-01-01T00:00:00.000Z', 10);
      const indexed = await legacyStore.indexLegacyArchives();
      const again = await legacyStore.indexLegacyArchives();
      const after = await legacyStore.findArchivePending('2030-01-01T00:00:00.000Z', 10);

      // Assess
      expect(before).toEqual([]);
      expect(indexed).toBe(2);
      expect(again).toBe(0);
      expect(after.map((record) => record.exportId).sort()).toEqual(
        [legacy[0]?.exportId, legacy[1]?.exportId].sort(),
      );
    } finally {
      await legacyTable.close();
    }
  });
});
