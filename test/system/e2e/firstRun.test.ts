import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { eventually, requestJson } from './support/http';
import {
  DAY,
  DEMO_KEYS,
  FIRST_READY_TIMEOUT_MS,
  getExport,
  READY_TIMEOUT_MS,
  runCliProcess,
  STACK_CONFIG,
  startExport,
  WEEK,
} from './support/localRuntimeFixtures';
import {
  type ExitResult,
  killAllChildProcesses,
  type RuntimeProcess,
  spawnNode,
  startRuntimeProcess,
  within,
} from './support/runtimeProcess';

// What someone new meets when following the README: `npm start` run as a process, the CLI run as
// its bin, a second `npm start` beside the first, and a restart under a running watch.
// A simulated day lasts about 15 s and a week well over a minute: long enough to act on a running export.
const FIRST_STEPS_TIME_SCALE = '0.01';
const FIRST_STEPS_EXPORT_TIMEOUT_MS = 40_000;
const PROCESS_TIMEOUT_MS = 40_000;
const STACK_TRACE_LINE = /^\s+at /m;

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
