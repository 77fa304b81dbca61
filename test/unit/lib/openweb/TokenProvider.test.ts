import { describe, expect, it, vi } from 'vitest';
import { TokenUnavailableError } from '../../../../lib/exports/upstream/errors';
import { InMemoryTokenStore } from '../../../../lib/openweb/InMemoryTokenStore';
import {
  DEFAULT_MAX_LEASE_WAITS,
  DEFAULT_TOKEN_LIFETIME_MS,
  TokenProvider,
  type TokenProviderOptions,
  tokenExpiresAt,
} from '../../../../lib/openweb/TokenProvider';
import type { TokenStore, UpstreamToken } from '../../../../lib/openweb/TokenStore';
import { jwtExpiringAt, VirtualClock } from './support/fakeUpstream';

const SPOT = 'sp_demo';
const HOUR_MS = 60 * 60 * 1000;
const MARGIN_MS = 5 * 60 * 1000;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function setUp(overrides: Partial<TokenProviderOptions> = {}) {
  const clock = new VirtualClock();
  const store = new InMemoryTokenStore({ now: clock.now });
  let issued = 0;
  const authenticate = vi.fn(
    async (_spotId: string): Promise<UpstreamToken> => ({
      token: `token-${++issued}`,
      expiresAt: clock.now() + HOUR_MS,
    }),
  );
  const provider = new TokenProvider({
    store,
    authenticate,
    refreshMarginMs: MARGIN_MS,
    refreshLeaseMs: 1_000,
    storePollIntervalMs: 100,
    now: clock.now,
    sleep: clock.sleep,
    ...overrides,
  });
  return { clock, store, authenticate, provider };
}

describe('tokenExpiresAt', () => {
  const nowMs = Date.parse('2026-03-01T00:00:00Z');

  it('reads the exp claim of the JWT', () => {
    // Prepare
    const expiresAt = nowMs + 2 * HOUR_MS;

    // Act / Assess
    expect(tokenExpiresAt(jwtExpiringAt(expiresAt), nowMs)).toBe(expiresAt);
  });

  it.each([
    ['a JWT without exp', 'eyJhbGciOiJub25lIn0.eyJzcG90X2lkIjoic3BfZGVtbyJ9.'],
    ['an opaque token', 'not-a-jwt'],
  ])('assumes 24 hours for %s', (_variant, token) => {
    // Act / Assess
    expect(tokenExpiresAt(token, nowMs)).toBe(nowMs + DEFAULT_TOKEN_LIFETIME_MS);
  });
});

describe('TokenProvider', () => {
  it('reuses a token until the refresh margin before its expiry', async () => {
    // Prepare
    const { clock, provider, authenticate } = setUp();
    const first = await provider.getToken(SPOT);

    // Act
    clock.advance(HOUR_MS - MARGIN_MS - 1);
    const stillFirst = await provider.getToken(SPOT);
    clock.advance(1);
    const refreshed = await provider.getToken(SPOT);

    // Assess
    expect(stillFirst).toEqual(first);
    expect(refreshed.token).toBe('token-2');
    expect(authenticate).toHaveBeenCalledTimes(2);
  });

  it('keeps one token per spot', async () => {
    // Prepare
    const { provider, authenticate } = setUp();

    // Act
    const a = await provider.getToken('sp_a');
    const b = await provider.getToken('sp_b');
    const againA = await provider.getToken('sp_a');

    // Assess
    expect(a.token).not.toBe(b.token);
    expect(againA).toEqual(a);
    expect(authenticate.mock.calls).toEqual([['sp_a'], ['sp_b']]);
  });

  it('uses a fresh token from the store without authenticating', async () => {
    // Prepare
    const { clock, store, provider, authenticate } = setUp();
    await store.put(SPOT, { token: 'shared', expiresAt: clock.now() + HOUR_MS });

    // Act
    const token = await provider.getToken(SPOT);

    // Assess
    expect(token.token).toBe('shared');
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('replaces a stored token that is inside the refresh margin and shares the new one', async () => {
    // Prepare
    const { clock, store, provider } = setUp();
    await store.put(SPOT, { token: 'stale', expiresAt: clock.now() + MARGIN_MS });

    // Act
    const token = await provider.getToken(SPOT);

    // Assess
    expect(token.token).toBe('token-1');
    expect((await store.get(SPOT))?.token).toBe('token-1');
  });

  it('lets concurrent callers share one authentication', async () => {
    // Prepare
    const { clock, provider, authenticate } = setUp();
    const gate = deferred<void>();
    authenticate.mockImplementationOnce(async () => {
      await gate.promise;
      return { token: 'single', expiresAt: clock.now() + HOUR_MS };
    });

    // Act
    const pending = Array.from({ length: 50 }, () => provider.getToken(SPOT));
    gate.resolve();
    const tokens = await Promise.all(pending);

    // Assess
    expect(authenticate).toHaveBeenCalledTimes(1);
    expect(new Set(tokens.map((token) => token.token))).toEqual(new Set(['single']));
  });

  it('makes a process that lost the lease wait for the winner’s token', async () => {
    // Prepare: two processes sharing one store, the first one slow to authenticate
    const clock = new VirtualClock();
    const store = new InMemoryTokenStore({ now: clock.now });
    const gate = deferred<void>();
    const winnerAuth = vi.fn(async () => {
      await gate.promise;
      return { token: 'winner', expiresAt: clock.now() + HOUR_MS };
    });
    const loserAuth = vi.fn(async () => ({ token: 'loser', expiresAt: clock.now() + HOUR_MS }));
    const shared = {
      store,
      refreshMarginMs: MARGIN_MS,
      refreshLeaseMs: 1_000,
      storePollIntervalMs: 100,
      now: clock.now,
    };
    const winner = new TokenProvider({ ...shared, authenticate: winnerAuth, sleep: clock.sleep });
    let polls = 0;
    const loser = new TokenProvider({
      ...shared,
      authenticate: loserAuth,
      sleep: async (ms) => {
        polls++;
        // The winner finishes while the loser is polling.
        if (polls === 3) gate.resolve();
        await clock.sleep(ms);
        await new Promise((resolve) => setImmediate(resolve));
      },
    });

    // Act
    const winnerToken = winner.getToken(SPOT);
    const loserToken = await loser.getToken(SPOT);

    // Assess
    expect(loserToken.token).toBe('winner');
    expect((await winnerToken).token).toBe('winner');
    expect(loserAuth).not.toHaveBeenCalled();
    expect(winnerAuth).toHaveBeenCalledTimes(1);
  });

  it('authenticates itself once the winner’s lease lapsed without a token', async () => {
    // Prepare
    const { clock, store, provider, authenticate } = setUp();
    await store.acquireRefreshLease(SPOT, 1_000);

    // Act
    const token = await provider.getToken(SPOT);

    // Assess
    expect(token.token).toBe('token-1');
    expect(authenticate).toHaveBeenCalledTimes(1);
    expect(clock.sleeps).toEqual(Array(10).fill(100));
  });

  it('gives the lease back when authentication fails, so another process tries at once', async () => {
    // Prepare: two processes sharing one store; the first one's auth call is refused.
    const clock = new VirtualClock();
    const store = new InMemoryTokenStore({ now: clock.now });
    const gate = deferred<void>();
    const refused = new Error('auth refused');
    const failingAuth = vi.fn(async (): Promise<UpstreamToken> => {
      await gate.promise;
      throw refused;
    });
    const secondAuth = vi.fn(async () => ({ token: 'second', expiresAt: clock.now() + HOUR_MS }));
    const shared = {
      store,
      refreshMarginMs: MARGIN_MS,
      refreshLeaseMs: 60_000,
      storePollIntervalMs: 100,
      now: clock.now,
    };
    const first = new TokenProvider({ ...shared, authenticate: failingAuth, sleep: clock.sleep });
    const sleeps: number[] = [];
    const second = new TokenProvider({
      ...shared,
      authenticate: secondAuth,
      sleep: async (ms) => {
        sleeps.push(ms);
        if (sleeps.length === 2) gate.resolve();
        await clock.sleep(ms);
        await new Promise((resolve) => setImmediate(resolve));
      },
    });

    // Act
    const firstOutcome = first.getToken(SPOT).catch((error: unknown) => error);
    const secondToken = await second.getToken(SPOT);

    // Assess: far fewer polls than the 600 a 60 s lease would cost
    expect(await firstOutcome).toBe(refused);
    expect(secondToken.token).toBe('second');
    expect(secondAuth).toHaveBeenCalledTimes(1);
    expect(sleeps.length).toBeLessThan(10);
  });

  it('gives up with TokenUnavailableError when the lease never comes free', async () => {
    // Prepare
    const store: TokenStore = {
      get: async () => undefined,
      put: async () => undefined,
      invalidate: async () => undefined,
      acquireRefreshLease: async () => false,
      releaseRefreshLease: async () => undefined,
    };
    const { clock, provider, authenticate } = setUp({ store });

    // Act
    const failure = provider.getToken(SPOT);

    // Assess
    await expect(failure).rejects.toBeInstanceOf(TokenUnavailableError);
    expect(authenticate).not.toHaveBeenCalled();
    expect(clock.sleeps).toHaveLength((DEFAULT_MAX_LEASE_WAITS + 1) * 10);
  });

  it('drops a rejected token here and in the store, then gets a new one', async () => {
    // Prepare
    const { store, provider, authenticate } = setUp();
    const rejected = await provider.getToken(SPOT);
    const invalidate = vi.spyOn(store, 'invalidate');

    // Act
    const replacement = await provider.replaceRejectedToken(SPOT, rejected.token);

    // Assess
    expect(invalidate).toHaveBeenCalledWith(SPOT, rejected.token);
    expect(replacement.token).toBe('token-2');
    expect((await provider.getToken(SPOT)).token).toBe('token-2');
    expect(authenticate).toHaveBeenCalledTimes(2);
  });

  it('looks again when a replacement lookup still returns the rejected token', async () => {
    // Prepare: the first invalidation does not take effect (another process wrote the old token back)
    const { clock, store, provider } = setUp();
    await store.put(SPOT, { token: 'rejected', expiresAt: clock.now() + HOUR_MS });
    const invalidate = store.invalidate.bind(store);
    vi.spyOn(store, 'invalidate')
      .mockImplementationOnce(async () => undefined)
      .mockImplementation(invalidate);

    // Act
    const replacement = await provider.replaceRejectedToken(SPOT, 'rejected');

    // Assess
    expect(replacement.token).toBe('token-1');
  });

  it('still returns a fresh token when sharing it fails, and says so', async () => {
    // Prepare
    const onStoreFailure = vi.fn();
    const { store, provider } = setUp({ onStoreFailure });
    const storeError = new Error('table unavailable');
    vi.spyOn(store, 'put').mockRejectedValue(storeError);

    // Act
    const token = await provider.getToken(SPOT);

    // Assess
    expect(token.token).toBe('token-1');
    expect(onStoreFailure).toHaveBeenCalledWith(SPOT, storeError);
  });

  it('rejects a poll interval that is not positive', () => {
    // Act / Assess
    expect(() => setUp({ storePollIntervalMs: 0 })).toThrow(RangeError);
  });
});
