import { describe, expect, it } from 'vitest';
import { InMemoryTokenStore } from '../../../../lib/openweb/InMemoryTokenStore';
import { VirtualClock } from './support/fakeUpstream';

describe('InMemoryTokenStore', () => {
  it('returns what was put, per spot', async () => {
    // Prepare
    const store = new InMemoryTokenStore();
    await store.put('sp_a', { token: 'a', expiresAt: 1 });

    // Act / Assess
    expect(await store.get('sp_a')).toEqual({ token: 'a', expiresAt: 1 });
    expect(await store.get('sp_b')).toBeUndefined();
  });

  it('invalidates only the token that is still stored', async () => {
    // Prepare
    const store = new InMemoryTokenStore();
    await store.put('sp_a', { token: 'new', expiresAt: 1 });

    // Act
    await store.invalidate('sp_a', 'old');
    const afterStale = await store.get('sp_a');
    await store.invalidate('sp_a', 'new');

    // Assess
    expect(afterStale?.token).toBe('new');
    expect(await store.get('sp_a')).toBeUndefined();
  });

  it('grants one lease per spot until it lapses', async () => {
    // Prepare
    const clock = new VirtualClock();
    const store = new InMemoryTokenStore({ now: clock.now });

    // Act
    const first = await store.acquireRefreshLease('sp_a', 1_000);
    const second = await store.acquireRefreshLease('sp_a', 1_000);
    const otherSpot = await store.acquireRefreshLease('sp_b', 1_000);
    clock.advance(1_000);
    const afterLapse = await store.acquireRefreshLease('sp_a', 1_000);

    // Assess
    expect([first, second, otherSpot, afterLapse]).toEqual([true, false, true, true]);
  });

  it('releases the lease when a token is put', async () => {
    // Prepare
    const store = new InMemoryTokenStore();
    await store.acquireRefreshLease('sp_a', 60_000);

    // Act
    await store.put('sp_a', { token: 't', expiresAt: 1 });

    // Assess
    expect(await store.acquireRefreshLease('sp_a', 60_000)).toBe(true);
  });
});
