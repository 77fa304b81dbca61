import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackfillState,
  type NewBackfillRecord,
  newBackfillId,
} from '../../../../lib/exports/backfill/BackfillRecord';
import { BackfillAlreadyExistsError, BackfillNotFoundError } from '../../../../lib/exports/backfill/errors';
import { DynamoDbBackfillStore } from '../../../../lib/store/DynamoDbBackfillStore';
import { captureError } from '../../../support/captureError';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

let table: DynaliteTable;
let store: DynamoDbBackfillStore;
let spotCounter = 0;

beforeAll(async () => {
  table = await startDynaliteTable();
  store = new DynamoDbBackfillStore({ client: table.documentClient, tableName: table.tableName });
});

afterAll(async () => {
  await table?.close();
});

function newBackfill(overrides: Partial<NewBackfillRecord> = {}): NewBackfillRecord {
  spotCounter += 1;
  return {
    spotId: `sp_fill_${spotCounter}`,
    backfillId: newBackfillId(Date.parse('2026-11-01T00:00:00Z')),
    from: '2026-10-01T00:00:00Z',
    until: '2026-10-03T00:00:00Z',
    windowHours: 24,
    windows: [
      { from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' },
      { from: '2026-10-02T00:00:00Z', until: '2026-10-03T00:00:00Z' },
    ],
    skipped: [],
    state: BackfillState.ACTIVE,
    recording: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('DynamoDbBackfillStore', () => {
  it('creates a backfill once and reads it back whole; a second create is refused with the first', async () => {
    // Prepare
    const backfill = newBackfill({ idempotencyKey: 'api:k' });
    const created = await store.create(backfill);

    // Act
    const again = await captureError(store.create({ ...backfill, windowHours: 12 }));

    // Assess
    expect(created).toEqual({ ...backfill, version: 1 });
    expect(await store.get(backfill.spotId, backfill.backfillId)).toEqual(created);
    expect(again).toBeInstanceOf(BackfillAlreadyExistsError);
    expect((again as BackfillAlreadyExistsError).existing).toEqual(created);
  });

  it('lists a backfill still recording to the reconciler once it is old enough, and no more once recorded', async () => {
    // Prepare
    const backfill = newBackfill({ createdAt: '2026-11-02T00:00:00.000Z' });
    await store.create(backfill);

    // Act
    const tooSoon = await store.findRecording('2026-11-02T00:00:00.000Z', 100);
    const later = await store.findRecording('2026-11-02T00:01:00.000Z', 100);
    const recorded = await store.markRecorded(backfill.spotId, backfill.backfillId);
    const repeated = await store.markRecorded(backfill.spotId, backfill.backfillId);
    const afterwards = await store.findRecording('2026-11-02T00:01:00.000Z', 100);

    // Assess
    expect(tooSoon.map((found) => found.backfillId)).not.toContain(backfill.backfillId);
    expect(later.map((found) => found.backfillId)).toContain(backfill.backfillId);
    expect(recorded).toMatchObject({ recording: false, version: 2 });
    // Written once: the repeat changes nothing.
    expect(repeated).toEqual(recorded);
    expect(afterwards.map((found) => found.backfillId)).not.toContain(backfill.backfillId);
  });

  it('aborts an active backfill once, and answers an aborted one as it is', async () => {
    // Prepare
    const backfill = newBackfill({ recording: false });
    await store.create(backfill);

    // Act
    const aborted = await store.markAborted(backfill.spotId, backfill.backfillId, '2026-11-01T01:00:00.000Z');
    const again = await store.markAborted(backfill.spotId, backfill.backfillId, '2026-11-01T02:00:00.000Z');

    // Assess
    expect(aborted).toMatchObject({ state: BackfillState.ABORTED, abortedAt: '2026-11-01T01:00:00.000Z' });
    expect(again).toEqual(aborted);
  });

  it('refuses to mark an unknown backfill, and reads it as absent', async () => {
    // Prepare
    const unknown = newBackfill();

    // Act
    const marked = await captureError(
      store.markAborted(unknown.spotId, unknown.backfillId, unknown.createdAt),
    );

    // Assess
    expect(marked).toBeInstanceOf(BackfillNotFoundError);
    expect(await store.get(unknown.spotId, unknown.backfillId)).toBeUndefined();
  });
});
