import { describe, expect, it } from 'vitest';
import { DynamoDbTokenStore } from '../../../../lib/store/DynamoDbTokenStore';
import { useDynaliteTable } from '../../../support/dynaliteFixture';

const START_MS = Date.UTC(2025, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;
const LEASE_MS = 5_000;

let tokens: DynamoDbTokenStore;
const dynalite = useDynaliteTable({ spotPrefix: 'sp_token', startMs: START_MS }, ({ tableOptions, now }) => {
  tokens = new DynamoDbTokenStore({ ...tableOptions, now });
});

describe('DynamoDbTokenStore (dynalite)', () => {
  it('has no token for a new spot', async () => {
    // Act
    const token = await tokens.get(dynalite.freshSpot());

    // Assess
    expect(token).toBeUndefined();
  });

  it('returns the token it was given, per spot', async () => {
    // Prepare
    const spotA = dynalite.freshSpot();
    const spotB = dynalite.freshSpot();
    await tokens.put(spotA, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });

    // Act
    const [a, b] = await Promise.all([tokens.get(spotA), tokens.get(spotB)]);

    // Assess
    expect(a).toEqual({ token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    expect(b).toBeUndefined();
  });

  it('reads an expired token as absent', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await tokens.put(spotId, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    dynalite.nowMs = START_MS + DAY_MS;

    // Act
    const token = await tokens.get(spotId);

    // Assess
    expect(token).toBeUndefined();
  });

  it('invalidates only the token it names', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
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
    await expect(tokens.invalidate(dynalite.freshSpot(), 'jwt')).resolves.toBeUndefined();
  });

  it('grants the refresh lease to exactly one of 20 concurrent callers', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();

    // Act
    const granted = await Promise.all(
      Array.from({ length: 20 }, () => tokens.acquireRefreshLease(spotId, LEASE_MS)),
    );

    // Assess
    expect(granted.filter(Boolean)).toHaveLength(1);
  });

  it('grants the lease again only once it lapsed', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Act
    const whileHeld = await tokens.acquireRefreshLease(spotId, LEASE_MS);
    dynalite.nowMs += LEASE_MS;
    const afterLapse = await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Assess
    expect(whileHeld).toBe(false);
    expect(afterLapse).toBe(true);
  });

  it('gives a lease back on request, and creates nothing for a spot that holds none', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const idle = dynalite.freshSpot();
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
    const spotId = dynalite.freshSpot();
    await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Act
    await tokens.put(spotId, { token: 'jwt-a', expiresAt: START_MS + DAY_MS });
    const afterPut = await tokens.acquireRefreshLease(spotId, LEASE_MS);

    // Assess
    expect(afterPut).toBe(true);
    expect((await tokens.get(spotId))?.token).toBe('jwt-a');
  });
});
