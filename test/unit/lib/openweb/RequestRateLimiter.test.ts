import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestRateLimiter } from '../../../../lib/openweb/RequestRateLimiter';
import { ManualClock, settle } from './support/ManualClock';

describe('RequestRateLimiter', () => {
  it('lets the first request go at once, without sleeping', async () => {
    // Prepare
    const clock = new ManualClock(1_000);
    const limiter = new RequestRateLimiter({ requestsPerSecond: 5, now: clock.now, sleep: clock.sleep });

    // Act
    await limiter.waitForSlot();

    // Assess
    expect(clock.sleeps).toEqual([]);
    expect(clock.now()).toBe(1_000);
  });

  it('starts requests that arrive together one interval apart, in arrival order', async () => {
    // Prepare
    const clock = new ManualClock(0);
    const limiter = new RequestRateLimiter({ requestsPerSecond: 4, now: clock.now, sleep: clock.sleep });
    const startedAt: [number, number][] = [];

    // Act
    const waits = [0, 1, 2, 3, 4].map((index) =>
      limiter.waitForSlot().then(() => {
        startedAt.push([index, clock.now()]);
      }),
    );
    await clock.advance(1_000);
    await Promise.all(waits);

    // Assess
    expect(startedAt).toEqual([
      [0, 0],
      [1, 250],
      [2, 500],
      [3, 750],
      [4, 1_000],
    ]);
  });

  it('does not save up unused slots: after a quiet spell the next request goes at once, the one after waits', async () => {
    // Prepare
    const clock = new ManualClock(0);
    const limiter = new RequestRateLimiter({ requestsPerSecond: 2, now: clock.now, sleep: clock.sleep });
    await limiter.waitForSlot();
    await clock.advance(10_000);

    // Act
    await limiter.waitForSlot();
    const second = limiter.waitForSlot();
    await settle();
    const sleepsBeforeSecond = [...clock.sleeps];
    await clock.advance(500);
    await second;

    // Assess
    expect(sleepsBeforeSecond).toEqual([500]);
    expect(clock.now()).toBe(10_500);
  });

  it('spaces a fractional rate: 0.5 per second is one request every 2 s', async () => {
    // Prepare
    const clock = new ManualClock(0);
    const limiter = new RequestRateLimiter({ requestsPerSecond: 0.5, now: clock.now, sleep: clock.sleep });

    // Act
    await limiter.waitForSlot();
    const second = limiter.waitForSlot();
    await settle();

    // Assess
    expect(clock.sleeps).toEqual([2_000]);
    await clock.advance(2_000);
    await second;
  });

  it('waits again when a sleep ends before the slot on the clock', async () => {
    // Prepare: timers may fire a little early, as timers counted from a cached loop time do
    let nowMs = 0;
    const sleeps: number[] = [];
    const firstSleepOneMsShort = async (ms: number) => {
      sleeps.push(ms);
      nowMs += sleeps.length === 1 ? ms - 1 : ms;
    };
    const limiter = new RequestRateLimiter({
      requestsPerSecond: 10,
      now: () => nowMs,
      sleep: firstSleepOneMsShort,
    });
    await limiter.waitForSlot();

    // Act
    await limiter.waitForSlot();

    // Assess
    expect(sleeps).toEqual([100, 1]);
  });

  it('gives up waiting after a bounded number of sleeps when the clock does not move', async () => {
    // Prepare
    const sleeps: number[] = [];
    const limiter = new RequestRateLimiter({
      requestsPerSecond: 1,
      now: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await limiter.waitForSlot();

    // Act
    await limiter.waitForSlot();

    // Assess
    expect(sleeps).toEqual([1_000, 1_000, 1_000]);
  });

  it('never starts more than the rate within any second, whenever the requests arrive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 40 }),
        async (requestsPerSecond, arrivalsMs) => {
          // Prepare
          const clock = new ManualClock(0);
          const limiter = new RequestRateLimiter({ requestsPerSecond, now: clock.now, sleep: clock.sleep });
          const startsMs: number[] = [];
          const waits: Promise<void>[] = [];
          const arrivals = [...arrivalsMs].sort((a, b) => a - b);

          // Act
          for (const arrivalMs of arrivals) {
            await clock.advance(arrivalMs - clock.now());
            waits.push(limiter.waitForSlot().then(() => void startsMs.push(clock.now())));
          }
          await clock.advance(arrivals.length * 1_000);
          await Promise.all(waits);

          // Assess: in every window (t - 1 s, t] at most requestsPerSecond starts
          for (const endMs of startsMs) {
            const inWindow = startsMs.filter((startMs) => startMs > endMs - 1_000 && startMs <= endMs);
            expect(inWindow.length).toBeLessThanOrEqual(requestsPerSecond);
          }
          expect(startsMs).toHaveLength(arrivals.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each([0, -2, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses requestsPerSecond %s',
    (requestsPerSecond) => {
      // Act / Assess
      expect(
        () => new RequestRateLimiter({ requestsPerSecond, now: () => 0, sleep: async () => undefined }),
      ).toThrow(RangeError);
    },
  );
});
