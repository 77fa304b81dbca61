import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSlot } from '../../lib/openweb/AuthPacer';
import { DynamoDbAuthPacer } from '../../lib/store/DynamoDbAuthPacer';
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

/** Fresh table item per test: each test starts its clock far beyond the previous one's slots. */
let epochMs = Date.UTC(2026, 0, 1);

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
