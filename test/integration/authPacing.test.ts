import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamAuthPacedError } from '../../lib/exports/upstream/errors';
import { OpenWebClient } from '../../lib/openweb/OpenWebClient';
import { DynamoDbAuthPacer } from '../../lib/store/DynamoDbAuthPacer';
import { type OpenWebSimulator, startOpenWebSimulator } from '../../local/openweb-simulator/index';
import { captureError } from '../support/captureError';
import { type DynaliteTable, startDynaliteTable } from '../support/dynalite';

const NOW_MS = Date.parse('2026-11-01T00:00:00Z');
const CONTAINERS = 6;
const INTERVAL_MS = 1_100;
const SPOTS = Object.fromEntries(
  Array.from({ length: 4 }, (_, index) => [`sp_pace${index}`, { apiKey: `key-${index}` }]),
);

describe('fleet-wide auth pacing through the table', () => {
  let table: DynaliteTable;

  beforeEach(async () => {
    table = await startDynaliteTable();
  });

  afterEach(async () => {
    await table.close();
  });

  /** A container's pacer on the shared table; its sleeps are recorded as the slot each auth got. */
  function containerPacer(slots: number[], maxWaitMs: number): DynamoDbAuthPacer {
    return new DynamoDbAuthPacer({
      client: table.documentClient,
      tableName: table.tableName,
      requestsPerSecond: 1,
      maxWaitMs,
      now: () => NOW_MS,
      sleep: async (ms) => void slots.push(NOW_MS + ms),
    });
  }

  it('gives concurrent containers distinct slots at least one interval apart', async () => {
    // Prepare
    const slots: number[] = [];
    const pacers = Array.from({ length: CONTAINERS }, () => containerPacer(slots, 60_000));

    // Act
    const outcomes = await Promise.allSettled(pacers.map((pacer, index) => pacer.acquire(`sp_${index}`)));

    // Assess: the first slot is now (no sleep); the others are spaced by the interval (1 s plus headroom).
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    const all = [NOW_MS, ...slots].sort((a, b) => a - b);
    expect(all).toHaveLength(CONTAINERS);
    const gaps = all.slice(1).map((slot, index) => slot - (all[index] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);
    expect(all.at(-1)).toBe(NOW_MS + (CONTAINERS - 1) * INTERVAL_MS);
  });

  it('throws UpstreamAuthPaced with the wait, reserving nothing, when the next slot is too far', async () => {
    // Prepare: three slots are taken; the next pacer waits at most two seconds in process.
    const slots: number[] = [];
    for (let index = 0; index < 3; index++) await containerPacer(slots, 60_000).acquire('sp_a');

    // Act
    const paced = await captureError(containerPacer(slots, 2_000).acquire('sp_b'));
    const patient = containerPacer(slots, 60_000);
    await patient.acquire('sp_c');

    // Assess
    expect(paced).toBeInstanceOf(UpstreamAuthPacedError);
    expect((paced as UpstreamAuthPacedError).retryAfterMs).toBe(3 * INTERVAL_MS);
    // The refused caller took no slot: the next one gets the slot right after the three.
    expect(slots.at(-1)).toBe(NOW_MS + 3 * INTERVAL_MS);
  });

  it('holds every container after a 429 until the hold ends', async () => {
    // Prepare
    const slots: number[] = [];
    await containerPacer(slots, 60_000).holdUntil(NOW_MS + 5_000);

    // Act
    await containerPacer(slots, 60_000).acquire('sp_a');
    await containerPacer(slots, 60_000).holdUntil(NOW_MS + 1_000);

    // Assess: a shorter hold never moves the slot back.
    expect(slots).toEqual([NOW_MS + 5_000]);
    const next: number[] = [];
    await containerPacer(next, 60_000).acquire('sp_b');
    expect(next).toEqual([NOW_MS + 5_000 + INTERVAL_MS]);
  });
});

describe('the client against an upstream that limits auth per address', () => {
  let simulator: OpenWebSimulator;
  let table: DynaliteTable;

  afterEach(async () => {
    await simulator.close();
    await table.close();
  });

  function clientFor(
    pacer: DynamoDbAuthPacer | undefined,
    sleeps: number[],
    now: () => number = Date.now,
  ): OpenWebClient {
    return new OpenWebClient({
      authBaseUrl: simulator.authBaseUrl,
      exportBaseUrl: simulator.exportBaseUrl,
      credentials: {
        getCredentials: async (spotId) => ({ spotId, apiKey: SPOTS[spotId]?.apiKey ?? 'none' }),
      },
      ...(pacer !== undefined && { authPacer: pacer }),
      retry: { maxAttempts: 2, totalBudgetMs: 60_000 },
      now,
      sleep: async (ms) => void sleeps.push(ms),
    });
  }

  it('waits at least one second after an auth 429 that carries no Retry-After, never a short backoff', async () => {
    // Prepare: the simulator refuses the second auth of the second without saying when to return.
    simulator = await startOpenWebSimulator({
      spots: SPOTS,
      authRequestsPerSecond: 1,
      authRateLimitRetryAfter: false,
    });
    table = await startDynaliteTable();
    const sleeps: number[] = [];
    await clientFor(undefined, sleeps).authenticate('sp_pace0');

    // Act: another spot from the same address, in the same second.
    const error = await captureError(clientFor(undefined, sleeps).authenticate('sp_pace1'));

    // Assess
    const refused = simulator.requestsTo('auth').filter((request) => request.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(sleeps.length).toBeGreaterThanOrEqual(1);
    expect(Math.min(...sleeps)).toBeGreaterThanOrEqual(1_000);
    expect(error === undefined || error.name === 'UpstreamRateLimitedError').toBe(true);
  });

  it('keeps four cold spots of one fleet under the per-address limit: all authenticate, hardly any refused', async () => {
    // Prepare: four containers, each authenticating a different spot at the same moment.
    simulator = await startOpenWebSimulator({
      spots: SPOTS,
      authRequestsPerSecond: 1,
      authRateLimitRetryAfter: false,
    });
    table = await startDynaliteTable();
    const pacer = () =>
      new DynamoDbAuthPacer({
        client: table.documentClient,
        tableName: table.tableName,
        requestsPerSecond: 1,
        maxWaitMs: 10_000,
      });

    // Act
    const outcomes = await Promise.allSettled(
      Object.keys(SPOTS).map((spotId) =>
        new OpenWebClient({
          authBaseUrl: simulator.authBaseUrl,
          exportBaseUrl: simulator.exportBaseUrl,
          credentials: { getCredentials: async (id) => ({ spotId: id, apiKey: SPOTS[id]?.apiKey ?? '' }) },
          authPacer: pacer(),
        }).authenticate(spotId),
      ),
    );

    // Assess
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const auths = simulator.requestsTo('auth');
    expect(auths.filter((request) => request.status === 200)).toHaveLength(4);
    // A request sent later than its slot by more than the headroom (event-loop lag) may be refused once.
    expect(auths.filter((request) => request.status === 429).length).toBeLessThanOrEqual(1);
  }, 20_000);
});
