// Backfills of many spots at once on the local runtime, in this process on loopback:
// `npm run bench:backfill` (BACKFILL_SPOTS, BACKFILL_WINDOWS, BACKFILL_WINDOW_HOURS and
// BACKFILL_TIME_SCALE change the run; BACKFILL_PRINT_WINDOWS=1 prints every window's figures). SPOT_COUNT spots each backfill WINDOWS_PER_SPOT windows, all started
// at once, with the simulator's rules on: one export per spot at a time, and its auth limit of one
// request per second per client address (paced fleet-wide as deployed). Time is simulated: the
// simulator's exports take 30 s + 60 s per hour of range, and everything (upstream durations,
// the workflow's waits and retries) runs TIME_SCALE real seconds per simulated second. Figures
// are in simulated seconds, measured side by side in one run; the table prints per spot and overall:
//   - queue factor: from the spot's first upstream create to its last window archived, ÷ the
//     sum of the upstream's own export durations for the spot (goal ≤ 1.05: the queue adds almost
//     nothing to what the upstream's one-at-a-time rule imposes);
//   - handoff: from one window's export recorded COMPLETED (the spot freed) to the next window's
//     create upstream, median and max (goal: median ≤ 2 s);
//   - seen after: from the upstream finishing an export to the workflow's poll recording it, median;
//   - auth calls (goal: ≤ one per spot per token lifetime, plus the cold start);
//   - windows exported twice (goal 0) and gaps (goal 0);
//   - the wait before the spot's first create (the cold start, paced across spots at 1 auth/s).
// Exits with 1 when a goal is missed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportView } from '../../lib/http/exportViewSchema';
import { parseLocalRuntimeSettings } from '../../local/localRuntimeSettings';
import type { SimulatedExportView, SimulatorRequest } from '../../local/openweb-simulator/index';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { type LocalRuntime, startLocalRuntime } from '../../local/startLocalRuntime';
import { median } from './support/median';

const SPOT_COUNT = Number(process.env.BACKFILL_SPOTS ?? 20);
const WINDOWS_PER_SPOT = Number(process.env.BACKFILL_WINDOWS ?? 12);
/** Set to print each window's figures, to see where time goes. */
const PRINT_WINDOWS = process.env.BACKFILL_PRINT_WINDOWS === '1';
/**
 * Twelve-hour windows: 750 s of simulated upstream time each (30 s + 12 × 60 s). A spot's first
 * window has no history to learn its end from, and polls back off up to 5 minutes: the longer the
 * windows, the less that one late find weighs (real backfills use windows of up to 730 hours).
 */
const WINDOW_HOURS = Number(process.env.BACKFILL_WINDOW_HOURS ?? 12);
/** Real seconds per simulated second: a window lasts 30 s, a spot's backfill about 6 minutes. */
const TIME_SCALE = Number(process.env.BACKFILL_TIME_SCALE ?? 0.04);
/** The upstream's token lifetime (24 h), in simulated seconds, as the simulator issues it. */
const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
/** The range ends on this whole hour, long past. */
const RANGE_UNTIL_MS = Date.parse('2026-06-01T00:00:00Z');
const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 3_600_000;
const STATUS_POLL_INTERVAL_MS = 1000;
/** The whole run gives up after twice the upstream's own time, plus the cold start and a margin. */
const RUN_MARGIN_MS = 180_000;
const GOALS = {
  queueFactor: 1.05,
  medianHandoffSeconds: 2,
  exportedTwice: 0,
  gaps: 0,
} as const;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface BackfillWindowView {
  from: string;
  until: string;
  state: string;
  exportId?: string;
}

interface BackfillView {
  backfillId: string;
  spotId: string;
  status: string;
  createdAt: string;
  windows: BackfillWindowView[];
}

interface SpotFigures {
  spotId: string;
  queueFactor: number;
  handoffsSeconds: number[];
  seenAfterSeconds: number[];
  firstCreateAfterSeconds: number;
  authCalls: number;
  exportedTwice: number;
  gaps: number;
  windowsDone: number;
}

const spotIds = Array.from({ length: SPOT_COUNT }, (_, index) => `sp_fill${String(index).padStart(2, '0')}`);

async function getJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function simulated(realMs: number): number {
  return realMs / TIME_SCALE / MS_PER_SECOND;
}

async function startRuntime(secretsFile: string): Promise<{ runtime: LocalRuntime; problems: string[] }> {
  const settings = parseLocalRuntimeSettings(
    {
      PORT: '0',
      SIMULATOR_PORT: '0',
      LOCAL_DATA_DIR: 'memory',
      LOCAL_SECRETS_FILE: secretsFile,
      LOCAL_TIME_SCALE: String(TIME_SCALE),
      LOCAL_STACK_CONFIG: '{}',
      LOG_LEVEL: 'SILENT',
    },
    { cwd: LOCAL_PROJECT_ROOT, projectRoot: LOCAL_PROJECT_ROOT },
  );
  const problems: string[] = [];
  const runtime = await startLocalRuntime({
    settings,
    say: (line) => {
      // A sweep's summary says "0 failed" when all is well.
      if (/\b[1-9]\d* failed\b|workflow \S+ failed/.test(line)) problems.push(line);
    },
  });
  return { runtime, problems };
}

async function startBackfill(runtime: LocalRuntime, spotId: string): Promise<BackfillView> {
  const body = {
    from: new Date(RANGE_UNTIL_MS - WINDOWS_PER_SPOT * WINDOW_HOURS * MS_PER_HOUR)
      .toISOString()
      .replace('.000Z', 'Z'),
    until: new Date(RANGE_UNTIL_MS).toISOString().replace('.000Z', 'Z'),
    windowHours: WINDOW_HOURS,
  };
  return getJson<BackfillView>(`${runtime.apiUrl}/spots/${spotId}/backfills`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Polls every backfill (bounded) until none is RUNNING; answers their last views. */
async function untilFinished(
  runtime: LocalRuntime,
  started: readonly BackfillView[],
): Promise<BackfillView[]> {
  const windowRealMs = (30 + WINDOW_HOURS * 60) * MS_PER_SECOND * TIME_SCALE;
  const deadline = Date.now() + 2 * WINDOWS_PER_SPOT * windowRealMs + RUN_MARGIN_MS;
  let views = [...started];
  while (views.some((view) => view.status === 'RUNNING')) {
    if (Date.now() > deadline) throw new Error('the backfills did not finish in time');
    await sleep(STATUS_POLL_INTERVAL_MS);
    views = await Promise.all(
      views.map((view) =>
        view.status === 'RUNNING'
          ? getJson<BackfillView>(`${runtime.apiUrl}/spots/${view.spotId}/backfills/${view.backfillId}`)
          : view,
      ),
    );
  }
  return views;
}

async function figuresOf(
  runtime: LocalRuntime,
  backfill: BackfillView,
  upstream: readonly SimulatedExportView[],
  requests: readonly SimulatorRequest[],
): Promise<SpotFigures> {
  const { spotId } = backfill;
  const exports = await Promise.all(
    backfill.windows
      .filter((window) => window.exportId !== undefined)
      .map((window) =>
        getJson<ExportView>(`${runtime.apiUrl}/exports/${window.exportId}`, {
          headers: { 'x-spot-id': spotId },
        }),
      ),
  );
  const byUpstreamId = new Map(upstream.map((created) => [created.id, created]));
  // The windows in the order the upstream ran them.
  const runs = exports
    .map((record) => ({ record, upstream: byUpstreamId.get(record.upstreamExportId ?? '') }))
    .filter((run): run is { record: ExportView; upstream: SimulatedExportView } => run.upstream !== undefined)
    .sort((a, b) => a.upstream.createdAt - b.upstream.createdAt);
  const spotUpstream = upstream.filter((created) => created.spotId === spotId);
  const upstreamSumMs = spotUpstream.reduce(
    (sum, created) => sum + (created.finishesAt - created.createdAt),
    0,
  );
  const firstCreateMs = Math.min(...spotUpstream.map((created) => created.createdAt));
  const lastArchivedMs = Math.max(...runs.map((run) => Date.parse(run.record.archive.archivedAt ?? '')));
  const handoffsSeconds = runs
    .slice(1)
    .map((run, index) =>
      simulated(run.upstream.createdAt - Date.parse(runs[index]?.record.completedAt ?? '')),
    );
  const seenAfterSeconds = runs.map((run) =>
    simulated(Date.parse(run.record.completedAt ?? '') - run.upstream.finishesAt),
  );
  if (PRINT_WINDOWS) {
    for (const [index, run] of runs.entries())
      console.log(
        `${spotId} window ${index + 1}: upstream ${fixed(simulated(run.upstream.finishesAt - run.upstream.createdAt), 1)} s, ` +
          `seen after ${fixed(seenAfterSeconds[index] as number, 1)} s, handoff before it ${fixed(index === 0 ? Number.NaN : (handoffsSeconds[index - 1] as number), 1)} s`,
      );
  }
  const created = new Map<string, number>();
  for (const upstreamExport of spotUpstream) {
    const key = `${String(upstreamExport.request.from)}..${String(upstreamExport.request.until)}`;
    created.set(key, (created.get(key) ?? 0) + 1);
  }
  return {
    spotId,
    queueFactor: (lastArchivedMs - firstCreateMs) / upstreamSumMs,
    handoffsSeconds,
    seenAfterSeconds,
    firstCreateAfterSeconds: simulated(firstCreateMs - Date.parse(backfill.createdAt)),
    authCalls: requests.filter((request) => request.endpoint === 'auth' && request.spotId === spotId).length,
    exportedTwice: [...created.values()].filter((count) => count > 1).length,
    gaps: backfill.windows.filter((window) => window.state === 'GAP').length,
    windowsDone: backfill.windows.filter((window) => window.state === 'DONE').length,
  };
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function table(figures: readonly SpotFigures[], allowedAuthCalls: number): string[] {
  const header =
    '| spot | windows done | queue factor | handoff median (s) | handoff max (s) | seen after, median (s) | first create after (s) | auth calls | exported twice | gaps |';
  const rule = '|---|---|---|---|---|---|---|---|---|---|';
  const row = (f: SpotFigures) =>
    `| ${f.spotId} | ${f.windowsDone}/${WINDOWS_PER_SPOT} | ${fixed(f.queueFactor, 3)} | ${fixed(median(f.handoffsSeconds), 2)} | ` +
    `${fixed(Math.max(...f.handoffsSeconds), 2)} | ${fixed(median(f.seenAfterSeconds), 2)} | ${fixed(f.firstCreateAfterSeconds, 1)} | ` +
    `${f.authCalls} | ${f.exportedTwice} | ${f.gaps} |`;
  const allHandoffs = figures.flatMap((f) => f.handoffsSeconds);
  const overall =
    `| **all ${figures.length} spots (median of spots; handoffs: median and max of all)** | ` +
    `${figures.reduce((sum, f) => sum + f.windowsDone, 0)}/${figures.length * WINDOWS_PER_SPOT} | ` +
    `${fixed(median(figures.map((f) => f.queueFactor)), 3)} (max ${fixed(Math.max(...figures.map((f) => f.queueFactor)), 3)}) | ` +
    `${fixed(median(allHandoffs), 2)} | ${fixed(Math.max(...allHandoffs), 2)} | ` +
    `${fixed(median(figures.flatMap((f) => f.seenAfterSeconds)), 2)} | ` +
    `${fixed(median(figures.map((f) => f.firstCreateAfterSeconds)), 1)} (max ${fixed(Math.max(...figures.map((f) => f.firstCreateAfterSeconds)), 1)}) | ` +
    `${figures.reduce((sum, f) => sum + f.authCalls, 0)} (goal ≤ ${allowedAuthCalls * figures.length}) | ` +
    `${figures.reduce((sum, f) => sum + f.exportedTwice, 0)} | ${figures.reduce((sum, f) => sum + f.gaps, 0)} |`;
  return [header, rule, ...figures.map(row), overall];
}

function missedGoals(figures: readonly SpotFigures[], allowedAuthCalls: number): string[] {
  const missed: string[] = [];
  for (const f of figures) {
    if (f.windowsDone !== WINDOWS_PER_SPOT) missed.push(`${f.spotId}: ${f.windowsDone} windows done`);
    if (!(f.queueFactor <= GOALS.queueFactor))
      missed.push(`${f.spotId}: queue factor ${fixed(f.queueFactor, 3)}`);
    if (f.authCalls > allowedAuthCalls) missed.push(`${f.spotId}: ${f.authCalls} auth calls`);
    if (f.exportedTwice > GOALS.exportedTwice)
      missed.push(`${f.spotId}: ${f.exportedTwice} windows exported twice`);
    if (f.gaps > GOALS.gaps) missed.push(`${f.spotId}: ${f.gaps} gaps`);
  }
  const handoff = median(figures.flatMap((f) => f.handoffsSeconds));
  if (!(handoff <= GOALS.medianHandoffSeconds)) missed.push(`median handoff ${fixed(handoff, 2)} s`);
  return missed;
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'openweb-exports-backfill-'));
  const secretsFile = join(directory, 'spots.json');
  writeFileSync(
    secretsFile,
    JSON.stringify(Object.fromEntries(spotIds.map((spotId) => [spotId, { apiKey: `fill-key-${spotId}` }]))),
  );
  const { runtime, problems } = await startRuntime(secretsFile);
  let figures: SpotFigures[];
  let runSeconds: number;
  try {
    const startedAt = Date.now();
    const started = await Promise.all(spotIds.map((spotId) => startBackfill(runtime, spotId)));
    const finished = await untilFinished(runtime, started);
    runSeconds = (Date.now() - startedAt) / MS_PER_SECOND;
    const upstream = (
      await getJson<{ exports: SimulatedExportView[] }>(`${runtime.simulatorUrl}/__simulator/exports`)
    ).exports;
    const { requests } = await getJson<{ requests: SimulatorRequest[] }>(
      `${runtime.simulatorUrl}/__simulator/requests`,
    );
    figures = await Promise.all(finished.map((backfill) => figuresOf(runtime, backfill, upstream, requests)));
  } finally {
    await runtime.stop();
    rmSync(directory, { recursive: true, force: true });
  }
  // The run spans this much simulated time; each spot signs in once per token lifetime, plus its cold start.
  const simulatedRunSeconds = runSeconds / TIME_SCALE;
  const allowedAuthCalls = 1 + Math.floor(simulatedRunSeconds / TOKEN_LIFETIME_SECONDS);
  const missed = missedGoals(figures, allowedAuthCalls);
  const lines = [
    `Backfill on the local runtime (in process, loopback, in-memory table): ${SPOT_COUNT} spots × ${WINDOWS_PER_SPOT} windows ` +
      `of ${WINDOW_HOURS} h started at once; the simulator runs one export per spot at a time and allows 1 auth/s ` +
      `per client address; time scale ${TIME_SCALE} (figures in simulated seconds); one run, ${fixed(runSeconds, 0)} s real.`,
    '',
    ...table(figures, allowedAuthCalls),
    '',
    `goals: queue factor ≤ ${GOALS.queueFactor} for every spot, median handoff ≤ ${GOALS.medianHandoffSeconds} s, ` +
      `auth calls ≤ ${allowedAuthCalls} per spot, no window exported twice, no gap`,
    missed.length === 0 ? 'goals: all met' : `goals missed:\n  ${missed.join('\n  ')}`,
  ];
  if (problems.length > 0)
    lines.push('', `runtime reported ${problems.length} failure line(s), first: ${problems[0]}`);
  if (missed.length > 0) process.exitCode = 1;
  console.log(lines.join('\n'));
}

await main();
