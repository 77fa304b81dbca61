import { afterEach, describe, expect, it } from 'vitest';
import {
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';

const START_MS = Date.parse('2024-05-01T00:00:00Z');
const SPOTS = { sp_one: { apiKey: 'key-one' }, sp_two: { apiKey: 'key-two' } };

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

  it.each([
    [{ exportRequestsPerSecond: 1.5 }, /exportRequestsPerSecond must be an integer/],
    [{ exportRequestsPerSecond: -1 }, /exportRequestsPerSecond must be a non-negative number/],
    [{ exportRateLimitScope: 'region' as never }, /exportRateLimitScope must be one of clientAddress, spot/],
  ])('refuses the options %j', async (options, message) => {
    // Act / Assess
    await expect(startOpenWebSimulator(options)).rejects.toThrow(message);
  });
});
