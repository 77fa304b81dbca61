// Load on the local runtime, in this process on loopback: `npm run bench:load`. Prints figures
// (medians over RUNS runs, with the spread); bounded in count and time. Phases:
//   (a) SPOT_COUNT spots start an export at once; every export must reach a final state.
//   (b) STATUS_BURST_REQUESTS concurrent status reads of one running export.
//   (c) (a) again under an upstream limit: the simulator refuses export calls over
//       SIMULATED_UPSTREAM_LIMIT_PER_SECOND; once with no client limit, once with the client
//       governed below it (UPSTREAM_MAX_REQUESTS_PER_SECOND).
//   (d) for each phase: API throughput and latency percentiles; in (a), POST /exports next to
//       GET /exports/{id} of the same exports right after (both answer from the table).
//   (e) SPOT_COUNT cold spots at once under the documented auth limit (1 per second per client
//       address): every export must complete, within 1.25 × (the auth time + one export's time).
// The load and the runtime share this process, so latencies include the caller's own work.
// Exits with 1 when an invariant fails: an export lost, a create missing or repeated, or a
// 429 from the upstream limit while the client is governed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExportEventDetailType } from '../../lib/events/EventBridgeExportEvents';
import { ExportStatus, isTerminal } from '../../lib/exports/record/ExportStatus';
import type { ExportView } from '../../lib/http/exportViewSchema';
import { SETTINGS } from '../../lib/settings/settingsTable';
import type { LocalExportEvent } from '../../local/LocalExportEvents';
import { parseLocalRuntimeSettings } from '../../local/localRuntimeSettings';
import type { RateLimitRefusals, SimulatorRequest } from '../../local/openweb-simulator';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { type LocalRuntime, startLocalRuntime } from '../../local/startLocalRuntime';
import { median } from './support/median';

const RUNS = Number(process.env.LOAD_RUNS ?? 3);
const SPOT_COUNT = 200;
const STATUS_BURST_REQUESTS = 1_000;
/** Real seconds per simulated second: a 1-hour export (30 s + 60 s upstream) lasts 0.9 s. */
const TIME_SCALE = 0.01;
const SHORT_EXPORT = { from: '2026-01-01T00:00:00Z', until: '2026-01-01T01:00:00Z' };
/** Export calls the simulator admits per second from this machine in (c)… */
const SIMULATED_UPSTREAM_LIMIT_PER_SECOND = 30;
/** …and the client's own cap, below it: arrival jitter must not push a second over the limit. */
const GOVERNED_REQUESTS_PER_SECOND = 25;
/** The deployed default, which the local runtime keeps. */
const STATUS_FRESHNESS_SECONDS = SETTINGS.statusFreshnessSeconds.default;
/** Every wait for final states gives up after this. */
const PHASE_TIMEOUT_MS = 180_000;
/** (e) waits on 200 s of auth at the documented rate: its own, longer bound. */
const COLD_PHASE_TIMEOUT_MS = 600_000;
/**
 * (e) runs at this scale: the workflow's create retries (2 s doubling to 60 s) then come every
 * few real seconds, often enough to use every auth slot without flooding the table.
 */
const COLD_TIME_SCALE = 0.1;
/** The documented auth limit (1 per second per address) and the bound (e) is held to. */
const DOCUMENTED_AUTH_REQUESTS_PER_SECOND = 1;
const COLD_WALL_TIME_FACTOR = 1.25;
const MAX_AUTH_REFUSED_SHARE = 0.02;
/** (a)–(c): the simulator limits no auth, so neither does the fleet's pacing. */
const UNPACED_AUTH_REQUESTS_PER_SECOND = 10_000;
/** Starts answer from the table now, as reads do: at most this many times a read's p50. */
const POST_TO_GET_MAX_RATIO = 2;
const EVENTS_POLL_INTERVAL_MS = 100;
const MS_PER_SECOND = 1000;
/** What the simulator's export rate limit counts. */
const EXPORT_ENDPOINTS = new Set<string>(['create', 'status', 'abort', 'list']);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

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
  /** GET /exports/{id} of every started export, right after the starts. */
  reads: ApiFigures;
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
  started: number;
  serverErrors: number;
  otherAnswers: Record<string, number>;
  completed: number;
  failed: number;
  otherFinal: Record<string, number>;
  lost: number;
  authCalls: number;
  authRefusals: number;
  /** Start to the last final state of all SPOT_COUNT exports. */
  wallSeconds: number;
  /** One export alone, start to final state, measured first in the same runtime. */
  oneExportSeconds: number;
  /** COLD_WALL_TIME_FACTOR × (SPOT_COUNT auths at the documented rate + one export's time). */
  wallBoundSeconds: number;
  api: ApiFigures;
}

const spotIds = Array.from({ length: SPOT_COUNT }, (_, index) => `sp_load${String(index).padStart(3, '0')}`);
/** (e)'s lone export, of a spot outside the cold crowd. */
const COLD_SOLO_SPOT = 'sp_loadsolo';

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
    // One terminal event per export; `Export Archived` follows a completed one and is not counted.
    const ours = events.filter(
      (event) =>
        'exportId' in event.detail &&
        exportIds.has(event.detail.exportId) &&
        event.detailType !== ExportEventDetailType.ARCHIVED,
    );
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
  const answers = await Promise.all(spotIds.map((spotId) => startExport(runtime, spotId, SHORT_EXPORT)));
  const answeredMs = performance.now() - startedAt;
  const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.body);
  const readsStartedAt = performance.now();
  const reads = await Promise.all(
    accepted.map((view) =>
      timedJson<ExportView>(`${runtime.apiUrl}/exports/${view.exportId}`, {
        headers: { 'x-spot-id': view.spotId },
      }),
    ),
  );
  const readsMs = performance.now() - readsStartedAt;
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
    reads: apiFigures(
      reads.map((read) => read.latencyMs),
      readsMs,
    ),
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
  const requested = await startExport(runtime, spotId, SHORT_EXPORT);
  if (requested.status !== 202)
    throw new Error(`The export for the status burst did not start (${requested.status})`);
  const started = await untilCreatedUpstream(runtime, spotId, requested.body.exportId);
  const { exportId, upstreamExportId } = started;
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

/** Waits (bounded) until the workflow's create task has created the export upstream. */
async function untilCreatedUpstream(
  runtime: LocalRuntime,
  spotId: string,
  exportId: string,
): Promise<ExportView & { upstreamExportId: string }> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const view = await getJson<ExportView>(`${runtime.apiUrl}/exports/${exportId}`, {
      headers: { 'x-spot-id': spotId },
    });
    if (view.upstreamExportId !== undefined) return { ...view, upstreamExportId: view.upstreamExportId };
    if (Date.now() > deadline) throw new Error(`${exportId} was never created upstream`);
    await sleep(EVENTS_POLL_INTERVAL_MS);
  }
}

/**
 * (e): spots without a token yet, all at once, under the auth endpoint's documented limit. One
 * export of another spot runs alone first, to measure one export's time in this runtime.
 */
async function coldStartsUnderAuthLimit(runtime: LocalRuntime): Promise<ColdStartFigures> {
  const soloStartedAt = Date.now();
  const solo = await startExport(runtime, COLD_SOLO_SPOT, SHORT_EXPORT);
  const soloEndedAt = await waitForTerminalEvents(runtime, new Set([solo.body.exportId]));
  const oneExportSeconds = (soloEndedAt - soloStartedAt) / MS_PER_SECOND;
  await clearSimulatorRequests(runtime);
  const refusalsBefore = await refusalsOf(runtime);

  const startedAt = performance.now();
  const startedAtEpochMs = Date.now();
  const answers = await Promise.all(spotIds.map((spotId) => startExport(runtime, spotId, SHORT_EXPORT)));
  const answeredMs = performance.now() - startedAt;
  const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.body);
  const lastEventAt = await waitForTerminalEvents(
    runtime,
    new Set(accepted.map((view) => view.exportId)),
    COLD_PHASE_TIMEOUT_MS,
  );
  const records = await Promise.all(
    accepted.map((view) =>
      getJson<ExportView>(`${runtime.apiUrl}/exports/${view.exportId}`, {
        headers: { 'x-spot-id': view.spotId },
      }),
    ),
  );
  const final = records.filter((record) => isTerminal(record.status));
  const auths = (await simulatorRequests(runtime)).filter((request) => request.endpoint === 'auth');
  const refusalsAfter = await refusalsOf(runtime);
  return {
    started: accepted.length,
    serverErrors: answers.filter((answer) => answer.status >= 500).length,
    otherAnswers: tally(answers.filter((answer) => answer.status !== 202).map((answer) => answer.status)),
    completed: final.filter((record) => record.status === ExportStatus.COMPLETED).length,
    failed: final.filter((record) => record.status === ExportStatus.FAILED).length,
    otherFinal: tally(
      final
        .filter((record) => record.status !== ExportStatus.COMPLETED && record.status !== ExportStatus.FAILED)
        .map((record) => record.status),
    ),
    lost: accepted.length - final.length,
    authCalls: auths.length,
    authRefusals: refusalsAfter.auth - refusalsBefore.auth,
    wallSeconds: (lastEventAt - startedAtEpochMs) / MS_PER_SECOND,
    oneExportSeconds,
    wallBoundSeconds:
      COLD_WALL_TIME_FACTOR * (SPOT_COUNT / DOCUMENTED_AUTH_REQUESTS_PER_SECOND + oneExportSeconds),
    api: apiFigures(
      answers.map((answer) => answer.latencyMs),
      answeredMs,
    ),
  };
}

interface RunFigures {
  a: StartPhaseFigures;
  b: BurstFigures;
  /** The upstream limit alone, to show it bites. */
  cUngoverned: StartPhaseFigures;
  c: StartPhaseFigures;
  e: ColdStartFigures;
  /** Failure lines of the runtime in (a), (b) and the governed (c); the others fail starts on purpose. */
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
  // Auth unlimited in (a)–(c), upstream and pacing alike: cold, 200 spots would need 200 s of auth
  // at the documented 1/s, which is (e)'s subject.
  const unlimitedAuth = { SIMULATOR_AUTH_REQUESTS_PER_SECOND: '0' };
  const unpacedAuth = { UPSTREAM_AUTH_REQUESTS_PER_SECOND: String(UNPACED_AUTH_REQUESTS_PER_SECOND) };
  const a = await onFreshRuntime(secretsFile, unlimitedAuth, unpacedAuth, startEverySpot, problems);
  // Real time: the workflow's first poll (30 s without history) comes after the burst, so every
  // status call during the burst is the API's.
  const b = await onFreshRuntime(
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
  // Its refused creates are the point of it, not problems.
  const cUngoverned = await onFreshRuntime(secretsFile, upstreamLimit, unpacedAuth, startEverySpot, []);
  const c = await onFreshRuntime(
    secretsFile,
    upstreamLimit,
    { ...unpacedAuth, UPSTREAM_MAX_REQUESTS_PER_SECOND: String(GOVERNED_REQUESTS_PER_SECOND) },
    startEverySpot,
    problems,
  );
  // The documented limit, paced at the deployed default.
  const e = await onFreshRuntime(
    secretsFile,
    { LOCAL_TIME_SCALE: String(COLD_TIME_SCALE) },
    {},
    coldStartsUnderAuthLimit,
    problems,
  );
  return { a, b, cUngoverned, c, e, problems };
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

function invariantViolations(run: RunFigures): string[] {
  const phases: [string, StartPhaseFigures][] = [
    ['(a)', run.a],
    ['(c) no client limit', run.cUngoverned],
    ['(c) client limit', run.c],
  ];
  const violations = phases.flatMap(([name, figures]) => [
    ...(figures.lost > 0 ? [`${name}: ${figures.lost} export(s) lost`] : []),
    ...(figures.upstreamCreates !== figures.started
      ? [`${name}: ${figures.upstreamCreates} upstream creates for ${figures.started} started exports`]
      : []),
  ]);
  if (run.a.api.p50Ms > POST_TO_GET_MAX_RATIO * run.a.reads.p50Ms)
    violations.push(`(d): POST p50 ${run.a.api.p50Ms.toFixed(1)} ms over ${POST_TO_GET_MAX_RATIO} × GET p50`);
  const { e } = run;
  if (e.completed !== SPOT_COUNT) violations.push(`(e): ${e.completed} of ${SPOT_COUNT} completed`);
  if (e.failed > 0) violations.push(`(e): ${e.failed} FAILED`);
  if (e.serverErrors > 0) violations.push(`(e): ${e.serverErrors} API 5xx`);
  if (e.authRefusals > MAX_AUTH_REFUSED_SHARE * e.authCalls)
    violations.push(`(e): ${e.authRefusals} of ${e.authCalls} auth calls refused`);
  if (!(e.wallSeconds <= e.wallBoundSeconds))
    violations.push(
      `(e): wall time ${e.wallSeconds.toFixed(1)} s over the bound ${e.wallBoundSeconds.toFixed(1)} s`,
    );
  if (run.c.refusals.exportCalls > 0)
    violations.push(`(c) client limit: ${run.c.refusals.exportCalls} 429(s)`);
  if (run.b.upstreamStatusCalls > run.b.apiCallBound) {
    violations.push(`(b): ${run.b.upstreamStatusCalls} upstream status calls, bound ${run.b.apiCallBound}`);
  }
  return violations;
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'openweb-exports-load-'));
  const secretsFile = join(directory, 'spots.json');
  writeFileSync(
    secretsFile,
    JSON.stringify(
      Object.fromEntries(
        [...spotIds, COLD_SOLO_SPOT].map((spotId) => [spotId, { apiKey: `load-key-${spotId}` }]),
      ),
    ),
  );
  const runs: RunFigures[] = [];
  try {
    for (let run = 0; run < RUNS; run++) runs.push(await runOnce(secretsFile));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  const lines = [
    `Load on the local runtime (in process, loopback, in-memory table, time scale ${TIME_SCALE}, ` +
      `${SPOT_COUNT} spots, ${RUNS} runs; figures are medians with (min–max) over the runs)`,
    '',
    `(a) ${SPOT_COUNT} spots start an export at once (1-hour windows, 0.9 s each upstream), auth unlimited`,
    ...startPhaseLines(runs.map((r) => r.a)),
    '',
    `(b) ${STATUS_BURST_REQUESTS} concurrent GET /exports/{id} of one running export (real time: no workflow poll during the burst)`,
    `  answered 200: ${summary(runs.map((r) => r.b.answered200))}`,
    `  upstream status calls during the burst: ${summary(runs.map((r) => r.b.upstreamStatusCalls))}; ` +
      `bound: ${summary(runs.map((r) => r.b.apiCallBound))} (one per ${STATUS_FRESHNESS_SECONDS} s freshness window ` +
      `begun; burst ${summary(
        runs.map((r) => r.b.burstSeconds),
        2,
      )} s)`,
    `  client requests : upstream calls = ${summary(runs.map((r) => r.b.ratio))} : 1`,
    '',
    `(c) as (a), the simulator admitting ${SIMULATED_UPSTREAM_LIMIT_PER_SECOND} export calls/s per client address`,
    '  without a client limit (the upstream limit bites):',
    ...startPhaseLines(runs.map((r) => r.cUngoverned)),
    `  with UPSTREAM_MAX_REQUESTS_PER_SECOND=${GOVERNED_REQUESTS_PER_SECOND}:`,
    ...startPhaseLines(runs.map((r) => r.c)),
    '',
    `(e) ${SPOT_COUNT} cold spots start at once under the documented auth limit (1/s per client address), time scale ${COLD_TIME_SCALE}`,
    `  started (202): ${summary(runs.map((r) => r.e.started))}; API 5xx: ${summary(runs.map((r) => r.e.serverErrors))}; ` +
      `other answers: ${mergedTallies(runs.map((r) => r.e.otherAnswers))}`,
    `  completed: ${summary(runs.map((r) => r.e.completed))}; FAILED: ${summary(runs.map((r) => r.e.failed))}; ` +
      `other final states: ${mergedTallies(runs.map((r) => r.e.otherFinal))}; lost: ${summary(runs.map((r) => r.e.lost))}`,
    `  auth calls: ${summary(runs.map((r) => r.e.authCalls))}; refused (429): ${summary(runs.map((r) => r.e.authRefusals))} ` +
      `(${summary(
        runs.map((r) => (100 * r.e.authRefusals) / Math.max(1, r.e.authCalls)),
        1,
      )} %, bound ${MAX_AUTH_REFUSED_SHARE * 100} %)`,
    `  wall time to the last final state: ${summary(
      runs.map((r) => r.e.wallSeconds),
      1,
    )} s; bound ${COLD_WALL_TIME_FACTOR} × (${SPOT_COUNT} s of auth + one export's ${summary(
      runs.map((r) => r.e.oneExportSeconds),
      1,
    )} s) = ${summary(
      runs.map((r) => r.e.wallBoundSeconds),
      1,
    )} s`,
    '',
    '(d) local API, per phase',
    ...apiLines(
      '(a) POST /exports',
      runs.map((r) => r.a.api),
    ),
    ...apiLines(
      '(a) GET /exports/{id} right after',
      runs.map((r) => r.a.reads),
    ),
    `  (a) POST p50 ÷ GET p50, same run: ${summary(
      runs.map((r) => r.a.api.p50Ms / r.a.reads.p50Ms),
      2,
    )} (target ≤ ${POST_TO_GET_MAX_RATIO})`,
    ...apiLines(
      '(b) GET /exports/{id}',
      runs.map((r) => r.b.api),
    ),
    ...apiLines(
      '(c) POST /exports, no client limit',
      runs.map((r) => r.cUngoverned.api),
    ),
    ...apiLines(
      '(c) POST /exports, client limit',
      runs.map((r) => r.c.api),
    ),
    ...apiLines(
      '(e) POST /exports',
      runs.map((r) => r.e.api),
    ),
  ];
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
