// A fleet of spots on an hourly schedule, on the local runtime in this process on loopback:
// `npm run bench:fleet [N …]` (default 10 100 1000; or FLEET_SPOTS=10,100). One run per N, each on
// a fresh runtime: dynalite, the simulator (one export per spot at a time, its auth limit of one
// request per second per client address), the handlers, the synthesized state machine run
// locally, the schedules (every spot on `rate(1 hour)`, each run fired within
// FLEET_FLEXIBLE_WINDOW_MINUTES of its hour, 0 for all at :00), the reconciler at its deployed
// rate. Time is simulated, on one scale for every N of the run: a simulated hour lasts
// FLEET_REAL_SECONDS_PER_SPOT_HOUR (default 1) × the largest N real seconds (at least 18 s;
// FLEET_TIME_SCALE fixes the scale instead), so the largest fleet keeps up and each export sees
// the same simulated durations at every N; the simulator's auth limit and the fleet's auth pacing
// are scaled with it (one per simulated second, at least 6 per real second). Each spot holds its
// upstream token before the first run, as on every day after its first (FLEET_WARM_TOKENS=0: none,
// the fleet's cold first hour). After FLEET_HOURS (default 2) runs of each schedule,
// later runs are not delivered and the runtime finishes what is in flight (bounded; FLEET_LOG_LEVEL,
// SILENT by default, shows the handlers' log lines at that level). Printed per
// N, per spot-day (× 24 ÷ FLEET_HOURS ÷ N):
//   - exports completed (and archived), gaps (windows given up on or never covered, and hours
//     between a spot's windows that none covers) and windows exported twice (upstream exports of
//     a spot whose ranges overlap): goals 0 and 0;
//   - table requests, items read, read and write capacity units, index writes, counted by a
//     middleware on the table's client (the units as dynalite reports them, DynamoDB's rule), but
//     the reconciler's: a sweep's work does not depend on N (its own rows below), so its share per
//     spot shrinks as N grows;
//   - state transitions (states entered and retried, what Step Functions bills), handler
//     invocations, upstream calls;
//   - the reconciler per sweep: table requests, items read, read units (median and max);
//   - the most-written partition key (the table's or an index's) with its writes per spot-day and
//     its peak writes in any real second.
// Goals, across the N of one run: each per spot-day figure within ± 10 % of the smallest N's, and
// the reconciler's median items read per sweep not growing with N. Exits with 1 when a goal is missed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ReconcileSummary } from '../../lib/exports/reconciler/reconcileExports';
import { HandlerNames } from '../../lib/http/routeTable';
import { readAuthToken } from '../../lib/openweb/responses';
import { tokenExpiresAt } from '../../lib/openweb/TokenProvider';
import { DynamoDbTokenStore } from '../../lib/store/DynamoDbTokenStore';
import { ExportTableAttribute, ExportTableIndex } from '../../lib/store/tableDefinition';
import { ReconcilerIndexPartition } from '../../lib/store/tableKeys';
import { parseLocalRuntimeSettings } from '../../local/localRuntimeSettings';
import { LOCAL_TABLE_NAME } from '../../local/localStores';
import type { SimulatedExportView, SimulatorRequest } from '../../local/openweb-simulator/index';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { type LocalRuntime, startLocalRuntime } from '../../local/startLocalRuntime';
import { median } from './support/median';
import { peakPerSecond, type SweepWork, TableCalls, type TableWork } from './support/tableCalls';

const DEFAULT_FLEET_SIZES = [10, 100, 1000];
const HOURS = Number(process.env.FLEET_HOURS ?? 2);
/**
 * Real seconds a simulated hour lasts per spot of the run's largest N: one process plays every
 * service here, and at this pace it keeps up with a fleet of that size (1,000 spots: a simulated
 * hour in about 17 real minutes) on a machine that other work loads too.
 */
const REAL_SECONDS_PER_SPOT_HOUR = Number(process.env.FLEET_REAL_SECONDS_PER_SPOT_HOUR ?? 1);
/** However few the spots, a simulated hour lasts at least this long (real seconds). */
const MIN_REAL_SECONDS_PER_HOUR = 18;
/**
 * One time scale for every N of a run, the largest N's (FLEET_TIME_SCALE fixes it instead): the
 * handlers' real latency is not scaled, so at a faster scale it would stand for more simulated
 * time (an export found finished at its first poll), and the work per export would differ by N for
 * no reason of the system's.
 */
function timeScaleFor(sizes: readonly number[]): number {
  if (process.env.FLEET_TIME_SCALE !== undefined) return Number(process.env.FLEET_TIME_SCALE);
  const largest = Math.max(...sizes);
  return Math.max(MIN_REAL_SECONDS_PER_HOUR, largest * REAL_SECONDS_PER_SPOT_HOUR) / SECONDS_PER_HOUR;
}
/**
 * The fewest auths a real second the run allows and paces. At 5 a second or fewer the fleet's pacer also
 * gives up a slot its request leaves later than the spacing's headroom (25 ms at 4 a second,
 * lib/store/DynamoDbAuthPacer.ts), which one process playing every service for 1,000 spots misses
 * at every reservation: at 4 a second no auth ever left.
 */
const MIN_AUTH_PER_REAL_SECOND = 6;
/** Records per simulated export: the archive's work per export stays small and alike across N. */
const RECORDS_PER_EXPORT = Number(process.env.FLEET_RECORDS_PER_EXPORT ?? 5);
/**
 * Scheduler's flexible time window, minutes (0: none, every spot at :00). One process plays every
 * service here: an hour's runs spread over its first minutes keep the machine from starving its
 * own table client; the per-spot work is the same (the window still ends at the scheduled time).
 */
const FLEXIBLE_WINDOW_MINUTES = Number(process.env.FLEET_FLEXIBLE_WINDOW_MINUTES ?? 20);
const SCHEDULE = {
  expression: 'rate(1 hour)',
  window: 'PT1H',
  ...(FLEXIBLE_WINDOW_MINUTES > 0 && { flexibleWindowMinutes: FLEXIBLE_WINDOW_MINUTES }),
};
const MS_PER_SECOND = 1000;
const SECONDS_PER_HOUR = 3600;
const HOURS_PER_DAY = 24;
/** After the last run, what is in flight must finish within this (real time). */
const DRAIN_TIMEOUT_MS = 180_000;
const DRAIN_POLL_MS = 1000;
/** Attempts of the measurement's own final reads. */
const BENCH_READ_ATTEMPTS = 5;
const FLAT_TOLERANCE = 0.1;
/** The reconciler's median items read per sweep may grow this much across N (a few items of noise). */
const SWEEP_ITEMS_TOLERANCE = 5;
const TERMINAL_WINDOW_STATES = new Set(['COVERED', 'GAP']);
/**
 * FLEET_WARM_TOKENS=0 starts every spot without a token. By default each spot holds its upstream
 * token before the measured hours begin, as it does on every day after its first (a token lasts
 * 24 h): a fleet's first hour is spent queueing for the shared auth limit (1 a second per address,
 * N seconds for N spots), which says how long a cold start takes, not what a spot-day costs.
 */
const WARM_TOKENS = process.env.FLEET_WARM_TOKENS !== '0';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// A stopped runtime closes dynalite under handler calls still in flight (past the stop's grace on
// a starved machine); dynalite throws that from a callback. It ends that run's calls, not the bench.
process.on('uncaughtException', (error) => {
  if (error instanceof Error && error.message === 'Database is closed') return;
  throw error;
});

interface FleetFigures {
  spots: number;
  timeScale: number;
  /** Tokens issued to the spots before the measured hours (their auth calls not counted). */
  warmTokens: number;
  realSeconds: number;
  drainSeconds: number;
  scheduleRuns: number;
  exportsCompleted: number;
  exportsArchived: number;
  exportsOther: Record<string, number>;
  windows: number;
  gaps: number;
  exportedTwice: number;
  /** Every counted table call. */
  table: TableWork;
  /** Of those, the reconciler's (per sweep in its own rows: it does not grow with the spots). */
  reconcilerTable: TableWork | undefined;
  transitions: number;
  invocations: Record<string, number>;
  upstream: Record<string, number>;
  sweeps: (SweepWork & { summary?: ReconcileSummary })[];
  hottest: { partition: string; writes: number; peakPerSecond: number }[];
  problems: string[];
}

function fleetSizes(): number[] {
  const fromArgs = process.argv.slice(2).filter((arg) => /^\d+$/.test(arg));
  const fromEnv = (process.env.FLEET_SPOTS ?? '').split(',').filter((text) => /^\d+$/.test(text.trim()));
  const sizes = (fromArgs.length > 0 ? fromArgs : fromEnv).map(Number);
  return sizes.length > 0 ? sizes : DEFAULT_FLEET_SIZES;
}

function spotIdsOf(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `sp_fleet${String(index).padStart(5, '0')}`);
}

function tally(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/**
 * The measurement's own reads, asked again when the loaded machine times one out: the figures of a
 * run that got this far are not lost to one slow answer.
 */
async function untilAnswered<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= BENCH_READ_ATTEMPTS) throw error;
      await sleep(DRAIN_POLL_MS);
    }
  }
}

async function scanAll(client: DynamoDBDocumentClient): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: LOCAL_TABLE_NAME,
        FilterExpression: 'entityType IN (:export, :window)',
        ExpressionAttributeValues: { ':export': 'EXPORT', ':window': 'COVERAGE_WINDOW' },
        ...(startKey !== undefined && { ExclusiveStartKey: startKey }),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

/** Whether the reconciler's index holds nothing: no export active, queued or archiving. */
async function indexIsEmpty(client: DynamoDBDocumentClient): Promise<boolean> {
  // Freshness marks (FRESHNESS_DUE) and the fleet's list of spots (SPOTS) stay in the index for
  // good: they are not work in flight.
  const notInFlight = new Set<string>([
    ReconcilerIndexPartition.FRESHNESS_DUE,
    ReconcilerIndexPartition.SPOTS,
  ]);
  const inFlight = Object.values(ReconcilerIndexPartition).filter((partition) => !notInFlight.has(partition));
  for (const partition of inFlight) {
    const page = await client.send(
      new QueryCommand({
        TableName: LOCAL_TABLE_NAME,
        IndexName: ExportTableIndex.activeByLastPolled,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': ExportTableAttribute.activeIndexPartitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        Limit: 1,
      }),
    );
    if ((page.Items ?? []).length > 0) return false;
  }
  return true;
}

/** Upstream exports of one spot whose ranges overlap another's: a window exported twice. */
function exportedTwice(upstream: readonly SimulatedExportView[]): number {
  const bySpot = new Map<string, { fromMs: number; untilMs: number }[]>();
  for (const created of upstream) {
    const range = {
      fromMs: Date.parse(String(created.request.from)),
      untilMs: Date.parse(String(created.request.until)),
    };
    bySpot.set(created.spotId, [...(bySpot.get(created.spotId) ?? []), range]);
  }
  let twice = 0;
  for (const ranges of bySpot.values()) {
    ranges.sort((a, b) => a.fromMs - b.fromMs);
    for (let index = 1; index < ranges.length; index++) {
      if ((ranges[index] as { fromMs: number }).fromMs < (ranges[index - 1] as { untilMs: number }).untilMs)
        twice += 1;
    }
  }
  return twice;
}

/** Windows given up on or never covered, and the hours between a spot's windows that none covers. */
function gapsOf(windows: readonly Record<string, unknown>[]): number {
  let gaps = windows.filter((window) => !TERMINAL_WINDOW_STATES.has(String(window.state))).length;
  gaps += windows.filter((window) => window.state === 'GAP').length;
  const bySpot = new Map<string, { fromMs: number; untilMs: number }[]>();
  for (const window of windows) {
    const spotId = String(window.spotId);
    const range = { fromMs: Date.parse(String(window.from)), untilMs: Date.parse(String(window.until)) };
    bySpot.set(spotId, [...(bySpot.get(spotId) ?? []), range]);
  }
  for (const ranges of bySpot.values()) {
    ranges.sort((a, b) => a.fromMs - b.fromMs);
    for (let index = 1; index < ranges.length; index++) {
      if ((ranges[index] as { fromMs: number }).fromMs > (ranges[index - 1] as { untilMs: number }).untilMs)
        gaps += 1;
    }
  }
  return gaps;
}

/**
 * Each spot's token, asked of the simulator at its auth limit and kept where the functions keep
 * it (the table's token item), as a spot has it on every day after its first. Answers how many
 * auth calls it took (refused ones included); they are not counted in the figures.
 */
async function warmTokens(
  simulatorUrl: string,
  tokens: DynamoDbTokenStore,
  spotIds: readonly string[],
  authPerRealSecond: number,
): Promise<number> {
  const spacingMs = Math.ceil(MS_PER_SECOND / authPerRealSecond) + 5;
  let calls = 0;
  for (const spotId of spotIds) {
    for (;;) {
      calls += 1;
      const response = await fetch(`${simulatorUrl}/v1/publisher/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ spot_id: spotId, apikey: apiKeyOf(spotId) }),
      });
      const bodyText = await response.text();
      await sleep(spacingMs);
      if (response.status === 429) continue;
      if (!response.ok) throw new Error(`auth of ${spotId}: HTTP ${response.status}`);
      const token = readAuthToken({ statusCode: response.status, bodyText });
      await untilAnswered(() => tokens.put(spotId, { token, expiresAt: tokenExpiresAt(token, Date.now()) }));
      break;
    }
  }
  return calls;
}

function apiKeyOf(spotId: string): string {
  return `fleet-key-${spotId}`;
}

async function runFleet(spotCount: number, timeScale: number): Promise<FleetFigures> {
  const spotIds = spotIdsOf(spotCount);
  const directory = mkdtempSync(join(tmpdir(), 'openweb-exports-fleet-'));
  const secretsFile = join(directory, 'spots.json');
  writeFileSync(
    secretsFile,
    JSON.stringify(Object.fromEntries(spotIds.map((spotId) => [spotId, { apiKey: apiKeyOf(spotId) }]))),
  );
  // One auth per simulated second (at least MIN_AUTH_PER_REAL_SECOND), for the simulator's limit
  // and the fleet's pacing alike.
  const authPerRealSecond = String(Math.max(MIN_AUTH_PER_REAL_SECOND, Math.round(1 / timeScale)));
  const stackConfig = { spots: spotIds.map((spotId) => ({ spotId, schedules: [SCHEDULE] })) };
  const parsed = parseLocalRuntimeSettings(
    {
      PORT: '0',
      SIMULATOR_PORT: '0',
      LOCAL_DATA_DIR: 'memory',
      LOCAL_SECRETS_FILE: secretsFile,
      LOCAL_TIME_SCALE: String(timeScale),
      LOCAL_STACK_CONFIG: JSON.stringify(stackConfig),
      SIMULATOR_AUTH_REQUESTS_PER_SECOND: authPerRealSecond,
      SIMULATOR_RECORDS_PER_EXPORT: String(RECORDS_PER_EXPORT),
      LOG_LEVEL: process.env.FLEET_LOG_LEVEL ?? 'SILENT',
    },
    { cwd: LOCAL_PROJECT_ROOT, projectRoot: LOCAL_PROJECT_ROOT },
  );
  // The state machine's definition does not depend on the spots: synthesized (or cached) without
  // them, rather than a stack of N schedules each time N changes.
  const settings = { ...parsed, rawStackConfig: {} };

  const calls = new TableCalls();
  let client: DynamoDBDocumentClient | undefined;
  const runsBySpot = new Map<string, number>();
  let scheduleRuns = 0;
  let lastRunAtMs = 0;
  let transitions = 0;
  const invocations: string[] = [];
  const sweeps: (SweepWork & { summary?: ReconcileSummary })[] = [];
  let counting = true;
  const problems: string[] = [];

  const runtime: LocalRuntime = await startLocalRuntime({
    settings,
    env: { UPSTREAM_AUTH_REQUESTS_PER_SECOND: authPerRealSecond },
    say: (line) => {
      if (/\b[1-9]\d* failed\b|workflow \S+ failed|^schedule \S+ failed/.test(line)) problems.push(line);
    },
    observers: {
      documentClient: (documentClient) => {
        client = documentClient;
        calls.watch(documentClient);
      },
      invocation: (handler, event, run) => {
        const scheduled = event as { source?: string; spotId?: string };
        if (handler === HandlerNames.START && scheduled.source === 'schedule') {
          const spotId = String(scheduled.spotId);
          const runs = runsBySpot.get(spotId) ?? 0;
          // The simulated day is over for this spot: Scheduler delivers no further run.
          if (runs >= HOURS) return Promise.resolve(undefined);
          runsBySpot.set(spotId, runs + 1);
          scheduleRuns += 1;
          lastRunAtMs = Date.now();
        }
        if (counting) invocations.push(handler);
        if (handler !== HandlerNames.RECONCILE || !counting) return calls.context.run({ handler }, run);
        const sweep: SweepWork & { summary?: ReconcileSummary } = {
          requests: 0,
          itemsRead: 0,
          readUnits: 0,
          writes: 0,
        };
        sweeps.push(sweep);
        return calls.context.run({ handler, sweep }, async () => {
          const summary = await run();
          sweep.summary = summary as ReconcileSummary;
          return summary;
        });
      },
      workflowHistoryEvent: (_name, event) => {
        if (counting && (event.type === 'StateEntered' || event.type === 'StateRetried')) transitions += 1;
      },
    },
  }).catch((error: unknown) => {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  });
  const startedAtMs = Date.now();
  const table = client as DynamoDBDocumentClient;
  try {
    const simulatorUrl = runtime.simulatorUrl as string;
    // Before the first run fires (an hour after the start): each spot's token, not counted.
    let warmTokenCalls = 0;
    let requestsBeforeDay = 0;
    if (WARM_TOKENS) {
      const tokens = new DynamoDbTokenStore({ client: table, tableName: LOCAL_TABLE_NAME });
      warmTokenCalls = await calls.context.run({ handler: 'bench' }, () =>
        warmTokens(simulatorUrl, tokens, spotIds, Number(authPerRealSecond)),
      );
      requestsBeforeDay = (
        await getJson<{ requests: SimulatorRequest[] }>(`${simulatorUrl}/__simulator/requests`)
      ).requests.length;
      if (scheduleRuns > 0)
        problems.push(
          `${scheduleRuns} schedule runs fired before every spot had its token: the hour is too short`,
        );
    }
    // The day: every spot's schedule runs HOURS times.
    const dayMs = HOURS * SECONDS_PER_HOUR * MS_PER_SECOND * timeScale;
    await sleep(Math.max(0, startedAtMs + dayMs - Date.now()));
    // The last hour's runs fire up to the flexible window after it (scaled), then may start late.
    const flexibleWindowMs = FLEXIBLE_WINDOW_MINUTES * 60 * MS_PER_SECOND * timeScale;
    const dayDeadline = Date.now() + flexibleWindowMs + DRAIN_TIMEOUT_MS;
    while (scheduleRuns < HOURS * spotCount && Date.now() < dayDeadline) await sleep(DRAIN_POLL_MS);
    if (scheduleRuns < HOURS * spotCount)
      problems.push(`${HOURS * spotCount - scheduleRuns} schedule runs had not fired when the day was over`);
    // Then what is in flight finishes: nothing active, queued or archiving, every window settled.
    const drainStartedAtMs = Date.now();
    const drainDeadline = drainStartedAtMs + DRAIN_TIMEOUT_MS;
    // (An export's window waits in the index's WINDOW_DUE partition until it is covered or given up on.)
    for (;;) {
      const settled = await calls.context.run({ handler: 'bench' }, () =>
        indexIsEmpty(table).catch(() => false),
      );
      if (settled || Date.now() > drainDeadline) break;
      await sleep(DRAIN_POLL_MS);
    }
    counting = false;
    calls.stop();
    const realSeconds = (Date.now() - startedAtMs) / MS_PER_SECOND;
    const drainSeconds = (Date.now() - Math.max(drainStartedAtMs, lastRunAtMs)) / MS_PER_SECOND;

    const items = await calls.context.run({ handler: 'bench' }, () => untilAnswered(() => scanAll(table)));
    const exports = items.filter((item) => item.entityType === 'EXPORT');
    const windows = items.filter((item) => item.entityType === 'COVERAGE_WINDOW');
    const upstream = (
      await getJson<{ exports: SimulatedExportView[] }>(`${runtime.simulatorUrl}/__simulator/exports`)
    ).exports;
    const requests = (
      await getJson<{ requests: SimulatorRequest[] }>(`${runtime.simulatorUrl}/__simulator/requests`)
    ).requests.slice(requestsBeforeDay);
    const hottest = [...calls.writesByPartition]
      .map(([partition, instants]) => ({
        partition,
        writes: instants.length,
        peakPerSecond: peakPerSecond(instants),
      }))
      .sort((a, b) => b.writes - a.writes)
      .slice(0, 3);
    const completed = exports.filter((item) => item.status === 'COMPLETED');
    return {
      spots: spotCount,
      timeScale,
      warmTokens: warmTokenCalls,
      realSeconds,
      drainSeconds,
      scheduleRuns,
      exportsCompleted: completed.length,
      exportsArchived: completed.filter(
        (item) => (item.archive as { status?: string } | undefined)?.status === 'ARCHIVED',
      ).length,
      exportsOther: tally(
        exports.filter((item) => item.status !== 'COMPLETED').map((item) => String(item.status)),
      ),
      windows: windows.length,
      gaps: gapsOf(windows),
      exportedTwice: exportedTwice(upstream),
      table: calls.total,
      reconcilerTable: calls.byHandler.get(HandlerNames.RECONCILE),
      transitions,
      invocations: tally(invocations),
      upstream: tally(
        requests.filter((request) => request.endpoint !== 'control').map((request) => request.endpoint),
      ),
      sweeps,
      hottest,
      problems,
    };
  } finally {
    await runtime.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

/** Per spot-day: ÷ spots × simulated days. */
function perSpotDay(figures: FleetFigures, value: number): number {
  return value / (figures.spots * (HOURS / HOURS_PER_DAY));
}

interface Row {
  label: string;
  /** Per spot-day figures must stay flat across N. */
  flat: boolean;
  value: (figures: FleetFigures) => number;
  digits: number;
}

/** The table work of the spots' exports: every counted call but the reconciler's sweeps. */
function exportsTableWork(f: FleetFigures, field: Exclude<keyof TableWork, 'byOperation'>): number {
  return f.table[field] - (f.reconcilerTable?.[field] ?? 0);
}

const sum = (counts: Record<string, number>) =>
  Object.values(counts).reduce((total, count) => total + count, 0);

const ROWS: Row[] = [
  {
    label: 'exports completed, per spot-day',
    flat: true,
    value: (f) => perSpotDay(f, f.exportsCompleted),
    digits: 2,
  },
  {
    label: 'exports archived, per spot-day',
    flat: true,
    value: (f) => perSpotDay(f, f.exportsArchived),
    digits: 2,
  },
  { label: 'gaps', flat: false, value: (f) => f.gaps, digits: 0 },
  { label: 'windows exported twice', flat: false, value: (f) => f.exportedTwice, digits: 0 },
  {
    label: "table requests but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'requests')),
    digits: 1,
  },
  {
    label: "table reads (requests) but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'reads')),
    digits: 1,
  },
  {
    label: "items read but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'itemsRead')),
    digits: 1,
  },
  {
    label: "read units but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'readUnits')),
    digits: 1,
  },
  {
    label: "table writes (items) but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'writes')),
    digits: 1,
  },
  {
    label: "write units but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'writeUnits')),
    digits: 1,
  },
  {
    label: "index writes but the reconciler's, per spot-day",
    flat: true,
    value: (f) => perSpotDay(f, exportsTableWork(f, 'indexWrites')),
    digits: 1,
  },
  {
    label: 'state transitions, per spot-day',
    flat: true,
    value: (f) => perSpotDay(f, f.transitions),
    digits: 1,
  },
  {
    label: 'invocations (all handlers), per spot-day',
    flat: true,
    value: (f) => perSpotDay(f, sum(f.invocations) - (f.invocations[HandlerNames.RECONCILE] ?? 0)),
    digits: 1,
  },
  {
    // A token lasts 24 h: a run of up to a day signs each spot in once, whatever its length; the
    // calls that issued the tokens before the measured hours are counted here (and only here).
    label: 'upstream auth calls, per spot (the run)',
    flat: false,
    value: (f) => ((f.upstream.auth ?? 0) + f.warmTokens) / f.spots,
    digits: 2,
  },
  {
    label: 'upstream calls, per spot-day',
    flat: true,
    value: (f) => perSpotDay(f, sum(f.upstream)),
    digits: 1,
  },
  { label: 'reconciler sweeps', flat: false, value: (f) => f.sweeps.length, digits: 0 },
  {
    label: 'reconciler: items read per sweep, median',
    flat: false,
    value: (f) => median(f.sweeps.map((s) => s.itemsRead)),
    digits: 1,
  },
  {
    label: 'reconciler: items read per sweep, max',
    flat: false,
    value: (f) => Math.max(...f.sweeps.map((s) => s.itemsRead)),
    digits: 0,
  },
  {
    label: 'reconciler: table requests per sweep, median',
    flat: false,
    value: (f) => median(f.sweeps.map((s) => s.requests)),
    digits: 1,
  },
  {
    label: 'reconciler: read units per sweep, median',
    flat: false,
    value: (f) => median(f.sweeps.map((s) => s.readUnits)),
    digits: 1,
  },
  {
    label: 'most-written partition: writes per spot-day',
    flat: false,
    value: (f) => perSpotDay(f, f.hottest[0]?.writes ?? 0),
    digits: 1,
  },
  {
    label: 'most-written partition: peak writes in a real second',
    flat: false,
    value: (f) => f.hottest[0]?.peakPerSecond ?? 0,
    digits: 0,
  },
];

function missedGoals(all: readonly FleetFigures[]): string[] {
  const missed: string[] = [];
  for (const f of all) {
    if (f.gaps > 0) missed.push(`N=${f.spots}: ${f.gaps} gaps`);
    if (f.exportedTwice > 0) missed.push(`N=${f.spots}: ${f.exportedTwice} windows exported twice`);
    if (f.scheduleRuns !== HOURS * f.spots)
      missed.push(`N=${f.spots}: ${f.scheduleRuns} schedule runs fired of ${HOURS * f.spots}`);
    if (f.exportsCompleted !== f.scheduleRuns)
      missed.push(`N=${f.spots}: ${f.exportsCompleted} exports completed of ${f.scheduleRuns} runs`);
  }
  const base = all[0];
  if (base === undefined) return missed;
  for (const row of ROWS.filter((r) => r.flat)) {
    const reference = row.value(base);
    for (const f of all.slice(1)) {
      const ratio = row.value(f) / reference;
      if (!(Math.abs(ratio - 1) <= FLAT_TOLERANCE))
        missed.push(`N=${f.spots}: ${row.label} ${fixed(ratio, 3)} × N=${base.spots}'s`);
    }
  }
  const baseSweep = median(base.sweeps.map((s) => s.itemsRead));
  for (const f of all.slice(1)) {
    const sweep = median(f.sweeps.map((s) => s.itemsRead));
    if (!(sweep <= baseSweep + SWEEP_ITEMS_TOLERANCE))
      missed.push(
        `N=${f.spots}: the reconciler reads ${fixed(sweep, 1)} items per sweep (N=${base.spots}: ${fixed(baseSweep, 1)})`,
      );
  }
  return missed;
}

function report(all: readonly FleetFigures[], date: string): string[] {
  const header = `| figure | ${all.map((f) => `N = ${f.spots.toLocaleString('en-US')}`).join(' | ')} |`;
  const rule = `|---|${all.map(() => '---').join('|')}|`;
  const rows = ROWS.map(
    (row) => `| ${row.label} | ${all.map((f) => fixed(row.value(f), row.digits)).join(' | ')} |`,
  );
  const detail = all.flatMap((f) => [
    `N=${f.spots} (time scale ${f.timeScale.toFixed(4)}, a simulated hour ${fixed(SECONDS_PER_HOUR * f.timeScale, 0)} s): ${f.scheduleRuns} schedule runs, ${f.windows} windows, ${f.exportsCompleted} completed ` +
      `(${f.exportsArchived} archived), other final states ${JSON.stringify(f.exportsOther)}; ` +
      `${fixed(f.realSeconds, 0)} s real (drain after the last run ${fixed(f.drainSeconds, 0)} s); ` +
      `${f.warmTokens} auth calls issued the spots' tokens before the measured hours (not counted)`,
    `  invocations: ${JSON.stringify(f.invocations)}; upstream calls: ${JSON.stringify(f.upstream)}`,
    `  table requests by operation: ${JSON.stringify(f.table.byOperation)}`,
    `  most-written partitions: ${f.hottest
      .map((hot) => `${hot.partition} ${hot.writes} writes (peak ${hot.peakPerSecond}/s)`)
      .join('; ')}`,
    ...(f.problems.length > 0
      ? [
          `  runtime reported ${f.problems.length} failure line(s), the first distinct ones:`,
          ...[...new Set(f.problems.map((line) => line.replace(/sp_fleet\d+|ex_\w+|\d{4}-\S+/g, '…')))]
            .slice(0, 6)
            .map((line) => `    ${line.slice(0, 300)}`),
        ]
      : []),
  ]);
  return [
    `Fleet on the local runtime (${date}; in process, loopback, in-memory table): N spots, each on rate(1 hour), ` +
      `for ${HOURS} simulated hours (figures per spot-day: × 24 ÷ ${HOURS} ÷ N); a simulated hour lasts ` +
      `${fixed(SECONDS_PER_HOUR * (all[0]?.timeScale ?? 0), 0)} real seconds at every N (time scale ${all[0]?.timeScale.toFixed(4)}); ` +
      `each run fires within ${FLEXIBLE_WINDOW_MINUTES} minutes of its hour (Scheduler's flexible window); ` +
      `auth limited and paced at 1 per simulated second (at least ${MIN_AUTH_PER_REAL_SECOND} per real second); ` +
      (WARM_TOKENS
        ? 'each spot holding its token before the measured hours, as on every day after its first (FLEET_WARM_TOKENS=0: none); '
        : 'no spot holding a token at the start (its first, cold hour); ') +
      `${RECORDS_PER_EXPORT} records per export; one run per N.`,
    '',
    header,
    rule,
    ...rows,
    '',
    ...detail,
  ];
}

async function main(): Promise<void> {
  const all: FleetFigures[] = [];
  const sizes = fleetSizes();
  const timeScale = timeScaleFor(sizes);
  for (const size of sizes) {
    all.push(await runFleet(size, timeScale));
    // Each N's figures as soon as they are known: a later, larger run may not finish.
    console.log([...report(all, new Date().toISOString().slice(0, 10)), ''].join('\n'));
  }
  const missed = missedGoals(all);
  const lines = [
    ...report(all, new Date().toISOString().slice(0, 10)),
    '',
    `goals: 0 gaps, 0 windows exported twice, every run's export completed; per spot-day figures within ± ${FLAT_TOLERANCE * 100} % of N=${all[0]?.spots}'s; the reconciler's items read per sweep not growing with N`,
    missed.length === 0 ? 'goals: all met' : `goals missed:\n  ${missed.join('\n  ')}`,
  ];
  if (missed.length > 0) process.exitCode = 1;
  console.log(lines.join('\n'));
}

await main();
