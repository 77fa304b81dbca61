import { describe, expect, it } from 'vitest';
import { authPacingIntervalMs } from '../../../lib/openweb/AuthPacer';
import { UpstreamAuthPacedError, UpstreamRateLimitedError } from '../../../lib/openweb/errors';
import { InMemoryAuthPacer } from '../../../lib/openweb/InMemoryAuthPacer';
import { authSlotLateToleranceMs, waitForAuthSlot } from '../../../lib/openweb/waitForAuthSlot';
import { AUTH_ROUTE, STATUS_ROUTE, TEST_SPOT } from './support/fakeUpstream';
import { createTestClient, rejectionOf } from './support/testClient';

const processing = { status: 200, json: { id: 'exp_1', status: 'Processing' } };
const token = { status: 200, json: { token: 'opaque-token' } };

describe('authPacingIntervalMs', () => {
  it('is one second plus a 10 % margin at the documented 1 request per second', () => {
    expect(authPacingIntervalMs(1)).toBe(1_100);
    expect(authPacingIntervalMs(4)).toBe(275);
  });

  it('rejects a rate that is not > 0', () => {
    expect(() => authPacingIntervalMs(0)).toThrow(RangeError);
    expect(() => authPacingIntervalMs(Number.NaN)).toThrow(RangeError);
  });
});

describe('InMemoryAuthPacer', () => {
  it('hands out slots one interval apart and refuses one beyond the wait without reserving it', async () => {
    // Prepare
    let nowMs = 10_000;
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1, now: () => nowMs });

    // Act
    const slots = [
      await pacer.acquireSlot(2_500),
      await pacer.acquireSlot(2_500),
      await pacer.acquireSlot(2_500),
    ];
    const refused = await pacer.acquireSlot(2_500);
    nowMs += 1_000;
    const afterASecond = await pacer.acquireSlot(2_500);

    // Assess
    expect(slots).toEqual([
      { granted: true, sendAtMs: 10_000 },
      { granted: true, sendAtMs: 11_100 },
      { granted: true, sendAtMs: 12_200 },
    ]);
    expect(refused).toEqual({ granted: false, nextFreeAtMs: 13_300 });
    expect(afterASecond).toEqual({ granted: true, sendAtMs: 13_300 });
  });
});

describe('waitForAuthSlot', () => {
  it('tolerates waking up to the margin late: 100 ms of a 1.1 s interval', () => {
    expect(authSlotLateToleranceMs(1_100)).toBe(100);
  });

  it('gives up a slot it woke too late for and takes the next one, so no two sends come closer than 1 / rate', async () => {
    // Prepare: the first sleep overshoots by 400 ms, as on a busy event loop.
    let nowMs = 50_000;
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1, now: () => nowMs });
    await pacer.acquireSlot(0);
    const overshootsMs = [400, 0];
    const sleep = async (ms: number) => {
      nowMs += ms + (overshootsMs.shift() ?? 0);
    };

    // Act
    await waitForAuthSlot({ pacer, maxWaitMs: 2_500, spotId: 'sp_a', now: () => nowMs, sleep });

    // Assess: slot +1.1 s missed (woke at +1.5 s), slot +2.2 s used.
    expect(nowMs).toBe(52_200);
  });

  it('throws UpstreamAuthPaced when it keeps waking late while other containers take the next slots', async () => {
    // Prepare
    let nowMs = 50_000;
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1, now: () => nowMs });
    const sleep = async (ms: number) => {
      nowMs += ms + 1_500;
      await pacer.acquireSlot(10_000);
    };
    await pacer.acquireSlot(0);

    // Act
    const error = await rejectionOf(
      waitForAuthSlot({ pacer, maxWaitMs: 2_000, spotId: 'sp_a', now: () => nowMs, sleep }),
    );

    // Assess
    expect(error).toBeInstanceOf(UpstreamAuthPacedError);
  });
});

describe('OpenWebClient auth pacing', () => {
  it('waits for its slot before an auth request that is paced soon', async () => {
    // Prepare
    const { clock } = createTestClient();
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1, now: clock.now });
    await pacer.acquireSlot(0);
    const { client, upstream } = createTestClient({
      routes: { [AUTH_ROUTE]: token },
      options: { authPacer: pacer, now: clock.now, sleep: clock.sleep },
    });

    // Act
    await client.authenticate(TEST_SPOT);

    // Assess: another process took the slot free now; this one is sent one interval later.
    expect(clock.sleeps).toEqual([1_100]);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(1);
  });

  it('throws UpstreamAuthPaced with the slot time, sending nothing, when no slot is free soon', async () => {
    // Prepare
    const setup = createTestClient({ routes: { [AUTH_ROUTE]: token, [STATUS_ROUTE]: processing } });
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1, now: setup.clock.now });
    for (let taken = 0; taken < 5; taken++) await pacer.acquireSlot(10_000);
    const { client, upstream, clock } = createTestClient({
      routes: { [AUTH_ROUTE]: token, [STATUS_ROUTE]: processing },
      options: { authPacer: pacer, authSlotMaxWaitMs: 2_000, now: setup.clock.now, sleep: setup.clock.sleep },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamAuthPacedError);
    expect(error).toMatchObject({ name: 'UpstreamAuthPaced', retryAfterMs: 5_500 });
    expect((error as UpstreamAuthPacedError).retryAtMs).toBe(setup.clock.now() + 5_500);
    expect(upstream.requests).toHaveLength(0);
    expect(clock.sleeps).toEqual([]);
    // Handled wherever rate limiting is (transient, nothing created), but no upstream status.
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect((error as UpstreamAuthPacedError).statusCode).toBeUndefined();
  });

  it('waits at least one pacing interval after an auth 429 without Retry-After', async () => {
    // Prepare
    const { client, clock, upstream } = createTestClient({
      routes: { [AUTH_ROUTE]: [{ status: 429 }, token] },
      options: { retry: { totalBudgetMs: 5_000 } },
    });

    // Act
    await client.authenticate(TEST_SPOT);

    // Assess: the 1.1 s interval of the documented rate plus half of the 200 ms first backoff (random 0.5).
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    expect(clock.sleeps).toEqual([1_200]);
  });

  it('waits the paced interval of a configured rate after an auth 429 without Retry-After', async () => {
    // Prepare
    const setup = createTestClient();
    const pacer = new InMemoryAuthPacer({ requestsPerSecond: 0.5, now: setup.clock.now });
    const { client } = createTestClient({
      routes: { [AUTH_ROUTE]: [{ status: 429 }, token] },
      options: {
        authPacer: pacer,
        retry: { totalBudgetMs: 5_000 },
        now: setup.clock.now,
        sleep: setup.clock.sleep,
      },
    });

    // Act
    await client.authenticate(TEST_SPOT);

    // Assess: the 2.2 s interval of 0.5 auth/s plus half the first backoff; the next slot is then already free.
    expect(setup.clock.sleeps).toEqual([2_300]);
  });

  it('honours an auth 429 Retry-After instead of the pacing interval', async () => {
    // Prepare
    const { client, clock } = createTestClient({
      routes: { [AUTH_ROUTE]: [{ status: 429, headers: { 'retry-after': '3' } }, token] },
      options: { retry: { totalBudgetMs: 5_000 } },
    });

    // Act
    await client.authenticate(TEST_SPOT);

    // Assess
    expect(clock.sleeps).toEqual([3_000]);
  });
});
