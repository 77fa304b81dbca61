import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErasureStatus,
  erasureIdOf,
  type NewErasureRecord,
} from '../../../../lib/exports/erasure/ErasureRecord';
import { ErasureAlreadyExistsError, ErasureChangedError } from '../../../../lib/exports/erasure/errors';
import { DynamoDbErasureStore } from '../../../../lib/store/DynamoDbErasureStore';
import { captureError } from '../../../support/captureError';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

let table: DynaliteTable;
let store: DynamoDbErasureStore;

beforeAll(async () => {
  table = await startDynaliteTable();
  store = new DynamoDbErasureStore({ client: table.documentClient, tableName: table.tableName });
});

afterAll(async () => {
  await table?.close();
});

function newErasure(spotId: string, userId: string): NewErasureRecord {
  return {
    spotId,
    erasureId: erasureIdOf(spotId, userId),
    userId,
    status: ErasureStatus.RUNNING,
    requestedAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    exportsDone: [],
    filesRead: 0,
    files: [],
  };
}

describe('DynamoDbErasureStore', () => {
  it('creates an erasure once, and refuses a second with the first', async () => {
    // Act
    const created = await store.create(newErasure('sp_er_1', 'u_1'));
    const error = await captureError(store.create(newErasure('sp_er_1', 'u_1')));

    // Assess
    expect(created.version).toBe(1);
    expect(error).toBeInstanceOf(ErasureAlreadyExistsError);
    expect((error as ErasureAlreadyExistsError).existing).toEqual(created);
    expect(await store.get('sp_er_1', created.erasureId)).toEqual(created);
  });

  it('saves only over the version read, and finds RUNNING erasures whose lease lapsed until they finish', async () => {
    // Prepare
    const created = await store.create(newErasure('sp_er_2', 'u_2'));

    // Act
    const leased = await store.save({ ...created, runId: 'run-1', leaseUntil: '2026-11-01T00:10:00.000Z' });
    const stale = await captureError(store.save({ ...created, filesRead: 3 }));
    const dueBefore = await store.findRunning('2026-11-01T00:05:00.000Z', 10);
    const dueAfter = await store.findRunning('2026-11-01T00:15:00.000Z', 10);
    const completed = await store.save({
      ...leased,
      status: ErasureStatus.COMPLETED,
      completedAt: '2026-11-01T00:11:00.000Z',
    });

    // Assess
    expect(leased.version).toBe(2);
    expect(stale).toBeInstanceOf(ErasureChangedError);
    expect((stale as ErasureChangedError).current).toEqual(leased);
    expect(dueBefore.map((record) => record.erasureId)).not.toContain(created.erasureId);
    expect(dueAfter.map((record) => record.erasureId)).toContain(created.erasureId);
    expect(completed.version).toBe(3);
    expect(
      (await store.findRunning('2099-01-01T00:00:00.000Z', 10)).map((record) => record.erasureId),
    ).not.toContain(created.erasureId);
  });

  it("lists a spot's erasures a page at a time", async () => {
    // Prepare
    for (const userId of ['u_a', 'u_b', 'u_c']) await store.create(newErasure('sp_er_3', userId));

    // Act
    const first = await store.listForSpot('sp_er_3', { limit: 2 });
    const second = await store.listForSpot('sp_er_3', { limit: 2, nextToken: first.nextToken as string });

    // Assess
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
    expect(new Set([...first.items, ...second.items].map((record) => record.userId))).toEqual(
      new Set(['u_a', 'u_b', 'u_c']),
    );
  });
});
