import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { IdempotencyConflictError, IdempotencyKeyReusedError } from '../../../../lib/exports/record/errors';
import { DynamoDbIdempotencyKeys } from '../../../../lib/store/DynamoDbIdempotencyKeys';
import { exportTableDefinition } from '../../../../lib/store/tableDefinition';
import { captureError } from '../../../support/captureError';
import { useDynaliteTable } from '../../../support/dynaliteFixture';

const START_MS = Date.UTC(2025, 0, 1);
const MS_PER_SECOND = 1000;

let keys: DynamoDbIdempotencyKeys;
const dynalite = useDynaliteTable({ spotPrefix: 'sp_key', startMs: START_MS }, ({ tableOptions, now }) => {
  keys = new DynamoDbIdempotencyKeys({ ...tableOptions, now });
});

describe('DynamoDbIdempotencyKeys (dynalite)', () => {
  const inOneHour = () => Math.floor(dynalite.nowMs / MS_PER_SECOND) + 3600;

  it('stores a new key and reads it back', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();

    // Act
    const stored = await keys.put(spotId, 'key-1', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: inOneHour(),
    });

    // Assess
    expect(stored).toEqual({
      spotId,
      key: 'key-1',
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      createdAt: new Date(START_MS).toISOString(),
      expiresAtEpochSeconds: inOneHour(),
    });
    expect(await keys.get(spotId, 'key-1')).toEqual(stored);
  });

  it.each([
    ['answers a retry of the same request with IdempotencyConflictError', 'fp-1', IdempotencyConflictError],
    [
      'refuses a key reused for a different request with IdempotencyKeyReusedError',
      'fp-2',
      IdempotencyKeyReusedError,
    ],
  ] as const)('%s, carrying the first record', async (_what, fingerprint, refusal) => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const first = await keys.put(spotId, 'key-1', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: inOneHour(),
    });

    // Act
    const error = await captureError(
      keys.put(spotId, 'key-1', {
        exportId: 'ex_b',
        requestFingerprint: fingerprint,
        expiresAtEpochSeconds: inOneHour(),
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(refusal);
    expect((error as IdempotencyConflictError | IdempotencyKeyReusedError).existing).toEqual(first);
  });

  it('treats an expired key as absent and lets it be used again', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await keys.put(spotId, 'key-1', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: inOneHour(),
    });
    dynalite.nowMs += 3600 * MS_PER_SECOND;

    // Act
    const seen = await keys.get(spotId, 'key-1');
    const reused = await keys.put(spotId, 'key-1', {
      exportId: 'ex_b',
      requestFingerprint: 'fp-2',
      expiresAtEpochSeconds: inOneHour(),
    });

    // Assess
    expect(seen).toBeUndefined();
    expect(reused.exportId).toBe('ex_b');
    expect((await keys.get(spotId, 'key-1'))?.exportId).toBe('ex_b');
  });

  it('keeps keys of different spots apart', async () => {
    // Prepare
    const spotA = dynalite.freshSpot();
    const spotB = dynalite.freshSpot();
    await keys.put(spotA, 'shared', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: inOneHour(),
    });

    // Act
    const other = await keys.put(spotB, 'shared', {
      exportId: 'ex_b',
      requestFingerprint: 'fp-2',
      expiresAtEpochSeconds: inOneHour(),
    });

    // Assess
    expect(other.exportId).toBe('ex_b');
  });
});

describe('DynamoDbIdempotencyKeys (dynalite): expiry', () => {
  it("writes an idempotency record's expiry to the attribute the table expires items on", async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const keyExpiry = Math.floor(dynalite.nowMs / MS_PER_SECOND) + 3600;

    // Act
    await keys.put(spotId, 'key-1', {
      exportId: 'ex_a',
      requestFingerprint: 'fp-1',
      expiresAtEpochSeconds: keyExpiry,
    });
    const { Items = [] } = await dynalite.table.documentClient.send(
      new ScanCommand({ TableName: dynalite.table.tableName }),
    );

    // Assess
    const expiries = Items.filter((item) => JSON.stringify(item).includes(spotId)).map(
      (item) => item[exportTableDefinition.timeToLiveAttribute],
    );
    expect(expiries).toEqual([keyExpiry]);
  });
});
