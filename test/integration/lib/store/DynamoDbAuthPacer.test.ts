import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialsProvider } from '../../../../lib/exports/upstream/CredentialsProvider';
import { UpstreamAuthPacedError } from '../../../../lib/exports/upstream/errors';
import { OpenWebClient } from '../../../../lib/openweb/OpenWebClient';
import { DynamoDbAuthPacer } from '../../../../lib/store/DynamoDbAuthPacer';
import { type OpenWebSimulator, startOpenWebSimulator } from '../../../../local/openweb-simulator/index';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

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

/** What one container got: a slot (when it would send), or the pacer's wait hint. */
type Outcome = { granted: true; sendAtMs: number } | { granted: false; retryAfterMs: number };

/** One acquire by a container of its own (a pacer instance of its own), on a shared virtual clock. */
async function acquireAsContainer(requestsPerSecond: number, now: () => number): Promise<Outcome> {
  let sendAtMs = now();
  const pacer = new DynamoDbAuthPacer({
    client: table.documentClient,
    tableName: table.tableName,
    requestsPerSecond,
    maxWaitMs: MAX_WAIT_MS,
    now,
    sleep: async (ms) => {
      sendAtMs = now() + ms;
    },
  });
  try {
    await pacer.acquire('sp_paced');
    return { granted: true, sendAtMs };
  } catch (error) {
    if (error instanceof UpstreamAuthPacedError) return { granted: false, retryAfterMs: error.retryAfterMs };
    throw error;
  }
}

function acquireConcurrently(requestsPerSecond: number, now: () => number): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: CONTAINERS * CALLS_PER_CONTAINER }, () =>
      acquireAsContainer(requestsPerSecond, now),
    ),
  );
}

function grantedTimes(slots: Outcome[]): number[] {
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
  it('grants only the slots within the wait, one interval apart, and tells the others to wait', async () => {
    // Prepare
    epochMs += 3_600_000;
    const nowMs = epochMs;

    // Act
    const slots = await acquireConcurrently(1, () => nowMs);

    // Assess: now and +1.1 s (1 s plus headroom); +2.2 s is beyond the 2 s wait.
    expect(grantedTimes(slots)).toEqual([nowMs, nowMs + 1_100]);
    const refused = slots.filter((slot) => !slot.granted);
    expect(refused).toHaveLength(CONTAINERS * CALLS_PER_CONTAINER - 2);
    expect(refused.every((slot) => !slot.granted && slot.retryAfterMs >= 1_100)).toBe(true);
  });

  it('keeps the fleet at or under N auth requests per second while the clock moves', async () => {
    // Prepare
    epochMs += 3_600_000;
    let nowMs = epochMs;
    const requestsPerSecond = 2;
    const granted: number[] = [];

    // Act: rounds of concurrent callers, the clock moving by uneven steps in between.
    for (const stepMs of [0, 130, 700, 1_450, 90, 2_600, 333, 999]) {
      nowMs += stepMs;
      granted.push(...grantedTimes(await acquireConcurrently(requestsPerSecond, () => nowMs)));
    }

    // Assess
    granted.sort((a, b) => a - b);
    const gaps = granted.slice(1).map((time, index) => time - (granted[index] as number));
    expect(granted.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000 / requestsPerSecond);
    expect(busiestSecond(granted)).toBeLessThanOrEqual(requestsPerSecond);
  });
});

describe('DynamoDbAuthPacer when a request leaves late', () => {
  it('gives up a slot it woke too late for and takes the next, so no two sends come closer than the limit', async () => {
    // Prepare: a clock that only sleeps move; the first wake (the second request's) is 300 ms late.
    epochMs += 10 * 60 * 1000;
    let clockMs = epochMs;
    const lateness = [300];
    const sends: number[] = [];
    const pacer = new DynamoDbAuthPacer({
      client: table.documentClient,
      tableName: table.tableName,
      requestsPerSecond: 1,
      maxWaitMs: MAX_WAIT_MS,
      now: () => clockMs,
      sleep: async (ms) => {
        clockMs += ms + (lateness.shift() ?? 0);
      },
    });

    // Act: three requests one after another, each sent as soon as its acquire returns.
    for (let request = 0; request < 3; request++) {
      await pacer.acquire('sp_late');
      sends.push(clockMs);
    }

    // Assess
    // The second request's slot was +1.1 s; it woke at +1.4 s, gave that slot up and left at +2.2 s.
    expect(sends.map((at) => at - epochMs)).toEqual([0, 2_200, 3_300]);
    const gaps = sends.slice(1).map((at, index) => at - (sends[index] as number));
    expect(gaps.every((gap) => gap >= 1_000)).toBe(true);
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
        await sleep(Math.max(1, error.retryAfterMs));
      }
    }
  }

  it('keeps the fleet under the upstream auth limit: every spot authenticates, hardly any is refused', async () => {
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
    expect(arrivals.filter((entry) => entry.status === 200)).toHaveLength(6);
    // Slots are reserved before the request travels: one sent later than its slot by more than the
    // 10 % headroom (event-loop lag on a loaded machine) can arrive too close to the next. The
    // upstream then refuses it, the client waits an interval and the fleet is held: at most one.
    expect(sim.rateLimitRefusals.auth).toBeLessThanOrEqual(1);
    const admitted = arrivals.filter((entry) => entry.status === 200).map((entry) => entry.at);
    expect(busiestSecond(admitted)).toBeLessThanOrEqual(requestsPerSecond);
  });
});
