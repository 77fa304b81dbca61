import { describe, expect, it } from 'vitest';
import { UpstreamGovernor } from '../../../../lib/openweb/UpstreamGovernor';
import { ManualClock, settle } from './support/ManualClock';

describe('UpstreamGovernor', () => {
  it('starts requests released together by the concurrency cap one rate interval apart', async () => {
    // Prepare
    const clock = new ManualClock(0);
    const governor = new UpstreamGovernor({
      maxConcurrentRequests: 2,
      maxRequestsPerSecond: 10,
      now: clock.now,
      sleep: clock.sleep,
    });
    const startsMs: number[] = [];
    const request = (durationMs: number) => async () => {
      startsMs.push(clock.now());
      await clock.sleep(durationMs);
    };

    // Act: the first two hold their places for 1 s, then four more go through two places
    const requests = [1_000, 1_000, 0, 0, 0, 0].map((durationMs) => governor.run(request(durationMs)));
    await settle();
    const whileFull = { active: governor.active, waiting: governor.waiting };
    await clock.advance(2_000);
    await Promise.all(requests);

    // Assess
    expect(whileFull).toEqual({ active: 2, waiting: 4 });
    expect(startsMs).toEqual([0, 100, 1_000, 1_100, 1_200, 1_300]);
  });

  it('never sleeps without a rate limit', async () => {
    // Prepare
    const clock = new ManualClock(0);
    const governor = new UpstreamGovernor({
      maxConcurrentRequests: 4,
      maxRequestsPerSecond: undefined,
      now: clock.now,
      sleep: clock.sleep,
    });

    // Act
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((value) => governor.run(async () => value)));

    // Assess
    expect(results).toEqual([1, 2, 3, 4, 5, 6]);
    expect(clock.sleeps).toEqual([]);
  });
});
