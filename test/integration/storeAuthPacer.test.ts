import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSlot } from '../../lib/openweb/AuthPacer';
import { UpstreamAuthPacedError } from '../../lib/openweb/errors';
import { OpenWebClient } from '../../lib/openweb/OpenWebClient';
import type { CredentialsProvider } from '../../lib/secrets/CredentialsProvider';
import { DynamoDbAuthPacer } from '../../lib/store/DynamoDbAuthPacer';
import { type OpenWebSimulator, startOpenWebSimulator } from '../../local/openweb-simulator/index';
import { type DynaliteTable, startDynaliteTable } from '../support/dynalite';

const CONTAINERS = 8;
const CALLS_PER_CONTAINER = 6;
const MAX_WAIT_MS = 2_000;

let table: DynaliteTable;

beforeAll(async () => {
  table = await startDynaliteTable();
});

afterAll(async () => {
  await table?.close();
});

/** Each test starts its clock far beyond the previous one's slots, and all stay in the past for the real-clock test. */
let epochMs = Date.UTC(2020, 0, 1);

function containers(requestsPerSecond: number, now: () => number): DynamoDbAuthPacer[] {
  return Array.from(
    { length: CONTAINERS },
    () =>
      new DynamoDbAuthPacer({
        client: table.documentClient,
        tableName: table.tableName,
        requestsPerSecond,
        now,
      }),
  );
}

async function acquireConcurrently(pacers: DynamoDbAuthPacer[]): Promise<AuthSlot[]> {
  const calls = pacers.flatMap((pacer) =>
    Array.from({ length: CALLS_PER_CONTAINER }, () => pacer.acquireSlot(MAX_WAIT_MS)),
  );
  return Promise.all(calls);
}

function grantedTimes(slots: AuthSlot[]): number[] {
  return slots.flatMap((slot) => (slot.granted ? [slot.sendAtMs] : [])).sort((a, b) => a - b);
}

/** The most slots that fall into any one-second window. */
function busiestSecond(times: number[]): number {
  let most = 0;
  for (const start of times)
    most = Math.max(most, times.filter((t) => t >= start && t < start + 1_000).length);
  return most;
}

describe('DynamoDbAuthPacer (dynalite, several containers at once)', () => {
  it('grants the slots within the wait one interval apart and refuses the rest with the next free time', async () => {
    // Prepare
    epochMs += 3_600_000;
    const nowMs = epochMs;
    const pacers = containers(1, () => nowMs);

    // Act
    const slots = await acquireConcurrently(pacers);

    // Assess: now and +1.1 s (1 s plus the margin) — the 48 − 2 others are told to come back at +2.2 s.
    expect(grantedTimes(slots)).toEqual([nowMs, nowMs + 1_100]);
    const refused = slots.filter((slot) => !slot.granted);
    expect(refused).toHaveLength(CONTAINERS * CALLS_PER_CONTAINER - 2);
    expect(refused.every((slot) => !slot.granted && slot.nextFreeAtMs === nowMs + 2_200)).toBe(true);
  });

  it('keeps the fleet at or under N auth requests per second while the clock moves', async () => {
    // Prepare
    epochMs += 3_600_000;
    let nowMs = epochMs;
    const requestsPerSecond = 2;
    const pacers = containers(requestsPerSecond, () => nowMs);
    const granted: number[] = [];

    // Act: rounds of concurrent callers, the clock moving by uneven steps in between.
    for (const stepMs of [0, 130, 700, 1_450, 90, 2_600, 333, 999]) {
      nowMs += stepMs;
      granted.push(...grantedTimes(await acquireConcurrently(pacers)));
    }

    // Assess
    granted.sort((a, b) => a - b);
    const gaps = granted.slice(1).map((time, index) => time - (granted[index] as number));
    expect(granted.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000 / requestsPerSecond);
    expect(busiestSecond(granted)).toBeLessThanOrEqual(requestsPerSecond);
  });
});

describe('DynamoDbAuthPacer with OpenWeb clients in several containers against the simulator', () => {
  const SPOTS = Object.fromEntries(
    Array.from({ length: 6 }, (_, index) => [`sp_paced_${index}`, { apiKey: `key-${index}` }]),
  );
  const credentials: CredentialsProvider = {
    getCredentials: async (spotId) => ({ spotId, apiKey: (SPOTS[spotId] as { apiKey: string }).apiKey }),
  };
  let simulator: OpenWebSimulator | undefined;

  afterAll(async () => {
    await simulator?.close();
  });

  /** What the workflow's Retry does with UpstreamAuthPaced: wait for the hinted slot, then try again. */
  async function authenticateLikeAWorkflow(client: OpenWebClient, spotId: string): Promise<void> {
    for (;;) {
      try {
        await client.authenticate(spotId);
        return;
      } catch (error) {
        if (!(error instanceof UpstreamAuthPacedError)) throw error;
        await sleep(error.retryAfterMs);
      }
    }
  }

  it('keeps the fleet under the upstream auth limit: every spot authenticates, none is refused', async () => {
    // Prepare: the simulator admits 2 auth calls per second per address; the fleet paces at 2/s.
    const requestsPerSecond = 2;
    simulator = await startOpenWebSimulator({ spots: SPOTS, authRequestsPerSecond: requestsPerSecond });
    const sim = simulator;
    const containers = Array.from(
      { length: 3 },
      () =>
        new OpenWebClient({
          authBaseUrl: sim.authBaseUrl,
          exportBaseUrl: sim.exportBaseUrl,
          credentials,
          authPacer: new DynamoDbAuthPacer({
            client: table.documentClient,
            tableName: table.tableName,
            requestsPerSecond,
          }),
        }),
    );

    // Act: two spots per container, all at once.
    await Promise.all(
      Object.keys(SPOTS).map((spotId, index) =>
        authenticateLikeAWorkflow(containers[index % containers.length] as OpenWebClient, spotId),
      ),
    );

    // Assess
    const arrivals = sim.requestLog.filter((entry) => entry.endpoint === 'auth');
    expect(arrivals.map((entry) => entry.status)).toEqual(Array(6).fill(200));
    expect(sim.rateLimitRefusals.auth).toBe(0);
    expect(busiestSecond(arrivals.map((entry) => entry.at))).toBeLessThanOrEqual(requestsPerSecond);
  });
});
