import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/http';
import {
  ARCHIVE_UNDER_WAY_MS,
  createdUpstream,
  DAY,
  EXPORT_TIMEOUT_MS,
  FIRST_READY_TIMEOUT_MS,
  getExport,
  READY_TIMEOUT_MS,
  restartableRuntimeForSuite,
  STACK_CONFIG,
  STOP_TIMEOUT_MS,
  startExport,
  TIME_SCALE,
  terminalEvent,
  WEEK,
} from './support/localRuntimeFixtures';
import { killAllChildProcesses, startRuntimeProcess } from './support/runtimeProcess';

// npm start stopped and started again (SIGTERM, kill -9) with exports under way: each one ends,
// nothing is created twice, and an archive cut short is finished.
describe('the local runtime across a restart', () => {
  // Stands in for OpenWeb, which outlives our restarts; each export takes 8 s.
  const EXPORT_DURATION_MS = 8_000;
  const suite = restartableRuntimeForSuite('restart', {
    exportDurationMs: () => EXPORT_DURATION_MS,
    authRequestsPerSecond: 0,
  });

  it(
    'stops on SIGTERM with exit 0 mid-export, and the next start completes the export',
    async () => {
      // Prepare
      const first = await startRuntimeProcess(suite.environment(), FIRST_READY_TIMEOUT_MS);
      const requested = await startExport(first, 'sp_demo', DAY);
      const started = await createdUpstream(first, 'sp_demo', requested.exportId);

      // Act
      const stopped = await Promise.race([
        first.stop(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('did not stop')), STOP_TIMEOUT_MS),
        ),
      ]);
      const stateAtRestart = suite.upstream.getExport(started.upstreamExportId as string)?.state;
      const second = await startRuntimeProcess(suite.environment(), READY_TIMEOUT_MS);
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
      expect(suite.upstream.listExports('sp_demo')).toHaveLength(1);
      expect(second.output()).toMatch(/resumed what was left running: 1 examined/);
      expect((await second.stop()).code).toBe(0);
    },
    FIRST_READY_TIMEOUT_MS + READY_TIMEOUT_MS + STOP_TIMEOUT_MS + EXPORT_TIMEOUT_MS,
  );

  it(
    'archives after a restart an export that was COMPLETED when the runtime was killed (-9) mid-archive',
    async () => {
      // Prepare: every download hangs, so the archive is under way when the process dies.
      suite.upstream.setFaults({ endpoints: { download: { latencyMs: 60_000 } } });
      const first = await startRuntimeProcess(suite.environment(), READY_TIMEOUT_MS);
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
      suite.upstream.setFaults({});
      const second = await startRuntimeProcess(suite.environment(), READY_TIMEOUT_MS);
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
      expect(suite.upstream.getExport(archived.upstreamExportId as string)?.state).toBe('completed');
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
