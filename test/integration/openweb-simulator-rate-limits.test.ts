import { afterEach, describe, expect, it } from 'vitest';
import type { CredentialsProvider } from '../../lib/exports/upstream/CredentialsProvider';
import { UpstreamAuthPacedError } from '../../lib/exports/upstream/errors';
import { OpenWebClient } from '../../lib/openweb/OpenWebClient';
import {
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';
import { InMemoryAuthPacer } from '../support/InMemoryAuthPacer';

const START_MS = Date.parse('2024-05-01T00:00:00Z');
const SPOTS = {
  sp_one: { apiKey: 'key-one' },
  sp_two: { apiKey: 'key-two' },
  sp_three: { apiKey: 'key-three' },
  sp_four: { apiKey: 'key-four' },
};
const SPOT_IDS = Object.keys(SPOTS) as (keyof typeof SPOTS)[];

let simulator: OpenWebSimulator | undefined;

afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

function createClock() {
  let current = START_MS;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
}

async function start(options: OpenWebSimulatorOptions): Promise<OpenWebSimulator> {
  simulator = await startOpenWebSimulator({ authRequestsPerSecond: 0, spots: SPOTS, ...options });
  return simulator;
}

function postAuth(sim: OpenWebSimulator, spotId: keyof typeof SPOTS): Promise<Response> {
  return fetch(`${sim.authBaseUrl}/v1/publisher/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spot_id: spotId, apikey: SPOTS[spotId].apiKey }),
  });
}

async function tokenFor(sim: OpenWebSimulator, spotId: keyof typeof SPOTS): Promise<string> {
  const response = await postAuth(sim, spotId);
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** A list call: the cheapest export call, answered 200 when admitted. */
function listExports(sim: OpenWebSimulator, spotId: string, token: string): Promise<Response> {
  return fetch(`${sim.exportBaseUrl}/v4/export/list`, {
    headers: { authorization: `Bearer ${token}`, 'x-spot-id': spotId },
  });
}

async function statuses(responses: Promise<Response>[]): Promise<number[]> {
  return (await Promise.all(responses)).map((response) => response.status);
}

describe('OpenWeb simulator rate limits', () => {
  it('answers 429 with Retry-After to export calls over exportRequestsPerSecond, counts them, and admits again a second later', async () => {
    // Prepare
    const clock = createClock();
    const sim = await start({ now: clock.now, exportRequestsPerSecond: 2 });
    const token = await tokenFor(sim, 'sp_one');

    // Act
    const first = await listExports(sim, 'sp_one', token);
    const second = await listExports(sim, 'sp_one', token);
    clock.advance(400);
    const third = await listExports(sim, 'sp_one', token);
    clock.advance(600);
    const afterTheSecond = await listExports(sim, 'sp_one', token);

    // Assess
    expect([first.status, second.status, third.status, afterTheSecond.status]).toEqual([200, 200, 429, 200]);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(sim.rateLimitRefusals).toEqual({ auth: 0, exportCalls: 1 });
    expect(sim.requestsTo('list').map((request) => request.status)).toEqual([200, 200, 429, 200]);
  });

  it('counts every spot of one client address together by default', async () => {
    // Prepare
    const sim = await start({ now: createClock().now, exportRequestsPerSecond: 1 });
    const one = await tokenFor(sim, 'sp_one');
    const two = await tokenFor(sim, 'sp_two');

    // Act
    const answered = await statuses([listExports(sim, 'sp_one', one)]);
    answered.push(...(await statuses([listExports(sim, 'sp_two', two)])));

    // Assess
    expect(answered).toEqual([200, 429]);
  });

  it('gives each spot its own count with the spot scope', async () => {
    // Prepare
    const sim = await start({
      now: createClock().now,
      exportRequestsPerSecond: 1,
      exportRateLimitScope: 'spot',
    });
    const one = await tokenFor(sim, 'sp_one');
    const two = await tokenFor(sim, 'sp_two');

    // Act
    const answered = await statuses([listExports(sim, 'sp_one', one), listExports(sim, 'sp_two', two)]);
    answered.push(...(await statuses([listExports(sim, 'sp_one', one)])));

    // Assess
    expect(answered).toEqual([200, 200, 429]);
    expect(sim.rateLimitRefusals.exportCalls).toBe(1);
  });

  it('leaves export calls unlimited by default and does not count auth calls against the export limit', async () => {
    // Prepare
    const sim = await start({ now: createClock().now });
    const token = await tokenFor(sim, 'sp_one');

    // Act
    const answered = await statuses(Array.from({ length: 30 }, () => listExports(sim, 'sp_one', token)));

    // Assess
    expect(answered.every((status) => status === 200)).toBe(true);
    expect(sim.rateLimitRefusals).toEqual({ auth: 0, exportCalls: 0 });
  });

  it('counts auth calls refused by authRequestsPerSecond, and reports both counts on the control surface', async () => {
    // Prepare
    const sim = await start({ now: createClock().now, authRequestsPerSecond: 1, exportRequestsPerSecond: 5 });
    await tokenFor(sim, 'sp_one');

    // Act
    const refusedAuth = await postAuth(sim, 'sp_two');
    const report = await fetch(`${sim.url}/__simulator/rate-limit-refusals`);

    // Assess
    expect(refusedAuth.status).toBe(429);
    expect(report.status).toBe(200);
    expect(await report.json()).toEqual({ auth: 1, exportCalls: 0 });
  });

  it('shares the auth limit of one client address among all its spots, and admits again a second later', async () => {
    // Prepare
    const clock = createClock();
    const sim = await start({ now: clock.now, authRequestsPerSecond: 1 });

    // Act
    const atOnce = await statuses(SPOT_IDS.map((spotId) => postAuth(sim, spotId)));
    clock.advance(1_000);
    const aSecondLater = await statuses([postAuth(sim, 'sp_two'), postAuth(sim, 'sp_three')]);

    // Assess
    expect(atOnce.sort()).toEqual([200, 429, 429, 429]);
    expect(aSecondLater.sort()).toEqual([200, 429]);
    expect(sim.rateLimitRefusals.auth).toBe(4);
  });

  it('answers auth 429s with Retry-After by default and without it when told to', async () => {
    // Prepare
    const withHeader = await startOpenWebSimulator({
      now: createClock().now,
      authRequestsPerSecond: 1,
      spots: SPOTS,
    });
    const sim = await start({
      now: createClock().now,
      authRequestsPerSecond: 1,
      authRateLimitRetryAfter: false,
    });

    try {
      // Act
      await tokenFor(withHeader, 'sp_one');
      await tokenFor(sim, 'sp_one');
      const refusedWithHeader = await postAuth(withHeader, 'sp_two');
      const refusedBare = await postAuth(sim, 'sp_two');

      // Assess
      expect(refusedWithHeader.status).toBe(429);
      expect(refusedWithHeader.headers.get('retry-after')).toBe('1');
      expect(refusedBare.status).toBe(429);
      expect(refusedBare.headers.get('retry-after')).toBeNull();
    } finally {
      await withHeader.close();
    }
  });

  describe('clients of four spots starting at once, auth 429s without Retry-After', () => {
    const credentials: CredentialsProvider = {
      getCredentials: async (spotId) => ({ spotId, apiKey: SPOTS[spotId as keyof typeof SPOTS].apiKey }),
    };

    function clientFor(sim: OpenWebSimulator, pacer?: InMemoryAuthPacer): OpenWebClient {
      return new OpenWebClient({
        authBaseUrl: sim.authBaseUrl,
        exportBaseUrl: sim.exportBaseUrl,
        credentials,
        retry: { maxAttempts: 6, totalBudgetMs: 10_000 },
        ...(pacer !== undefined && { authPacer: pacer }),
      });
    }

    it('all authenticate, waiting a pacing interval after each 429 instead of 100 ms', async () => {
      // Prepare
      const sim = await start({ authRequestsPerSecond: 1, authRateLimitRetryAfter: false });
      const clients = SPOT_IDS.map(() => clientFor(sim));

      // Act
      const results = await Promise.allSettled(
        clients.map((client, index) => client.authenticate(SPOT_IDS[index] as string)),
      );

      // Assess
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      const authCalls = sim.requestLog.filter((entry) => entry.endpoint === 'auth').map((entry) => entry.at);
      authCalls.sort((x, y) => x - y);
      // The four first attempts arrive together; every retry waits at least the 1 s pacing interval.
      expect(authCalls.length).toBeGreaterThan(4);
      expect((authCalls[4] as number) - (authCalls[0] as number)).toBeGreaterThanOrEqual(1_000);
    });

    it('are never refused when they share one auth pacer; the one whose slot is too far off is told when to retry', async () => {
      // Prepare
      const sim = await start({ authRequestsPerSecond: 1, authRateLimitRetryAfter: false });
      const pacer = new InMemoryAuthPacer({ requestsPerSecond: 1 });
      const clients = SPOT_IDS.map(() => clientFor(sim, pacer));

      // Act
      const results = await Promise.allSettled(
        clients.map((client, index) => client.authenticate(SPOT_IDS[index] as string)),
      );

      // Assess: slots now and +1.1 s are within the 2 s wait; +2.2 s is not, and is not reserved.
      const fulfilled = results.filter((result) => result.status === 'fulfilled');
      const rejected = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      expect(fulfilled).toHaveLength(2);
      expect(rejected).toHaveLength(2);
      for (const paced of rejected) {
        expect(paced).toBeInstanceOf(UpstreamAuthPacedError);
        expect(paced.retryAfterMs).toBeGreaterThanOrEqual(2 * pacer.intervalMs - 50);
      }
      expect(sim.requestLog.filter((entry) => entry.endpoint === 'auth')).toHaveLength(2);
      expect(sim.rateLimitRefusals.auth).toBe(0);
    });
  });

  it.each([
    [{ exportRequestsPerSecond: 1.5 }, /exportRequestsPerSecond must be an integer/],
    [{ exportRequestsPerSecond: -1 }, /exportRequestsPerSecond must be a non-negative number/],
    [{ exportRateLimitScope: 'region' as never }, /exportRateLimitScope must be one of clientAddress, spot/],
    [{ timeScale: Number.NaN }, /timeScale must be a non-negative number, got NaN/],
    [{ commentsPerHour: 2.5 }, /commentsPerHour must be an integer, got 2.5/],
    [{ tokenTtlSeconds: '60' as never }, /tokenTtlSeconds must be a non-negative number/],
  ])('refuses the options %j', async (options, message) => {
    // Act / Assess
    await expect(startOpenWebSimulator(options)).rejects.toThrow(message);
  });
});
