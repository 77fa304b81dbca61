import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbTokenStore } from '../../../../lib/store/DynamoDbTokenStore';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

const START_MS = Date.UTC(2025, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;
const LEASE_MS = 5_000;

let table: DynaliteTable;
let nowMs = START_MS;
let tokens: DynamoDbTokenStore;
let spotCounter = 0;

beforeAll(async () => {
  table = await startDynaliteTable();
  tokens = new DynamoDbTokenStore({
    client: table.documentClient,
    tableName: table.tableName,
    now: () => nowMs,
  });
});

afterAll(async () => {
  await table?.close();
});

function freshSpot(): string {
  nowMs = START_MS;
  spotCounter += 1;
  return `sp_token_${spotCounter}`;
}

describe('DynamoDbTokenStore (dynalite)', () => {
  it('has no token for a new spot', async () => {
    // Act
    const token = await tokens.get(freshSpot());

    // Assess
    expect(token).toBeUndefined();
  });

  it('returns the token it was given, per spot', async () => {
    // Prepare
    const spotA = freshSpot();
    const spotB = freshSpot();
    await tokens.put(spotA, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });

    // Act
    const [a, b] = await Promise.all([tokens.get(spotA), tokens.get(spotB)]);

    // Assess
    expect(a).toEqual({ token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    expect(b).toBeUndefined();
  });

  it('reads an expired token as absent', async () => {
    // Prepare
    const spotId = freshSpot();
    await tokens.put(spotId, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    nowMs = START_MS + DAY_MS;

    // Act
    const token = await tokens.get(spotId);

    // Assess
    expect(token).toBeUndefined();
  });

  it('invalidates only the token it names', async () => {
    // Prepare
    const spotId = freshSpot();
    await tokens.put(spotId, { token: 'jwt-new', expiresAt: START_MS + DAY_MS });

    // Act
    await tokens.invalidate(spotId, 'jwt-old');
    const afterStale = await tokens.get(spotId);
    await tokens.invalidate(spotId, 'jwt-new');
    const afterCurrent = await tokens.get(spotId);

    // Assess
    expect(afterStale?.token).toBe('jwt-new');
    expect(afterCurrent).toBeUndefined();
  });

  it('ignores invalidating a spot that has no token', async () => {
    // Act / Assess
    await expect(tokens.invalidate(freshSpot(), 'jwt')).resolves.toBeUndefined();
  });

  it('grants the refresh lease to exactly one of 20 concurrent callers', async () => {
    // Prepare
    const spotId = freshSpot();

    // Act
    const granted = await Promise.all(
      Array.from({ length: 20 }, () => tokens.acquireRefreshLease(spotId, LEASE_MS)),
    );

    // Assess
    expect(granted.filter(Boolean)).toHaveLength(1);
  });

  it('grants the lease again only once it lapsed', async () => {
    // Prepare
    const spotId = freshSpot();
    await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Act
    const whileHeld = await tokens.acquireRefreshLease(spotId, LEASE_MS);
    nowMs += LEASE_MS;
    const afterLapse = await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Assess
    expect(whileHeld).toBe(false);
    expect(afterLapse).toBe(true);
  });

  it('gives a lease back on request, and creates nothing for a spot that holds none', async () => {
    // Prepare
    const spotId = freshSpot();
    const idle = freshSpot();
    await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Act
    await tokens.releaseRefreshLease(spotId);
    await tokens.releaseRefreshLease(idle);
    const afterRelease = await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Assess
    expect(afterRelease).toBe(true);
    expect(await tokens.get(idle)).toBeUndefined();
    expect(await tokens.acquireRefreshLease(idle, LEASE_MS)).toBe(true);
  });

  it('releases the lease when the new token is stored, so a later rejection can refresh at once', async () => {
    // Prepare
    const spotId = freshSpot();
    await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Act
    await tokens.put(spotId, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    const afterPut = await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Assess
    expect(afterPut).toBe(true);
    expect((await tokens.get(spotId))?.token).toBe('jwt-a');
  });
});
