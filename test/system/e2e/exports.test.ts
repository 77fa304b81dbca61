import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { COMMENT_FIELDS } from '../../../local/openweb-simulator';
import { eventually, requestJson } from './support/http';
import {
  CLI_TIMEOUT_MS,
  DAY,
  EXPORT_TIMEOUT_MS,
  FIRST_READY_TIMEOUT_MS,
  type FileItem,
  getExport,
  MONTH,
  runCliProcess,
  STACK_CONFIG,
  startExport,
  TIME_SCALE,
  terminalEvent,
} from './support/localRuntimeFixtures';
import {
  killAllChildProcesses,
  PROJECT_ROOT,
  type RuntimeProcess,
  spawnNode,
  startRuntimeProcess,
  within,
} from './support/runtimeProcess';

// npm start as a process, one runtime for every test: exports through the API and the CLI, archive
// and downloads, abort, schedules, the OpenAPI document and the API's problems.
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
