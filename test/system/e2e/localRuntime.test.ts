import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExportView } from '../../../lib/http/exportView';
import {
  COMMENT_FIELDS,
  type OpenWebSimulator,
  startOpenWebSimulator,
} from '../../../local/openweb-simulator';
import { eventually, requestJson } from './support/http';
import {
  type CollectedProcess,
  type ExitResult,
  killAllChildProcesses,
  PROJECT_ROOT,
  type RuntimeProcess,
  spawnNode,
  startRuntimeProcess,
  within,
} from './support/runtimeProcess';

// The first start may synthesize the stack (then cached); later starts take a few seconds.
const FIRST_READY_TIMEOUT_MS = 120_000;
const READY_TIMEOUT_MS = 60_000;
const EXPORT_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 25_000;
const CLI_TIMEOUT_MS = 40_000;
/** Long enough for the archive to claim the export and ask for its first file. */
const ARCHIVE_UNDER_WAY_MS = 1_000;
// A simulated day (30 s + 24 min) lasts 1.5 s; a week about 10 s.
const TIME_SCALE = '0.001';
// The same stack config for every start, so the synthesized definition is cached once.
const STACK_CONFIG = JSON.stringify({
  spots: [{ spotId: 'sp_other', schedules: [{ expression: 'rate(1 day)', window: 'P1D' }] }],
});
const DEMO_KEYS = join(PROJECT_ROOT, 'local/demo-spots.json');
const DAY = { from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' };
const WEEK = { from: '2026-11-14T00:00:00Z', until: '2026-11-21T00:00:00Z' };
// 30 days: about 43 s at the first suite's time scale (its deadline, 21.6 s, comes first), so an
// abort answered slowly on a loaded machine still meets the export running.
const MONTH = { from: '2026-10-22T00:00:00Z', until: '2026-11-21T00:00:00Z' };

interface FileItem {
  name: string;
  key: string;
  sha256: string;
  url: string;
}

interface ExportEventView {
  detailType: string;
  detail: { exportId: string };
}

/** Waits for the runtime to announce a terminal export, without asking the upstream on the way. */
function terminalEvent(runtime: RuntimeProcess, exportId: string): Promise<ExportEventView> {
  return eventually(
    async () => {
      const { body } = await requestJson(`${runtime.apiUrl}/_local/events`);
      return (body as { events: ExportEventView[] }).events.find(
        (event) => event.detail.exportId === exportId,
      );
    },
    EXPORT_TIMEOUT_MS,
    `the terminal event of ${exportId}`,
  );
}

async function startExport(runtime: RuntimeProcess, spotId: string, body: unknown): Promise<ExportView> {
  const response = await requestJson(`${runtime.apiUrl}/exports`, { method: 'POST', spotId, body });
  expect(response.status).toBe(202);
  return response.body as ExportView;
}

/** Waits until the workflow's create task has created the export upstream (the view names its upstream id). */
function createdUpstream(runtime: RuntimeProcess, spotId: string, exportId: string): Promise<ExportView> {
  return eventually(
    async () => {
      const view = await getExport(runtime, spotId, exportId);
      return view.upstreamExportId === undefined ? undefined : view;
    },
    EXPORT_TIMEOUT_MS,
    `the upstream create of ${exportId}`,
  );
}

async function getExport(runtime: RuntimeProcess, spotId: string, exportId: string): Promise<ExportView> {
  const response = await requestJson(`${runtime.apiUrl}/exports/${exportId}`, { spotId });
  expect(response.status).toBe(200);
  return response.body as ExportView;
}

describe('the local runtime, run as npm start runs it', () => {
  let dataDir: string;
  let runtime: RuntimeProcess;
  let cli: ReturnType<typeof spawnNode> | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-'));
    runtime = await startRuntimeProcess(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_TIME_SCALE: TIME_SCALE,
        LOCAL_DATA_DIR: dataDir,
        LOCAL_STACK_CONFIG: STACK_CONFIG,
        LOG_LEVEL: 'ERROR',
      },
      FIRST_READY_TIMEOUT_MS,
    );
  }, FIRST_READY_TIMEOUT_MS + 5_000);

  afterEach(async () => {
    // Only the CLI may still run here; the runtime stays for the next test.
    if (cli !== undefined) cli.child.kill('SIGKILL');
    cli = undefined;
  });

  afterAll(async () => {
    await killAllChildProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints where everything is, and that it is loopback-only and unauthenticated', () => {
    // Assess
    const output = runtime.output();
    expect(output).toContain('NO authentication');
    expect(output).toMatch(/upstream {3}OpenWeb simulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('sp_demo, sp_other');
    expect(output).toMatch(/index {6}curl -s http:\/\/127\.0\.0\.1:\d+\/ \(version, routes, docs\)/);
    expect(output).toContain('Export-sp_other-0  rate(1 day) → every 1.4 min');
    expect(output).toContain(dataDir);
  });

  it(
    'polls an export started over HTTP to COMPLETED, with links to real zipped CSV files',
    async () => {
      // Act
      const started = await startExport(runtime, 'sp_demo', DAY);
      const event = await terminalEvent(runtime, started.exportId);
      const finished = await getExport(runtime, 'sp_demo', started.exportId);
      const download = await fetch(finished.links[0] as string);
      const archive = new Uint8Array(await download.arrayBuffer());

      // Assess
      // Answered before anything was sent upstream: the workflow creates it.
      expect(started.status).toBe('REQUESTED');
      expect(started.upstreamExportId).toBeUndefined();
      expect(event.detailType).toBe('Export Completed');
      expect(finished.status).toBe('COMPLETED');
      expect(finished.links.length).toBeGreaterThan(0);
      expect(download.status).toBe(200);
      expect(strFromU8(archive.subarray(0, 2))).toBe('PK');
      const files = Object.entries(unzipSync(archive));
      expect(files).toHaveLength(1);
      const [fileName, csv] = files[0] as [string, Uint8Array];
      expect(fileName).toMatch(/\.csv$/);
      expect(strFromU8(csv).split('\n')[0]?.trim()).toBe(COMMENT_FIELDS.join(','));
    },
    EXPORT_TIMEOUT_MS + 10_000,
  );

  it(
    'archives a completed export: GET /files lists each CSV with a URL whose bytes match its SHA-256, and the CLI downloads them',
    async () => {
      // Prepare
      const started = await startExport(runtime, 'sp_demo', { ...DAY, maxRecordsInFile: 100 });
      await terminalEvent(runtime, started.exportId);
      const finished = await getExport(runtime, 'sp_demo', started.exportId);
      const served = await Promise.all(
        finished.links.map(async (link) => {
          const [name, csv] = Object.entries(
            unzipSync(new Uint8Array(await (await fetch(link)).arrayBuffer())),
          )[0] as [string, Uint8Array];
          return { name, csv: strFromU8(csv) };
        }),
      );

      // Act
      const listing = await eventually(
        async () => {
          const { body } = await requestJson(`${runtime.apiUrl}/exports/${started.exportId}/files`, {
            spotId: 'sp_demo',
          });
          const files = body as { archive: { status: string }; items: FileItem[] };
          return files.archive.status === 'PENDING' ? undefined : files;
        },
        EXPORT_TIMEOUT_MS,
        `the archive of ${started.exportId}`,
      );
      const otherSpot = await requestJson(`${runtime.apiUrl}/exports/${started.exportId}/files`, {
        spotId: 'sp_other',
      });
      const badToken = await requestJson(
        `${runtime.apiUrl}/exports/${started.exportId}/files?nextToken=${listing.items.length}`,
        { spotId: 'sp_demo' },
      );
      const unknownParameter = await requestJson(
        `${runtime.apiUrl}/exports/${started.exportId}/files?page=2`,
        {
          spotId: 'sp_demo',
        },
      );
      const outDir = mkdtempSync(join(tmpdir(), 'openweb-exports-download-'));
      cli = spawnNode(
        [
          'cli/openweb-exports.mjs',
          'download',
          started.exportId,
          '--spot',
          'sp_demo',
          '--out',
          outDir,
          '--gunzip',
          '--api',
          runtime.apiUrl,
        ],
        {},
      );
      const exit = await within(cli.exited, CLI_TIMEOUT_MS, 'the CLI');

      // Assess
      expect(listing.archive.status).toBe('ARCHIVED');
      expect(listing.items.map((item) => item.name)).toEqual(served.map((file) => file.name));
      for (const [index, item] of listing.items.entries()) {
        expect(item.key).toMatch(
          new RegExp(`^exports/spot=sp_demo/date=2026-11-20/${started.exportId}/${index + 1}\\.csv\\.gz$`),
        );
        const stored = Buffer.from(await (await fetch(item.url)).arrayBuffer());
        expect(createHash('sha256').update(stored).digest('hex')).toBe(item.sha256);
        expect(gunzipSync(stored).toString('utf8')).toBe(served[index]?.csv);
        expect(readFileSync(join(outDir, started.exportId, item.name), 'utf8')).toBe(served[index]?.csv);
      }
      expect(otherSpot.status).toBe(404);
      expect(listing).not.toHaveProperty('nextToken');
      expect(badToken.status).toBe(400);
      expect(unknownParameter.status).toBe(400);
      expect(exit.code).toBe(0);
      expect(exit.output).toContain('sha256 verified');
      rmSync(outDir, { recursive: true, force: true });
    },
    EXPORT_TIMEOUT_MS * 2 + CLI_TIMEOUT_MS,
  );

  it('aborts a running export', async () => {
    // Prepare
    const started = await startExport(runtime, 'sp_demo', MONTH);

    // Act
    const aborted = await requestJson(`${runtime.apiUrl}/exports/${started.exportId}/abort`, {
      method: 'POST',
      spotId: 'sp_demo',
    });
    const event = await terminalEvent(runtime, started.exportId);

    // Assess
    expect(aborted.status).toBe(202);
    // Between create attempts the abort ends it at once; during one (the create in flight) it is
    // ABORTING until that attempt's answer is known, then ABORTED.
    expect(['ABORTED', 'ABORTING']).toContain((aborted.body as ExportView).status);
    expect(event.detailType).toBe('Export Aborted');
    expect((await getExport(runtime, 'sp_demo', started.exportId)).status).toBe('ABORTED');
  });

  it(
    'backfills three days with the CLI: one window a day, each archived, then nothing left to plan',
    async () => {
      // Prepare: three whole days up to the start of this hour (the CLI's default end)
      const hourMs = 3_600_000;
      const from = new Date((Math.floor(Date.now() / hourMs) - 72) * hourMs)
        .toISOString()
        .replace('.000Z', 'Z');
      const args = [
        'backfill',
        '--spot',
        'sp_demo',
        '--from',
        from,
        '--window',
        '24h',
        '--api',
        runtime.apiUrl,
      ];

      // Act
      cli = runCliProcess([...args, '--wait']);
      const exit = await within(cli.exited, CLI_TIMEOUT_MS, 'the CLI backfill');
      const backfillId = /backfill (bf_[0-9a-z]{26})/.exec(exit.output)?.[1];
      const { body } = await requestJson(`${runtime.apiUrl}/spots/sp_demo/backfills/${backfillId}`);
      const again = runCliProcess([...args, '--json']);
      const second = await within(again.exited, CLI_TIMEOUT_MS, 'the second CLI backfill');
      const until = new Date(Date.parse(from) + 72 * hourMs).toISOString().replace('.000Z', 'Z');
      const coverageCli = runCliProcess([
        'coverage',
        '--spot',
        'sp_demo',
        '--from',
        from,
        '--until',
        until,
        '--api',
        runtime.apiUrl,
      ]);
      const coverage = await within(coverageCli.exited, CLI_TIMEOUT_MS, 'the CLI coverage');

      // Assess
      expect(exit.code, exit.output).toBe(0);
      expect(exit.output).toContain('3 windows to export');
      const backfill = body as {
        status: string;
        windows: { state: string; exportId: string; rows: number }[];
        progress: { rowsArchived: number };
      };
      expect(backfill.status).toBe('COMPLETED');
      expect(backfill.windows.map((window) => window.state)).toEqual(['DONE', 'DONE', 'DONE']);
      for (const window of backfill.windows) {
        const archived = await getExport(runtime, 'sp_demo', window.exportId);
        expect(archived.archive.status).toBe('ARCHIVED');
        expect(archived.source).toBe('backfill');
      }
      expect(backfill.progress.rowsArchived).toBeGreaterThan(0);
      // The ledger holds the three days now: a second backfill of them plans nothing.
      expect(second.code, second.output).toBe(0);
      expect(JSON.parse(second.output.trim().split('\n')[0] as string)).toMatchObject({
        plan: { windowCount: 0, skippedHours: 72 },
      });
      // And coverage shows the three days covered, no gap (exit 0; 10 would mean gaps).
      expect(coverage.code, coverage.output).toBe(0);
      expect(coverage.output).toContain('72 h covered');
    },
    CLI_TIMEOUT_MS * 3 + EXPORT_TIMEOUT_MS,
  );

  it('lists the configured schedules and fires one by hand, recording an export for its spot', async () => {
    // Act
    const listed = await requestJson(`${runtime.apiUrl}/_local/schedules`);
    const fired = await requestJson(`${runtime.apiUrl}/_local/schedules/Export-sp_other-0/fire`, {
      method: 'POST',
    });
    const run = fired.body as {
      outcome: string;
      scheduledTime: string;
      result: { windows: { exportId: string; until: string }[] };
    };
    const page = await requestJson(`${runtime.apiUrl}/exports`, { spotId: 'sp_other' });
    const unknown = await requestJson(`${runtime.apiUrl}/_local/schedules/Nope/fire`, { method: 'POST' });

    // Assess
    const names = (listed.body as { schedules: { name: string }[] }).schedules.map(
      (schedule) => schedule.name,
    );
    expect(names).toEqual(['Export-sp_other-0', 'Reconciler']);
    expect(fired.status).toBe(200);
    expect(run.outcome).toBe('succeeded');
    const [window] = run.result.windows;
    const recorded = (page.body as { items: ExportView[] }).items.find(
      (item) => item.exportId === window?.exportId,
    );
    expect(recorded).toMatchObject({
      spotId: 'sp_other',
      source: 'schedule',
      origin: { schedule: 'schedule-0' },
    });
    expect(recorded?.request).toMatchObject({
      kind: 'dateRange',
      until: run.scheduledTime.replace(/\.\d+Z$/, 'Z'),
    });
    expect(unknown.status).toBe(404);
  });

  it('serves the committed OpenAPI document at /openapi.json', async () => {
    // Act
    const response = await fetch(`${runtime.apiUrl}/openapi.json`);
    const text = await response.text();

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(text).toBe(readFileSync(join(PROJECT_ROOT, 'openapi.json'), 'utf8'));
    expect(runtime.output()).toContain(`${runtime.apiUrl}/openapi.json`);
  });

  it('answers an invalid start with a 400 problem the OpenAPI document lists', async () => {
    // Act
    const response = await requestJson(`${runtime.apiUrl}/exports`, {
      method: 'POST',
      spotId: 'sp_demo',
      body: { from: DAY.from },
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: '/problems/invalid-request' });
  });

  it('answers 404 for unknown routes and 405 with Allow for a wrong method, as problems', async () => {
    // Act
    const notFound = await requestJson(`${runtime.apiUrl}/export`, { outsideApi: true });
    const wrongMethod = await requestJson(`${runtime.apiUrl}/exports/ex_1`, {
      method: 'POST',
      outsideApi: true,
    });

    // Assess
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('content-type')).toBe('application/problem+json');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it(
    'is followed to the end by the operator CLI, whose last JSON line is the COMPLETED view',
    async () => {
      // Prepare
      const started = await startExport(runtime, 'sp_demo', DAY);

      // Act
      cli = spawnNode(
        [
          'cli/openweb-exports.mjs',
          'watch',
          started.exportId,
          '--spot',
          'sp_demo',
          '--json',
          '--api',
          runtime.apiUrl,
        ],
        {},
      );
      const exit = await within(cli.exited, CLI_TIMEOUT_MS, 'the CLI');

      // Assess
      expect(exit.code).toBe(0);
      const lines = exit.output
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      const last = JSON.parse(lines.at(-1) as string) as ExportView;
      expect(last).toMatchObject({ exportId: started.exportId, status: 'COMPLETED' });
      expect(last.links.length).toBeGreaterThan(0);
    },
    CLI_TIMEOUT_MS + 5_000,
  );
});

describe('the local runtime across a restart', () => {
  // Stands in for OpenWeb, which outlives our restarts; each export takes 8 s.
  const EXPORT_DURATION_MS = 8_000;
  let upstream: OpenWebSimulator;
  let dataDir: string;

  beforeAll(async () => {
    upstream = await startOpenWebSimulator({
      exportDurationMs: () => EXPORT_DURATION_MS,
      authRequestsPerSecond: 0,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-restart-'));
  });

  afterAll(async () => {
    await killAllChildProcesses();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const environment = () => ({
    PORT: '0',
    OPENWEB_AUTH_BASE_URL: upstream.url,
    OPENWEB_EXPORT_BASE_URL: upstream.url,
    LOCAL_SECRETS_FILE: DEMO_KEYS,
    // Workflow waits and the deadline shrink; the upstream keeps its own time.
    LOCAL_TIME_SCALE: '0.01',
    LOCAL_DATA_DIR: dataDir,
    LOCAL_STACK_CONFIG: STACK_CONFIG,
    LOG_LEVEL: 'ERROR',
  });

  it(
    'stops on SIGTERM with exit 0 mid-export, and the next start completes the export',
    async () => {
      // Prepare
      const first = await startRuntimeProcess(environment(), FIRST_READY_TIMEOUT_MS);
      const requested = await startExport(first, 'sp_demo', DAY);
      const started = await createdUpstream(first, 'sp_demo', requested.exportId);

      // Act
      const stopped = await Promise.race([
        first.stop(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('did not stop')), STOP_TIMEOUT_MS),
        ),
      ]);
      const stateAtRestart = upstream.getExport(started.upstreamExportId as string)?.state;
      const second = await startRuntimeProcess(environment(), READY_TIMEOUT_MS);
      const event = await terminalEvent(second, started.exportId);
      const finished = await getExport(second, 'sp_demo', started.exportId);

      // Assess
      expect(stopped.code).toBe(0);
      expect(stopped.output).toContain('Stopped.');
      expect(stateAtRestart).toBe('processing');
      expect(event.detailType).toBe('Export Completed');
      expect(finished.status).toBe('COMPLETED');
      expect(finished.links.length).toBeGreaterThan(0);
      // Resumed, not started again: the upstream saw one export.
      expect(upstream.listExports('sp_demo')).toHaveLength(1);
      expect(second.output()).toMatch(/resumed what was left running: 1 examined/);
      expect((await second.stop()).code).toBe(0);
    },
    FIRST_READY_TIMEOUT_MS + READY_TIMEOUT_MS + STOP_TIMEOUT_MS + EXPORT_TIMEOUT_MS,
  );

  it(
    'archives after a restart an export that was COMPLETED when the runtime was killed (-9) mid-archive',
    async () => {
      // Prepare: every download hangs, so the archive is under way when the process dies.
      upstream.setFaults({ endpoints: { download: { latencyMs: 60_000 } } });
      const first = await startRuntimeProcess(environment(), READY_TIMEOUT_MS);
      const requested = await startExport(first, 'sp_demo', WEEK);
      const archiving = await eventually(
        async () => {
          const view = await getExport(first, 'sp_demo', requested.exportId);
          return view.status === 'COMPLETED' && view.archive.status === 'PENDING' ? view : undefined;
        },
        EXPORT_TIMEOUT_MS,
        `the archive of ${requested.exportId} under way`,
      );
      await sleep(ARCHIVE_UNDER_WAY_MS);

      // Act
      first.child.kill('SIGKILL');
      const killed = await first.exited;
      upstream.setFaults({});
      const second = await startRuntimeProcess(environment(), READY_TIMEOUT_MS);
      const archived = await eventually(
        async () => {
          const view = await getExport(second, 'sp_demo', requested.exportId);
          return view.archive.status === 'ARCHIVED' ? view : undefined;
        },
        EXPORT_TIMEOUT_MS,
        `the archive of ${requested.exportId} after the restart`,
      );

      // Assess
      expect(killed.signal).toBe('SIGKILL');
      expect(archiving.archive.status).toBe('PENDING');
      expect(archived.status).toBe('COMPLETED');
      expect(archived.archive.files).toBeGreaterThan(0);
      expect(upstream.getExport(archived.upstreamExportId as string)?.state).toBe('completed');
      expect(second.output()).toMatch(/resumed what was left running: .*1 archive\(s\) restarted/);
      expect((await second.stop()).code).toBe(0);
    },
    2 * READY_TIMEOUT_MS + 2 * EXPORT_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});

describe('the local runtime across a restart, with its built-in simulator', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-restart-simulator-'));
  });

  afterAll(async () => {
    await killAllChildProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // A simulated week lasts about 10 s at this scale: long enough to restart in the middle.
  const environment = () => ({
    PORT: '0',
    SIMULATOR_PORT: '0',
    LOCAL_TIME_SCALE: TIME_SCALE,
    LOCAL_DATA_DIR: dataDir,
    LOCAL_STACK_CONFIG: STACK_CONFIG,
    LOG_LEVEL: 'ERROR',
  });

  it(
    'keeps the simulated upstream’s exports and links, so an export in flight at a restart completes',
    async () => {
      // Prepare
      const first = await startRuntimeProcess(environment(), FIRST_READY_TIMEOUT_MS);
      const requested = await startExport(first, 'sp_demo', WEEK);
      const started = await createdUpstream(first, 'sp_demo', requested.exportId);
      const stopped = await first.stop();

      // Act
      const second = await startRuntimeProcess(environment(), READY_TIMEOUT_MS);
      await terminalEvent(second, started.exportId);
      const finished = await getExport(second, 'sp_demo', started.exportId);
      const download = await fetch(finished.links[0] as string);

      // Assess
      expect(stopped.code).toBe(0);
      expect(second.output()).toMatch(/resumed what was left running: 1 examined/);
      expect(finished.status).toBe('COMPLETED');
      expect(finished.upstreamExportId).toBe(started.upstreamExportId);
      expect(download.status).toBe(200);
      expect(new Uint8Array(await download.arrayBuffer()).subarray(0, 2)).toEqual(
        new Uint8Array([0x50, 0x4b]),
      );
      expect((await second.stop()).code).toBe(0);
    },
    FIRST_READY_TIMEOUT_MS + READY_TIMEOUT_MS + STOP_TIMEOUT_MS + EXPORT_TIMEOUT_MS,
  );
});

// What someone new meets when following the README: `npm start` run as a process, the CLI run as
// its bin, a second `npm start` beside the first, and a restart under a running watch.
// A simulated day lasts about 15 s and a week well over a minute: long enough to act on a running export.
const FIRST_STEPS_TIME_SCALE = '0.01';
const FIRST_STEPS_EXPORT_TIMEOUT_MS = 40_000;
const PROCESS_TIMEOUT_MS = 40_000;
const STACK_TRACE_LINE = /^\s+at /m;

function runCliProcess(args: string[]): CollectedProcess {
  return spawnNode(['cli/openweb-exports.mjs', ...args], {});
}

/** Waits until the export has been created upstream and polled once (so it has an upstream status). */
function polledUpstream(runtime: RuntimeProcess, spotId: string, exportId: string): Promise<ExportView> {
  return eventually(
    async () => {
      const view = await getExport(runtime, spotId, exportId);
      return view.upstreamStatus === undefined ? undefined : view;
    },
    FIRST_STEPS_EXPORT_TIMEOUT_MS,
    `the first poll of ${exportId}`,
  );
}

describe('a first run, as the README tells it', () => {
  let dataDir: string;
  let otherDataDir: string;
  let runtime: RuntimeProcess;

  const environment = (extra: Record<string, string> = {}) => ({
    PORT: '0',
    SIMULATOR_PORT: '0',
    LOCAL_FIRST_STEPS_TIME_SCALE: FIRST_STEPS_TIME_SCALE,
    LOCAL_DATA_DIR: dataDir,
    LOCAL_STACK_CONFIG: STACK_CONFIG,
    LOG_LEVEL: 'INFO',
    ...extra,
  });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-first-'));
    otherDataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-second-'));
    runtime = await startRuntimeProcess(environment(), FIRST_READY_TIMEOUT_MS);
  }, FIRST_READY_TIMEOUT_MS + 5_000);

  afterAll(async () => {
    await killAllChildProcesses();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDataDir, { recursive: true, force: true });
  });

  it('answers GET / with an index of the API and GET /health with ok', async () => {
    // Act
    const index = await requestJson(`${runtime.apiUrl}/`);
    const health = await requestJson(`${runtime.apiUrl}/health`);

    // Assess
    expect(index.status).toBe(200);
    expect(index.body).toMatchObject({
      name: 'openweb-exports',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      routes: expect.arrayContaining(['POST /exports', 'GET /exports/{exportId}']),
      spots: ['sp_demo', 'sp_other'],
      local: { health: '/health', schedules: '/_local/schedules' },
      docs: {
        readme: expect.stringMatching(/^file:.*README\.md$/),
        api: expect.stringMatching(/^file:.*docs\/http-api\.md$/),
        cli: expect.stringMatching(/^file:.*docs\/cli\.md$/),
      },
    });
    const docs = Object.values((index.body as { docs: Record<string, string> }).docs);
    expect(docs.filter((url) => !existsSync(fileURLToPath(url)))).toEqual([]);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', uptimeSeconds: expect.any(Number) });
  });

  it('refuses a window that ends in the future with a 400 naming body.until, and records nothing', async () => {
    // Act
    const future = await requestJson(`${runtime.apiUrl}/exports`, {
      method: 'POST',
      spotId: 'sp_demo',
      body: { from: '2027-01-01T00:00:00Z', until: '2099-01-02T00:00:00Z' },
    });
    const listed = await requestJson(`${runtime.apiUrl}/exports`, { spotId: 'sp_demo' });

    // Assess
    expect(future.status).toBe(400);
    expect(future.headers.get('content-type')).toBe('application/problem+json');
    const errors = (future.body as { errors: { field: string; message: string }[] }).errors;
    expect(errors).toEqual([
      { field: 'body.until', message: expect.stringContaining('must not be in the future') },
    ]);
    expect((listed.body as { items: ExportView[] }).items).toEqual([]);
  });

  it('answers a spot without credentials with a 422 that says where it looked, and leaves nothing behind', async () => {
    // Act
    const refused = await requestJson(`${runtime.apiUrl}/exports`, {
      method: 'POST',
      spotId: 'sp_nobody',
      body: DAY,
    });
    const listed = await requestJson(`${runtime.apiUrl}/exports`, { spotId: 'sp_nobody' });

    // Assess
    expect(refused.status).toBe(422);
    const detail = (refused.body as { detail: string }).detail;
    expect(detail).toBe(
      `No OpenWeb credentials are configured for spot sp_nobody: looked in file ${DEMO_KEYS}.`,
    );
    expect(JSON.stringify(refused.body)).not.toContain('api-key');
    expect(listed.status).toBe(200);
    expect((listed.body as { items: ExportView[] }).items).toEqual([]);
  });

  it(
    'names the option or command a CLI typo meant, then the usage line',
    async () => {
      // Act
      const [option, command] = await Promise.all([
        runCliProcess(['start', '--spot', 'sp_demo', '--last', 'P1D', '--wiat', '--api', runtime.apiUrl])
          .exited,
        runCliProcess(['stat', 'ex_1', '--spot', 'sp_demo']).exited,
      ]);

      // Assess
      expect(option.code).toBe(2);
      expect(option.output).toContain(
        'error: unknown option --wiat (did you mean --wait?)\nUsage: npx openweb-exports start --spot <id>',
      );
      expect(option.output).not.toContain("'--wiat");
      expect(command.code).toBe(2);
      expect(command.output).toContain(
        'error: unknown command stat (did you mean status?)\nUsage: npx openweb-exports <command> [options]',
      );
      // Nothing was started by the mistyped start.
      const listed = await requestJson(`${runtime.apiUrl}/exports`, { spotId: 'sp_demo' });
      expect((listed.body as { items: ExportView[] }).items).toEqual([]);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'queues a schedule fired while its spot is busy, and an abort reads "abort accepted" and starts the queued window at once',
    async () => {
      // Prepare: a week-long export holds sp_other
      const started = await startExport(runtime, 'sp_other', WEEK);
      const running = await polledUpstream(runtime, 'sp_other', started.exportId);

      // Act
      const fired = await requestJson(`${runtime.apiUrl}/_local/schedules/Export-sp_other-0/fire`, {
        method: 'POST',
      });
      const queuedId = (fired.body as { result: { windows: { exportId: string }[] } }).result.windows[0]
        ?.exportId as string;
      const whileBusy = await getExport(runtime, 'sp_other', queuedId);
      const aborted = await requestJson(`${runtime.apiUrl}/exports/${started.exportId}/abort`, {
        method: 'POST',
        spotId: 'sp_other',
      });
      const afterAbort = await getExport(runtime, 'sp_other', queuedId);
      const status = await within(
        runCliProcess(['status', started.exportId, '--spot', 'sp_other', '--api', runtime.apiUrl]).exited,
        PROCESS_TIMEOUT_MS,
        'the status command',
      );

      // Assess: the schedule's window waited in the spot's queue, then started as the abort freed the spot
      expect(fired.status).toBe(200);
      expect(fired.body).toMatchObject({
        schedule: 'Export-sp_other-0',
        outcome: 'succeeded',
        result: { windows: [{ planned: true, status: 'QUEUED' }] },
      });
      expect(whileBusy).toMatchObject({ status: 'QUEUED', queue: { position: 1, priority: 'first' } });
      expect(afterAbort.status).not.toBe('QUEUED');
      expect(afterAbort.dequeuedAt).toBeDefined();
      expect(runtime.output()).toMatch(
        new RegExp(
          `schedule Export-sp_other-0 \\(fired by hand\\): 1 window\\(s\\) up to .*export ${queuedId} QUEUED`,
        ),
      );
      // Assess: the abort
      expect(running.status).toBe('PROCESSING');
      expect(running.upstreamStatus).toBeDefined();
      expect(aborted.status).toBe(202);
      expect(aborted.body).toMatchObject({ status: 'ABORTED', upstreamStatus: 'abort accepted' });
      expect(await getExport(runtime, 'sp_other', started.exportId)).toMatchObject({
        status: 'ABORTED',
        upstreamStatus: 'abort accepted',
      });
      expect(status.code).toBe(4);
      expect(status.output).toMatch(/status +ABORTED \(upstream: abort accepted\)/);
    },
    FIRST_STEPS_EXPORT_TIMEOUT_MS + PROCESS_TIMEOUT_MS,
  );

  it(
    'stops a second npm start with one line per thing in use, and leaves the first one running',
    async () => {
      // Prepare
      const apiPort = new URL(runtime.apiUrl).port;
      const simulatorPort = /OpenWeb simulator at http:\/\/127\.0\.0\.1:(\d+)/.exec(runtime.output())?.[1];
      expect(simulatorPort).toBeDefined();
      const second = (extra: Record<string, string>) =>
        within(
          spawnNode(['--import', 'tsx', 'local/main.ts'], environment(extra)).exited,
          PROCESS_TIMEOUT_MS,
          'the second npm start',
        );

      // Act
      const sameFolder = await second({});
      const samePorts = await second({
        PORT: apiPort,
        SIMULATOR_PORT: simulatorPort as string,
        LOCAL_DATA_DIR: otherDataDir,
      });
      const health = await requestJson(`${runtime.apiUrl}/health`);

      // Assess
      const refusal = (result: ExitResult) => {
        expect(result.code).not.toBe(0);
        expect(result.output).not.toMatch(STACK_TRACE_LINE);
        expect(result.output).not.toContain('ready at');
        return result.output;
      };
      expect(refusal(sameFolder)).toContain(
        `the data folder ${dataDir} is in use by another npm start (pid ${runtime.child.pid}) — set LOCAL_DATA_DIR`,
      );
      // One line for each port.
      expect(refusal(samePorts)).toContain(
        `port ${apiPort} is in use — set PORT to a free port (PORT=0 picks one)\n` +
          `port ${simulatorPort} (the OpenWeb simulator) is in use — set SIMULATOR_PORT`,
      );
      expect(health.status).toBe(200);
      expect(runtime.child.exitCode).toBeNull();
    },
    2 * PROCESS_TIMEOUT_MS,
  );

  it(
    'keeps watching through a restart of npm start, showing that it reconnects, to the COMPLETED export',
    async () => {
      // Prepare
      const apiPort = new URL(runtime.apiUrl).port;
      const started = await startExport(runtime, 'sp_demo', DAY);
      const watch = runCliProcess([
        'watch',
        started.exportId,
        '--spot',
        'sp_demo',
        '--interval-seconds',
        '1',
        '--api',
        runtime.apiUrl,
      ]);
      await eventually(
        async () => (watch.output().includes(started.exportId) ? true : undefined),
        PROCESS_TIMEOUT_MS,
        'the first line of the watch',
      );

      // Act: Ctrl-C, a pause, and npm start again on the same port
      expect((await runtime.stop()).code).toBe(0);
      await sleep(2_000);
      runtime = await startRuntimeProcess(environment({ PORT: apiPort }), READY_TIMEOUT_MS);
      const watched = await within(
        watch.exited,
        FIRST_STEPS_EXPORT_TIMEOUT_MS + PROCESS_TIMEOUT_MS,
        'the watch',
      );

      // Assess
      expect(watched.code).toBe(0);
      expect(watched.output).toMatch(/reconnecting \(attempt 1 of 30, next in 1 s\): the API/);
      expect(watched.output).toContain(`${started.exportId}  reconnected`);
      expect(watched.output).toMatch(new RegExp(`${started.exportId}  COMPLETED`));
      expect(watched.output).not.toContain('error:');
    },
    READY_TIMEOUT_MS + FIRST_STEPS_EXPORT_TIMEOUT_MS + 2 * PROCESS_TIMEOUT_MS,
  );

  it(
    'gives up watching only after its reconnect attempts, saying the export keeps running and how to resume',
    async () => {
      // Prepare
      const started = await startExport(runtime, 'sp_demo', WEEK);
      const watch = runCliProcess([
        'watch',
        started.exportId,
        '--spot',
        'sp_demo',
        '--interval-seconds',
        '1',
        '--reconnect-attempts',
        '2',
        '--api',
        runtime.apiUrl,
      ]);
      await eventually(
        async () => (watch.output().includes(started.exportId) ? true : undefined),
        PROCESS_TIMEOUT_MS,
        'the first line of the watch',
      );

      // Act: npm start stops for good
      await runtime.stop();
      const watched = await within(watch.exited, PROCESS_TIMEOUT_MS, 'the watch');

      // Assess
      expect(watched.code).toBe(6);
      expect(watched.output).toContain('reconnecting (attempt 2 of 2, next in 2 s)');
      expect(watched.output).toContain(
        'Stopped watching after 2 reconnect attempts; the export keeps running. ' +
          `Resume watching with: npx openweb-exports watch ${started.exportId} --spot sp_demo --api ${runtime.apiUrl}`,
      );
    },
    2 * PROCESS_TIMEOUT_MS,
  );
});
