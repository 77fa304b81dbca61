// What the end-to-end files share: npm start's settings and time scales, the stack
// configuration every start gives (so its synthesized definition is cached once), and the
// waits on a running runtime's API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ExportView } from '../../../../lib/http/exportViewSchema';
import {
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../../../local/openweb-simulator/index';
import { eventually, requestJson } from './http';
import {
  type CollectedProcess,
  type ExitResult,
  killAllChildProcesses,
  PROJECT_ROOT,
  type RuntimeProcess,
  spawnNode,
  startRuntimeProcess,
  within,
} from './runtimeProcess';

// The first start may synthesize the stack (then cached); later starts take a few seconds.
export const FIRST_READY_TIMEOUT_MS = 120_000;
export const READY_TIMEOUT_MS = 60_000;
export const EXPORT_TIMEOUT_MS = 30_000;
export const STOP_TIMEOUT_MS = 25_000;
export const CLI_TIMEOUT_MS = 40_000;
/** Long enough for the archive to claim the export and ask for its first file. */
export const ARCHIVE_UNDER_WAY_MS = 1_000;
// A simulated day (30 s + 24 min) lasts 1.5 s; a week about 10 s.
export const TIME_SCALE = '0.001';
// The same stack config for every start, so the synthesized definition is cached once.
export const STACK_CONFIG = JSON.stringify({
  spots: [{ spotId: 'sp_other', schedules: [{ expression: 'rate(1 day)', window: 'P1D' }] }],
});
export const DEMO_KEYS = join(PROJECT_ROOT, 'local/demo-spots.json');
export const DAY = { from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' };
export const WEEK = { from: '2026-11-14T00:00:00Z', until: '2026-11-21T00:00:00Z' };
// 30 days: about 43 s at the first suite's time scale (its deadline, 21.6 s, comes first), so an
// abort answered slowly on a loaded machine still meets the export running.
export const MONTH = { from: '2026-10-22T00:00:00Z', until: '2026-11-21T00:00:00Z' };

export interface FileItem {
  name: string;
  key: string;
  sha256: string;
  url: string;
}

export interface ExportEventView {
  detailType: string;
  detail: { exportId: string };
}

/** Waits for the runtime to announce a terminal export, without asking the upstream on the way. */
export function terminalEvent(runtime: RuntimeProcess, exportId: string): Promise<ExportEventView> {
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

export async function startExport(
  runtime: RuntimeProcess,
  spotId: string,
  body: unknown,
): Promise<ExportView> {
  const response = await requestJson(`${runtime.apiUrl}/exports`, { method: 'POST', spotId, body });
  expect(response.status).toBe(202);
  return response.body as ExportView;
}

/** Waits until the workflow's create task has created the export upstream (the view names its upstream id). */
export function createdUpstream(
  runtime: RuntimeProcess,
  spotId: string,
  exportId: string,
): Promise<ExportView> {
  return eventually(
    async () => {
      const view = await getExport(runtime, spotId, exportId);
      return view.upstreamExportId === undefined ? undefined : view;
    },
    EXPORT_TIMEOUT_MS,
    `the upstream create of ${exportId}`,
  );
}

export async function getExport(
  runtime: RuntimeProcess,
  spotId: string,
  exportId: string,
): Promise<ExportView> {
  const response = await requestJson(`${runtime.apiUrl}/exports/${exportId}`, { spotId });
  expect(response.status).toBe(200);
  return response.body as ExportView;
}

/** The CLI run as its bin is run, collecting its output. */
export function runCliProcess(args: string[]): CollectedProcess {
  return spawnNode(['cli/openweb-exports.mjs', ...args], {});
}

/** A query starts DuckDB: longer than the other commands. */
export const QUERY_TIMEOUT_MS = 60_000;

export interface SuiteRuntime {
  /** Set once the suite's beforeAll has run. */
  readonly runtime: RuntimeProcess;
  /** Its own data folder, removed after the suite. */
  readonly dataDir: string;
}

/**
 * `npm start` as a process for one describe block: started before its tests (its own data folder,
 * ports chosen by the system, the suites' time scale, only errors logged, then `settings`) and
 * stopped with every child process after them.
 */
export function runtimeForSuite(name: string, settings: Record<string, string> = {}): SuiteRuntime {
  const suite: { runtime?: RuntimeProcess; dataDir?: string } = {};
  beforeAll(async () => {
    suite.dataDir = mkdtempSync(join(tmpdir(), `openweb-exports-e2e-${name}-`));
    suite.runtime = await startRuntimeProcess(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_TIME_SCALE: TIME_SCALE,
        LOCAL_DATA_DIR: suite.dataDir,
        LOG_LEVEL: 'ERROR',
        ...settings,
      },
      FIRST_READY_TIMEOUT_MS,
    );
  }, FIRST_READY_TIMEOUT_MS + 5_000);
  afterAll(async () => {
    await killAllChildProcesses();
    if (suite.dataDir !== undefined) rmSync(suite.dataDir, { recursive: true, force: true });
  });
  return {
    get runtime(): RuntimeProcess {
      if (suite.runtime === undefined) throw new Error('the runtime is started in beforeAll');
      return suite.runtime;
    },
    get dataDir(): string {
      if (suite.dataDir === undefined) throw new Error('the data folder is made in beforeAll');
      return suite.dataDir;
    },
  };
}

/** `query … --format json --local` over a runtime's data folder, run as the CLI process it is. */
export function runLocalQuery(dataDir: string, sql: string): Promise<ExitResult> {
  const cli = runCliProcess(['query', sql, '--format', 'json', '--local', '--data-dir', dataDir]);
  return within(cli.exited, QUERY_TIMEOUT_MS, `the query ${sql}`);
}

/** The rows a successful `query --format json` printed. */
export function queryRows<Row>(exit: ExitResult): Row[] {
  expect(exit.code, exit.output).toBe(0);
  return JSON.parse(exit.output.slice(exit.output.indexOf('['), exit.output.lastIndexOf(']') + 1)) as Row[];
}

export interface RestartableSuite {
  /** The upstream, outliving every start and stop of the runtime (as OpenWeb outlives ours). */
  readonly upstream: OpenWebSimulator;
  /** The data folder every start of the suite shares, removed after the suite. */
  readonly dataDir: string;
  /** npm start's settings on that upstream and folder (the demo keys, the suites' stack config, a time scale of 0.01). */
  environment(): Record<string, string>;
}

/**
 * For a describe block that starts and stops `npm start` itself (restarts, kill -9): an upstream
 * of its own started before its tests and one data folder, both removed with every child process
 * after them.
 */
export function restartableRuntimeForSuite(
  name: string,
  simulator: OpenWebSimulatorOptions,
): RestartableSuite {
  const suite: { upstream?: OpenWebSimulator; dataDir?: string } = {};
  beforeAll(async () => {
    suite.upstream = await startOpenWebSimulator(simulator);
    suite.dataDir = mkdtempSync(join(tmpdir(), `openweb-exports-e2e-${name}-`));
  });
  afterAll(async () => {
    await killAllChildProcesses();
    await suite.upstream?.close();
    if (suite.dataDir !== undefined) rmSync(suite.dataDir, { recursive: true, force: true });
  });
  const started = () => {
    if (suite.upstream === undefined || suite.dataDir === undefined) throw new Error('started in beforeAll');
    return { upstream: suite.upstream, dataDir: suite.dataDir };
  };
  return {
    get upstream() {
      return started().upstream;
    },
    get dataDir() {
      return started().dataDir;
    },
    environment: () => ({
      PORT: '0',
      OPENWEB_AUTH_BASE_URL: started().upstream.url,
      OPENWEB_EXPORT_BASE_URL: started().upstream.url,
      LOCAL_SECRETS_FILE: DEMO_KEYS,
      // Workflow waits and the deadline shrink; the upstream keeps its own time.
      LOCAL_TIME_SCALE: '0.01',
      LOCAL_DATA_DIR: started().dataDir,
      LOCAL_STACK_CONFIG: STACK_CONFIG,
      LOG_LEVEL: 'ERROR',
    }),
  };
}
