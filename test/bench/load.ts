// Load on the local runtime, in this process on loopback: `npm run bench:load`. Prints figures
// (medians over RUNS runs, with the spread); bounded in count and time. Phases:
//   (a) SPOT_COUNT spots start an export at once; every export must reach a final state.
//   (b) STATUS_BURST_REQUESTS concurrent status reads of one running export.
//   (c) (a) again under an upstream limit: the simulator refuses export calls over
//       SIMULATED_UPSTREAM_LIMIT_PER_SECOND; once with no client limit, once with the client
//       governed below it (UPSTREAM_MAX_REQUESTS_PER_SECOND).
//   (d) POST /exports p50 against GET /exports/{id} p50 in the same run (target: ratio ≤ 2,
//       both being table-only once the start path does no upstream I/O); then, for each
//       phase, API throughput and latency percentiles.
//   (e) COLD_SPOT_COUNT spots without a token start at once under the documented auth limit
//       (1 per second per client address, paced fleet-wide by UPSTREAM_AUTH_REQUESTS_PER_SECOND).
//       Targets: all COMPLETED, 0 FAILED, 0 API 5xx, auth 429s ≤ 2 % of auth calls, wall time
//       ≤ 1.25 × (COLD_SPOT_COUNT s of auth at 1/s + one export's duration, measured alone).
// The auth limit is real time in the simulator and in the pacer, so (e) takes about 1.1 s per
// cold spot. BENCH_AUTH_SPEEDUP=k raises both the simulator's limit and the pacing to k/s (the
// bound shrinks with it): the same shape, k times faster. Other knobs: BENCH_COLD_SPOTS,
// BENCH_RUNS, BENCH_PHASES (e.g. `d,e`).
// The load and the runtime share this process, so latencies include the caller's own work.
// Exits with 1 when an invariant fails: an export lost, a create missing or repeated, a
// 429 from the upstream limit while the client is governed, or a target of (d) or (e) missed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExportStatus, isTerminal } from '../../lib/exports/ExportStatus';
import type { ExportView } from '../../lib/http/exportView';
import type { LocalExportEvent } from '../../local/LocalExportEvents';
import { parseLocalRuntimeSettings } from '../../local/localRuntimeSettings';
import type { RateLimitRefusals, SimulatorRequest } from '../../local/openweb-simulator';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { type LocalRuntime, startLocalRuntime } from '../../local/startLocalRuntime';

const RUNS = positiveIntegerFromEnv('BENCH_RUNS', 3);
const SPOT_COUNT = 200;
const COLD_SPOT_COUNT = positiveIntegerFromEnv('BENCH_COLD_SPOTS', SPOT_COUNT);
/** Auth requests per second in (e), simulator limit and fleet pacing alike; 1 is OpenWeb's documented limit. */
const AUTH_SPEEDUP = positiveIntegerFromEnv('BENCH_AUTH_SPEEDUP', 1);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'a,b,c,d,e').split(',').map((phase) => phase.trim()));
/** (e)'s targets, from the issue. */
const COLD_WALL_TIME_FACTOR = 1.25;
const MAX_AUTH_429_SHARE = 0.02;
/** (d)'s target: POST p50 at most this many times GET p50. */
const MAX_POST_TO_GET_P50_RATIO = 2;
const STATUS_BURST_REQUESTS = 1_000;
/** Real seconds per simulated second: a 1-hour export (30 s + 60 s upstream) lasts 0.9 s. */
const TIME_SCALE = 0.01;
const SHORT_EXPORT = { from: '2026-01-01T00:00:00Z', until: '2026-01-01T01:00:00Z' };
/** Export calls the simulator admits per second from this machine in (c)… */
const SIMULATED_UPSTREAM_LIMIT_PER_SECOND = 30;
/** …and the client's own cap, below it: arrival jitter must not push a second over the limit. */
const GOVERNED_REQUESTS_PER_SECOND = 25;
/** The deployed default, which the local runtime keeps. */
const STATUS_FRESHNESS_SECONDS = 10;
/** Every wait for final states gives up after this. */
const PHASE_TIMEOUT_MS = 180_000;
const EVENTS_POLL_INTERVAL_MS = 100;
const MS_PER_SECOND = 1000;
/** What the simulator's export rate limit counts. */
const EXPORT_ENDPOINTS = new Set<string>(['create', 'status', 'abort', 'list']);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

function positiveIntegerFromEnv(name: string, defaultValue: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return defaultValue;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be an integer ≥ 1, got ${text}`);
  return value;
}

interface TimedAnswer<T> {
  status: number;
  body: T;
  latencyMs: number;
}

interface ApiFigures {
  requests: number;
  throughputPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface StartPhaseFigures {
  started: number;
  otherAnswers: Record<string, number>;
  completed: number;
  otherFinal: Record<string, number>;
  lost: number;
  upstreamCreates: number;
  upstreamRequests: Record<string, number>;
  refusals: RateLimitRefusals;
  /** The most export calls (create, status, abort, list) the simulator received in any sliding second. */
  peakExportCallsPerSecond: number;
  wallSeconds: number;
  api: ApiFigures;
}

interface BurstFigures {
  upstreamStatusCalls: number;
  burstSeconds: number;
  /** Upstream calls the freshness window allows the API: one per window begun, shared by concurrent reads. */
  apiCallBound: number;
  ratio: number;
  answered200: number;
  api: ApiFigures;
}

interface ColdStartFigures {
  spots: number;
  started: number;
  /** API answers by status, 202 included. */
  answers: Record<string, number>;
  api5xx: number;
  completed: number;
  failed: number;
  otherFinal: Record<string, number>;
  notFinal: number;
  authCalls: number;
  auth429s: number;
  /** One warm export alone, start to final state, before the cold burst. */
  oneExportSeconds: number;
  wallSeconds: number;
  boundSeconds: number;
  api: ApiFigures;
}

interface LatencyRatioFigures {
  postP50Ms: number;
  getP50Ms: number;
  ratio: number;
  post: ApiFigures;
  get: ApiFigures;
  postAnswers: Record<string, number>;
}

// (e) uses one more spot than it starts cold: the reference export runs on it first.
const spotIds = Array.from(
  { length: Math.max(SPOT_COUNT, COLD_SPOT_COUNT + 1) },
  (_, index) => `sp_load${String(index).padStart(3, '0')}`,
);

async function timedJson<T>(url: string, init: RequestInit = {}): Promise<TimedAnswer<T>> {
  const startedAt = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const latencyMs = performance.now() - startedAt;
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T, latencyMs };
}

async function getJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  return (await timedJson<T>(url, init)).body;
}

function startExport(
  runtime: LocalRuntime,
  spotId: string,
  request: object,
): Promise<TimedAnswer<ExportView>> {
  return timedJson<ExportView>(`${runtime.apiUrl}/exports`, {
    method: 'POST',
    headers: { 'x-spot-id': spotId, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
}

function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  // Nearest rank.
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[rank - 1] as number;
}

function apiFigures(latenciesMs: readonly number[], wallMs: number): ApiFigures {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    throughputPerSecond: sorted.length / (wallMs / MS_PER_SECOND),
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? Number.NaN,
  };
}

/** The most of these instants in any window (t − 1 s, t], as a sliding-window limit counts them. */
function peakPerSecond(instantsMs: readonly number[]): number {
  const sorted = [...instantsMs].sort((a, b) => a - b);
  let peak = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while ((sorted[first] as number) <= (sorted[last] as number) - MS_PER_SECOND) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

function tally(values: readonly (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

/** The upstream calls the simulator received (its control calls left out). */
async function simulatorRequests(runtime: LocalRuntime): Promise<SimulatorRequest[]> {
  const url = `${runtime.simulatorUrl}/__simulator/requests`;
  const { requests } = await getJson<{ requests: SimulatorRequest[] }>(url);
  return requests.filter((request) => request.endpoint !== 'control');
}

async function clearSimulatorRequests(runtime: LocalRuntime): Promise<void> {
  await fetch(`${runtime.simulatorUrl}/__simulator/requests`, { method: 'DELETE' });
}

function refusalsOf(runtime: LocalRuntime): Promise<RateLimitRefusals> {
  return getJson<RateLimitRefusals>(`${runtime.simulatorUrl}/__simulator/rate-limit-refusals`);
}

/** Waits (bounded) for the terminal event of every id; answers when the last one happened, in epoch ms. */
async function waitForTerminalEvents(
  runtime: LocalRuntime,
  exportIds: ReadonlySet<string>,
  timeoutMs = PHASE_TIMEOUT_MS,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { events } = await getJson<{ events: LocalExportEvent[] }>(`${runtime.apiUrl}/_local/events`);
    const ours = events.filter((event) => exportIds.has(event.detail.exportId));
    if (ours.length >= exportIds.size || Date.now() > deadline) {
      return ours.length === 0 ? Number.NaN : Math.max(...ours.map((event) => Date.parse(event.time)));
    }
    await sleep(EVENTS_POLL_INTERVAL_MS);
  }
}

async function startRuntime(
  env: Record<string, string>,
  secretsFile: string,
  handlerEnv: NodeJS.ProcessEnv = {},
) {
  const settings = parseLocalRuntimeSettings(
    {
      PORT: '0',
      SIMULATOR_PORT: '0',
      LOCAL_DATA_DIR: 'memory',
      LOCAL_SECRETS_FILE: secretsFile,
      LOCAL_TIME_SCALE: String(TIME_SCALE),
      LOCAL_STACK_CONFIG: '{}',
      LOG_LEVEL: 'SILENT',
      ...env,
    },
    { cwd: LOCAL_PROJECT_ROOT, projectRoot: LOCAL_PROJECT_ROOT },
  );
  const problems: string[] = [];
  const runtime = await startLocalRuntime({
    settings,
    env: handlerEnv,
    say: (line) => {
      if (/fail/i.test(line)) problems.push(line);
    },
  });
  return { runtime, problems };
}

/** (a) and (c): every spot starts one export at once; then every record must reach a final state. */
async function startEverySpot(runtime: LocalRuntime): Promise<StartPhaseFigures> {
  await clearSimulatorRequests(runtime);
  const refusalsBefore = await refusalsOf(runtime);
  const startedAt = performance.now();
  const startedAtEpochMs = Date.now();
  const answers = await Promise.all(
    spotIds.slice(0, SPOT_COUNT).map((spotId) => startExport(runtime, spotId, SHORT_EXPORT)),
  );
  const answeredMs = performance.now() - startedAt;
  const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.body);
  const lastEventAt = await waitForTerminalEvents(runtime, new Set(accepted.map((view) => view.exportId)));
  const wallSeconds = (lastEventAt - startedAtEpochMs) / MS_PER_SECOND;

  // Read back every record: a terminal record is served from the table, without an upstream call.
  const records = await Promise.all(
    accepted.map((view) =>
      timedJson<ExportView>(`${runtime.apiUrl}/exports/${view.exportId}`, {
        headers: { 'x-spot-id': view.spotId },
      }),
    ),
  );
  const final = records.filter((record) => record.status === 200 && isTerminal(record.body.status));
  const upstream = await simulatorRequests(runtime);
  const refusalsAfter = await refusalsOf(runtime);
  return {
    started: accepted.length,
    otherAnswers: tally(answers.filter((answer) => answer.status !== 202).map((answer) => answer.status)),
    completed: final.filter((record) => record.body.status === ExportStatus.COMPLETED).length,
    otherFinal: tally(
      final
        .filter((record) => record.body.status !== ExportStatus.COMPLETED)
        .map((record) => record.body.status),
    ),
    lost: accepted.length - final.length,
    upstreamCreates: upstream.filter((request) => request.endpoint === 'create' && request.status === 200)
      .length,
    upstreamRequests: tally(upstream.map((request) => `${request.endpoint} ${request.status}`)),
    refusals: {
      auth: refusalsAfter.auth - refusalsBefore.auth,
      exportCalls: refusalsAfter.exportCalls - refusalsBefore.exportCalls,
    },
    peakExportCallsPerSecond: peakPerSecond(
      upstream.filter((request) => EXPORT_ENDPOINTS.has(request.endpoint)).map((request) => request.at),
    ),
    wallSeconds,
    api: apiFigures(
      answers.map((answer) => answer.latencyMs),
      answeredMs,
    ),
  };
}

/** (b): many concurrent reads of one running export share the upstream calls. */
async function burstStatusReads(runtime: LocalRuntime, spotId: string): Promise<BurstFigures> {
  const started = await startExport(runtime, spotId, SHORT_EXPORT);
  if (started.status !== 202 || started.body.upstreamExportId === undefined) {
    throw new Error(`The export for the status burst did not start (${started.status})`);
  }
  const { exportId, upstreamExportId } = started.body;
  const burstStartedAtEpochMs = Date.now();
  const burstStartedAt = performance.now();
  const reads = await Promise.all(
    Array.from({ length: STATUS_BURST_REQUESTS }, () =>
      timedJson<ExportView>(`${runtime.apiUrl}/exports/${exportId}`, { headers: { 'x-spot-id': spotId } }),
    ),
  );
  const burstMs = performance.now() - burstStartedAt;
  const burstEndedAtEpochMs = Date.now();
  const statusCalls = (await simulatorRequests(runtime)).filter(
    (request) =>
      request.endpoint === 'status' &&
      request.exportId === upstreamExportId &&
      request.at >= burstStartedAtEpochMs &&
      request.at <= burstEndedAtEpochMs,
  ).length;
  const stillRunning = reads.every((read) => read.body.status === ExportStatus.PROCESSING);
  if (!stillRunning) throw new Error('The export finished during the status burst');
  return {
    upstreamStatusCalls: statusCalls,
    burstSeconds: burstMs / MS_PER_SECOND,
    apiCallBound: Math.ceil(burstMs / (STATUS_FRESHNESS_SECONDS * MS_PER_SECOND)),
    ratio: STATUS_BURST_REQUESTS / Math.max(1, statusCalls),
    answered200: reads.filter((read) => read.status === 200).length,
    api: apiFigures(
      reads.map((read) => read.latencyMs),
      burstMs,
    ),
  };
}

/** Final records of these exports, read back through the API (served from the table once final). */
async function finalRecords(runtime: LocalRuntime, views: readonly ExportView[]): Promise<ExportView[]> {
  const records = await Promise.all(
    views.map((view) =>
      getJson<ExportView>(`${runtime.apiUrl}/exports/${view.exportId}`, {
        headers: { 'x-spot-id': view.spotId },
      }),
    ),
  );
  return records.filter((record) => isTerminal(record.status));
}

/** One export alone, start to final state: the "one export's duration" of (e)'s bound. */
async function oneExportSeconds(runtime: LocalRuntime, spotId: string): Promise<number> {
  const startedAtEpochMs = Date.now();
  const answer = await startExport(runtime, spotId, SHORT_EXPORT);
  if (answer.status !== 202) throw new Error(`The reference export did not start (${answer.status})`);
  const lastEventAt = await waitForTerminalEvents(runtime, new Set([answer.body.exportId]));
  return (lastEventAt - startedAtEpochMs) / MS_PER_SECOND;
}

/** (e): spots without a token yet start at once, under the auth limit; every one should complete. */
async function coldStartsUnderAuthLimit(runtime: LocalRuntime): Promise<ColdStartFigures> {
  const [referenceSpot = '', ...coldSpots] = spotIds.slice(0, COLD_SPOT_COUNT + 1);
  const oneExport = await oneExportSeconds(runtime, referenceSpot);
  const boundSeconds = COLD_WALL_TIME_FACTOR * (coldSpots.length / AUTH_SPEEDUP + oneExport);
  await clearSimulatorRequests(runtime);
  const refusalsBefore = await refusalsOf(runtime);
  const startedAt = performance.now();
  const startedAtEpochMs = Date.now();
  const answers = await Promise.all(coldSpots.map((spotId) => startExport(runtime, spotId, SHORT_EXPORT)));
  const answeredMs = performance.now() - startedAt;
  const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.body);
  // Waits past the bound (to see how late a slow run is), but not forever.
  const timeoutMs = Math.max(PHASE_TIMEOUT_MS, 2 * boundSeconds * MS_PER_SECOND);
  const lastEventAt = await waitForTerminalEvents(
    runtime,
    new Set(accepted.map((view) => view.exportId)),
    timeoutMs,
  );
  const final = await finalRecords(runtime, accepted);
  const upstream = await simulatorRequests(runtime);
  const refusalsAfter = await refusalsOf(runtime);
  const authCalls = upstream.filter((request) => request.endpoint === 'auth');
  return {
    spots: coldSpots.length,
    started: accepted.length,
    answers: tally(answers.map((answer) => answer.status)),
    api5xx: answers.filter((answer) => answer.status >= 500).length,
    completed: final.filter((record) => record.status === ExportStatus.COMPLETED).length,
    failed: final.filter((record) => record.status === ExportStatus.FAILED).length,
    otherFinal: tally(
      final
        .filter((record) => record.status !== ExportStatus.COMPLETED && record.status !== ExportStatus.FAILED)
        .map((record) => record.status),
    ),
    notFinal: accepted.length - final.length,
    authCalls: authCalls.length,
    auth429s: refusalsAfter.auth - refusalsBefore.auth,
    oneExportSeconds: oneExport,
    wallSeconds: Number.isNaN(lastEventAt) ? Number.NaN : (lastEventAt - startedAtEpochMs) / MS_PER_SECOND,
    boundSeconds,
    api: apiFigures(
      answers.map((answer) => answer.latencyMs),
      answeredMs,
    ),
  };
}

/** (d): POST /exports and GET /exports/{id} under the same concurrency, in the same runtime. */
async function startAndReadLatencies(runtime: LocalRuntime): Promise<LatencyRatioFigures> {
  const postStartedAt = performance.now();
  const posts = await Promise.all(
    spotIds.slice(0, SPOT_COUNT).map((spotId) => startExport(runtime, spotId, SHORT_EXPORT)),
  );
  const postMs = performance.now() - postStartedAt;
  const accepted = posts.filter((answer) => answer.status === 202).map((answer) => answer.body);
  const getStartedAt = performance.now();
  const gets = await Promise.all(
    accepted.map((view) =>
      timedJson<ExportView>(`${runtime.apiUrl}/exports/${view.exportId}`, {
        headers: { 'x-spot-id': view.spotId },
      }),
    ),
  );
  const getMs = performance.now() - getStartedAt;
  const post = apiFigures(
    posts.map((answer) => answer.latencyMs),
    postMs,
  );
  const get = apiFigures(
    gets.map((answer) => answer.latencyMs),
    getMs,
  );
  // Let the started exports end before the runtime stops: nothing is left running upstream.
  await waitForTerminalEvents(runtime, new Set(accepted.map((view) => view.exportId)));
  return {
    postP50Ms: post.p50Ms,
    getP50Ms: get.p50Ms,
    ratio: post.p50Ms / get.p50Ms,
    post,
    get,
    postAnswers: tally(posts.map((answer) => answer.status)),
  };
}

/** A phase left out by BENCH_PHASES is undefined. */
interface RunFigures {
  a?: StartPhaseFigures;
  b?: BurstFigures;
  /** The upstream limit alone, to show it bites. */
  cUngoverned?: StartPhaseFigures;
  c?: StartPhaseFigures;
  d?: LatencyRatioFigures;
  e?: ColdStartFigures;
  /** Failure lines of the runtime in (a), (b), the governed (c) and (d); the others may fail starts on purpose. */
  problems: string[];
}

/** Runs `phase` on a fresh runtime, which is stopped however the phase ends. */
async function onFreshRuntime<T>(
  secretsFile: string,
  env: Record<string, string>,
  handlerEnv: NodeJS.ProcessEnv,
  phase: (runtime: LocalRuntime) => Promise<T>,
  problems: string[],
): Promise<T> {
  const started = await startRuntime(env, secretsFile, handlerEnv);
  try {
    return await phase(started.runtime);
  } finally {
    await started.runtime.stop();
    problems.push(...started.problems);
  }
}

async function runOnce(secretsFile: string): Promise<RunFigures> {
  const problems: string[] = [];
  const run: RunFigures = { problems };
  // Auth unlimited in (a)–(d): cold, 200 spots would need 200 s of auth at the documented 1/s (see (e)).
  const unlimitedAuth = { SIMULATOR_AUTH_REQUESTS_PER_SECOND: '0' };
  const unpacedAuth = { UPSTREAM_AUTH_REQUESTS_PER_SECOND: '100' };
  if (PHASES.has('a'))
    run.a = await onFreshRuntime(secretsFile, unlimitedAuth, unpacedAuth, startEverySpot, problems);
  // Real time: the workflow's first poll (30 s without history) comes after the burst, so every
  // status call during the burst is the API's.
  if (PHASES.has('b'))
    run.b = await onFreshRuntime(
      secretsFile,
      { ...unlimitedAuth, LOCAL_TIME_SCALE: '1' },
      unpacedAuth,
      (runtime) => burstStatusReads(runtime, spotIds[0] as string),
      problems,
    );
  const upstreamLimit = {
    ...unlimitedAuth,
    SIMULATOR_EXPORT_REQUESTS_PER_SECOND: String(SIMULATED_UPSTREAM_LIMIT_PER_SECOND),
  };
  if (PHASES.has('c')) {
    // Its refused starts are the point of it, not problems.
    run.cUngoverned = await onFreshRuntime(secretsFile, upstreamLimit, unpacedAuth, startEverySpot, []);
    run.c = await onFreshRuntime(
      secretsFile,
      upstreamLimit,
      { ...unpacedAuth, UPSTREAM_MAX_REQUESTS_PER_SECOND: String(GOVERNED_REQUESTS_PER_SECOND) },
      startEverySpot,
      problems,
    );
  }
  if (PHASES.has('d'))
    run.d = await onFreshRuntime(secretsFile, unlimitedAuth, unpacedAuth, startAndReadLatencies, problems);
  if (PHASES.has('e'))
    run.e = await onFreshRuntime(
      secretsFile,
      { SIMULATOR_AUTH_REQUESTS_PER_SECOND: String(AUTH_SPEEDUP) },
      { UPSTREAM_AUTH_REQUESTS_PER_SECOND: String(AUTH_SPEEDUP) },
      coldStartsUnderAuthLimit,
      [],
    );
  return run;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function format(value: number, digits: number): string {
  return Number.isInteger(value) && digits === 0 ? String(value) : value.toFixed(digits);
}

/** `median (min–max)` of one figure over the runs. */
function summary(values: readonly number[], digits = 0): string {
  const spread =
    values.length > 1
      ? ` (${format(Math.min(...values), digits)}–${format(Math.max(...values), digits)})`
      : '';
  return `${format(median(values), digits)}${spread}`;
}

function mergedTallies(tallies: readonly Record<string, number>[]): string {
  const keys = [...new Set(tallies.flatMap((counts) => Object.keys(counts)))].sort();
  if (keys.length === 0) return 'none';
  return keys.map((key) => `${key}: ${summary(tallies.map((counts) => counts[key] ?? 0))}`).join(', ');
}

function apiLines(label: string, figures: readonly ApiFigures[]): string[] {
  const pick = (name: keyof ApiFigures) => figures.map((figure) => figure[name]);
  return [
    `  ${label}: ${summary(pick('requests'))} requests, ${summary(pick('throughputPerSecond'), 1)} req/s, ` +
      `latency ms p50 ${summary(pick('p50Ms'), 1)}, p90 ${summary(pick('p90Ms'), 1)}, ` +
      `p99 ${summary(pick('p99Ms'), 1)}, max ${summary(pick('maxMs'), 1)}`,
  ];
}

function startPhaseLines(figures: readonly StartPhaseFigures[]): string[] {
  const pick = (read: (figure: StartPhaseFigures) => number) => summary(figures.map(read));
  return [
    `  exports started (202): ${pick((f) => f.started)}; other answers: ${mergedTallies(figures.map((f) => f.otherAnswers))}`,
    `  completed: ${pick((f) => f.completed)}; other final states: ${mergedTallies(figures.map((f) => f.otherFinal))}`,
    `  lost (missing or not final after ${PHASE_TIMEOUT_MS / MS_PER_SECOND} s): ${pick((f) => f.lost)}`,
    `  upstream creates: ${pick((f) => f.upstreamCreates)} (spots: ${SPOT_COUNT})`,
    `  upstream requests (endpoint status): ${mergedTallies(figures.map((f) => f.upstreamRequests))}`,
    `  simulator 429s for the rate limit: export calls ${pick((f) => f.refusals.exportCalls)}, auth ${pick((f) => f.refusals.auth)}`,
    `  peak export calls received in any second: ${pick((f) => f.peakExportCallsPerSecond)}`,
    `  wall time to the last final state: ${summary(
      figures.map((f) => f.wallSeconds),
      2,
    )} s`,
  ];
}

function defined<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((value): value is T => value !== undefined);
}

/** pass/fail of one target. */
function verdict(held: boolean): string {
  return held ? 'pass' : 'FAIL';
}

function coldStartTargets(e: ColdStartFigures): { name: string; held: boolean }[] {
  return [
    { name: `${e.spots}/${e.spots} COMPLETED`, held: e.completed === e.spots },
    { name: '0 FAILED', held: e.failed === 0 },
    { name: '0 API 5xx', held: e.api5xx === 0 },
    {
      name: `auth 429s ≤ ${MAX_AUTH_429_SHARE * 100} % of auth calls`,
      held: e.auth429s <= MAX_AUTH_429_SHARE * e.authCalls,
    },
    // Only meaningful once every spot started and ended: a run that refused most starts is fast.
    {
      name: 'wall time within the bound, every spot final',
      held: e.started === e.spots && e.notFinal === 0 && e.wallSeconds <= e.boundSeconds,
    },
  ];
}

function coldStartLines(figures: readonly ColdStartFigures[]): string[] {
  const pick = (read: (figure: ColdStartFigures) => number, digits = 0) => summary(figures.map(read), digits);
  const first = figures[0];
  if (first === undefined) return [];
  const targets = figures.map(coldStartTargets);
  const targetLine = (index: number) => {
    const name = targets[0]?.[index]?.name ?? '';
    const held = targets.filter((run) => run[index]?.held).length;
    return `  target ${name}: ${held === targets.length ? 'pass' : 'FAIL'} (${held}/${targets.length} runs)`;
  };
  return [
    `  API answers: ${mergedTallies(figures.map((f) => f.answers))}; 5xx: ${pick((f) => f.api5xx)}`,
    `  COMPLETED: ${pick((f) => f.completed)} of ${first.spots}; FAILED: ${pick((f) => f.failed)}; ` +
      `other final: ${mergedTallies(figures.map((f) => f.otherFinal))}; not final: ${pick((f) => f.notFinal)}`,
    `  auth calls: ${pick((f) => f.authCalls)}; auth 429s: ${pick((f) => f.auth429s)} ` +
      `(${summary(
        figures.map((f) => (f.authCalls === 0 ? 0 : (100 * f.auth429s) / f.authCalls)),
        1,
      )} %, bound ${MAX_AUTH_429_SHARE * 100} %)`,
    `  one export alone: ${pick((f) => f.oneExportSeconds, 2)} s; wall time to the last final state: ` +
      `${pick((f) => f.wallSeconds, 1)} s; bound ${COLD_WALL_TIME_FACTOR} × (${first.spots} / ${AUTH_SPEEDUP} s + one export) = ` +
      `${pick((f) => f.boundSeconds, 1)} s`,
    ...coldStartTargets(first).map((_, index) => targetLine(index)),
  ];
}

function latencyRatioLines(figures: readonly LatencyRatioFigures[]): string[] {
  if (figures.length === 0) return [];
  const held = figures.filter((f) => f.ratio <= MAX_POST_TO_GET_P50_RATIO).length;
  return [
    `  POST /exports answers: ${mergedTallies(figures.map((f) => f.postAnswers))}`,
    ...apiLines(
      'POST /exports',
      figures.map((f) => f.post),
    ),
    ...apiLines(
      'GET /exports/{id}',
      figures.map((f) => f.get),
    ),
    `  p50 POST ${summary(
      figures.map((f) => f.postP50Ms),
      1,
    )} ms : p50 GET ${summary(
      figures.map((f) => f.getP50Ms),
      1,
    )} ms = ${summary(
      figures.map((f) => f.ratio),
      2,
    )}; target ≤ ${MAX_POST_TO_GET_P50_RATIO}: ${verdict(held === figures.length)} (${held}/${figures.length} runs)`,
  ];
}

function invariantViolations(run: RunFigures): string[] {
  const phases: [string, StartPhaseFigures | undefined][] = [
    ['(a)', run.a],
    ['(c) no client limit', run.cUngoverned],
    ['(c) client limit', run.c],
  ];
  const violations = phases.flatMap(([name, figures]) =>
    figures === undefined
      ? []
      : [
          ...(figures.lost > 0 ? [`${name}: ${figures.lost} export(s) lost`] : []),
          ...(figures.upstreamCreates !== figures.started
            ? [`${name}: ${figures.upstreamCreates} upstream creates for ${figures.started} started exports`]
            : []),
        ],
  );
  if (run.c !== undefined && run.c.refusals.exportCalls > 0)
    violations.push(`(c) client limit: ${run.c.refusals.exportCalls} 429(s)`);
  if (run.b !== undefined && run.b.upstreamStatusCalls > run.b.apiCallBound) {
    violations.push(`(b): ${run.b.upstreamStatusCalls} upstream status calls, bound ${run.b.apiCallBound}`);
  }
  if (run.d !== undefined && !(run.d.ratio <= MAX_POST_TO_GET_P50_RATIO))
    violations.push(`(d): POST p50 / GET p50 = ${run.d.ratio.toFixed(2)} > ${MAX_POST_TO_GET_P50_RATIO}`);
  if (run.e !== undefined)
    for (const target of coldStartTargets(run.e))
      if (!target.held) violations.push(`(e): target missed: ${target.name}`);
  return violations;
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'openweb-exports-load-'));
  const secretsFile = join(directory, 'spots.json');
  writeFileSync(
    secretsFile,
    JSON.stringify(Object.fromEntries(spotIds.map((spotId) => [spotId, { apiKey: `load-key-${spotId}` }]))),
  );
  const runs: RunFigures[] = [];
  try {
    for (let run = 0; run < RUNS; run++) runs.push(await runOnce(secretsFile));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  const a = defined(runs.map((r) => r.a));
  const b = defined(runs.map((r) => r.b));
  const cUngoverned = defined(runs.map((r) => r.cUngoverned));
  const c = defined(runs.map((r) => r.c));
  const d = defined(runs.map((r) => r.d));
  const e = defined(runs.map((r) => r.e));
  const lines = [
    `Load on the local runtime (in process, loopback, in-memory table, time scale ${TIME_SCALE}, ` +
      `${SPOT_COUNT} spots, ${RUNS} runs, phases ${[...PHASES].join(',')}; figures are medians with (min–max) over the runs)`,
  ];
  if (a.length > 0)
    lines.push(
      '',
      `(a) ${SPOT_COUNT} spots start an export at once (1-hour windows, 0.9 s each upstream), auth unlimited`,
      ...startPhaseLines(a),
    );
  if (b.length > 0)
    lines.push(
      '',
      `(b) ${STATUS_BURST_REQUESTS} concurrent GET /exports/{id} of one running export (real time: no workflow poll during the burst)`,
      `  answered 200: ${summary(b.map((f) => f.answered200))}`,
      `  upstream status calls during the burst: ${summary(b.map((f) => f.upstreamStatusCalls))}; ` +
        `bound: ${summary(b.map((f) => f.apiCallBound))} (one per ${STATUS_FRESHNESS_SECONDS} s freshness window ` +
        `begun; burst ${summary(
          b.map((f) => f.burstSeconds),
          2,
        )} s)`,
      `  client requests : upstream calls = ${summary(b.map((f) => f.ratio))} : 1`,
    );
  if (c.length > 0)
    lines.push(
      '',
      `(c) as (a), the simulator admitting ${SIMULATED_UPSTREAM_LIMIT_PER_SECOND} export calls/s per client address`,
      '  without a client limit (the upstream limit bites):',
      ...startPhaseLines(cUngoverned),
      `  with UPSTREAM_MAX_REQUESTS_PER_SECOND=${GOVERNED_REQUESTS_PER_SECOND}:`,
      ...startPhaseLines(c),
    );
  if (d.length > 0)
    lines.push(
      '',
      `(d) ${SPOT_COUNT} concurrent POST /exports, then one concurrent GET /exports/{id} of each, same runtime (auth unlimited)`,
      ...latencyRatioLines(d),
    );
  if (e.length > 0)
    lines.push(
      '',
      `(e) ${COLD_SPOT_COUNT} cold spots start at once under the auth limit: simulator ${AUTH_SPEEDUP}/s per client ` +
        `address, UPSTREAM_AUTH_REQUESTS_PER_SECOND=${AUTH_SPEEDUP}${AUTH_SPEEDUP === 1 ? ' (as documented, real time)' : ` (BENCH_AUTH_SPEEDUP: ${AUTH_SPEEDUP}× the documented limit)`}`,
      ...coldStartLines(e),
    );
  const apiPerPhase = [
    ...(a.length > 0
      ? apiLines(
          '(a) POST /exports',
          a.map((f) => f.api),
        )
      : []),
    ...(b.length > 0
      ? apiLines(
          '(b) GET /exports/{id}',
          b.map((f) => f.api),
        )
      : []),
    ...(c.length > 0
      ? [
          ...apiLines(
            '(c) POST /exports, no client limit',
            cUngoverned.map((f) => f.api),
          ),
          ...apiLines(
            '(c) POST /exports, client limit',
            c.map((f) => f.api),
          ),
        ]
      : []),
    ...(e.length > 0
      ? apiLines(
          '(e) POST /exports',
          e.map((f) => f.api),
        )
      : []),
  ];
  if (apiPerPhase.length > 0) lines.push('', 'API latency per phase', ...apiPerPhase);
  const violations = runs.flatMap((r, index) =>
    invariantViolations(r).map((text) => `run ${index + 1}: ${text}`),
  );
  lines.push(
    '',
    violations.length === 0 ? 'invariants: all held' : `invariants violated:\n  ${violations.join('\n  ')}`,
  );
  if (violations.length > 0) process.exitCode = 1;
  const problems = runs.flatMap((r) => r.problems);
  if (problems.length > 0)
    lines.push('', `runtime reported ${problems.length} failure line(s), first: ${problems[0]}`);
  console.log(lines.join('\n'));
}

await main();
