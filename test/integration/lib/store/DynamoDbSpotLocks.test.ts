import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import { DynamoDbSpotLocks } from '../../../../lib/store/DynamoDbSpotLocks';
import { exportTableDefinition } from '../../../../lib/store/tableDefinition';
import { captureError } from '../../../support/captureError';
import { useDynaliteTable } from '../../../support/dynaliteFixture';

const START_MS = Date.UTC(2025, 0, 1);
const MS_PER_SECOND = 1000;

let locks: DynamoDbSpotLocks;
const dynalite = useDynaliteTable({ spotPrefix: 'sp_lock', startMs: START_MS }, ({ tableOptions, now }) => {
  locks = new DynamoDbSpotLocks({ ...tableOptions, now });
});

describe('DynamoDbSpotLocks (dynalite)', () => {
  it('takes a free spot and reports the lease', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();

    // Act
    const lock = await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });

    // Assess
    expect(lock).toEqual({
      spotId,
      exportId: 'ex_a',
      acquiredAt: new Date(START_MS).toISOString(),
      expiresAtEpochSeconds: START_MS / MS_PER_SECOND + 60,
    });
    expect(await locks.get(spotId)).toEqual(lock);
  });

  it('is re-entrant for the same export and renews the lease', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });
    dynalite.nowMs += 30 * MS_PER_SECOND;

    // Act
    const again = await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });

    // Assess
    expect(again.expiresAtEpochSeconds).toBe(START_MS / MS_PER_SECOND + 90);
  });

  it('refuses another export with SpotBusyError naming the holder', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const held = await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });

    // Act
    const error = await captureError(locks.acquire(spotId, 'ex_b'));

    // Assess
    expect(error).toBeInstanceOf(SpotBusyError);
    expect(error).toMatchObject({ spotId, activeExportId: 'ex_a', lock: held });
  });

  it('lets exactly one of many concurrent exports take the spot', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const contenders = Array.from({ length: 10 }, (_, index) => `ex_${index}`);

    // Act
    const results = await Promise.allSettled(contenders.map((exportId) => locks.acquire(spotId, exportId)));

    // Assess
    const winners = results.filter((result) => result.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const holder = (await locks.get(spotId))?.exportId;
    expect(winners[0]?.value.exportId).toBe(holder);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ activeExportId: holder });
    }
  });

  it('frees the spot on release by its holder, and release is idempotent', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await locks.acquire(spotId, 'ex_a');

    // Act
    const first = await locks.release(spotId, 'ex_a');
    const second = await locks.release(spotId, 'ex_a');
    const next = await locks.acquire(spotId, 'ex_b');

    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(next.exportId).toBe('ex_b');
  });

  it('does not let another export release the lock', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await locks.acquire(spotId, 'ex_a');

    // Act
    const released = await locks.release(spotId, 'ex_b');

    // Assess
    expect(released).toBe(false);
    expect((await locks.get(spotId))?.exportId).toBe('ex_a');
  });

  it('treats a lapsed lease as free, before the TTL sweeper removes it', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });
    dynalite.nowMs += 60 * MS_PER_SECOND;

    // Act
    const seen = await locks.get(spotId);
    const taken = await locks.acquire(spotId, 'ex_b', { leaseSeconds: 60 });

    // Assess
    expect(seen).toBeUndefined();
    expect(taken.exportId).toBe('ex_b');
    expect(await locks.release(spotId, 'ex_a')).toBe(false);
  });
});

describe('DynamoDbSpotLocks (dynalite): expiry', () => {
  it("writes a lock's expiry to the attribute the table expires items on", async () => {
    // Prepare
    const spotId = dynalite.freshSpot();

    // Act
    const lock = await locks.acquire(spotId, 'ex_a', { leaseSeconds: 60 });
    const { Items = [] } = await dynalite.table.documentClient.send(
      new ScanCommand({ TableName: dynalite.table.tableName }),
    );

    // Assess
    const expiries = Items.filter((item) => JSON.stringify(item).includes(spotId)).map(
      (item) => item[exportTableDefinition.timeToLiveAttribute],
    );
    expect(expiries).toEqual([lock.expiresAtEpochSeconds]);
  });
});
