import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import type { SpotStatus } from '../../../lib/exports/fleet/fleetStatus';
import { eventually, requestJson } from './support/http';
import {
  CLI_TIMEOUT_MS,
  FIRST_READY_TIMEOUT_MS,
  runCliProcess,
  TIME_SCALE,
} from './support/localRuntimeFixtures';
import {
  killAllChildProcesses,
  type RuntimeProcess,
  startRuntimeProcess,
  within,
} from './support/runtimeProcess';

const ARCHIVE_TIMEOUT_MS = 60_000;
// A schedule that only runs when fired by hand here: its next time is in 2199.
const BY_HAND_ONLY = 'cron(0 0 1 1 ? 2199)';
const STACK_CONFIG = JSON.stringify({
  spots: [
    { spotId: 'sp_demo', schedules: [{ expression: BY_HAND_ONLY, window: 'P1D' }] },
    { spotId: 'sp_other' },
    { spotId: 'sp_third', schedules: [{ expression: BY_HAND_ONLY, window: 'P1D' }] },
  ],
});
const KEYS = {
  sp_demo: { apiKey: 'demo-api-key' },
  sp_other: { apiKey: 'other-api-key' },
  sp_third: { apiKey: 'third-api-key' },
};
const REPORT_DAYS = 3;

/**
 * "Is everything fine?" for a fleet of three spots, as a newcomer asks it: `npm start` as a
 * process with three spots, one schedule's run archived, then `fleet --json` and `report --out`
 * run as the CLI processes they are.
 */
describe('the fleet, run as npm start and the CLI run it', () => {
  let dataDir: string;
  let runtime: RuntimeProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-fleet-'));
    const keys = join(dataDir, 'spots.json');
    writeFileSync(keys, JSON.stringify(KEYS));
    runtime = await startRuntimeProcess(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_TIME_SCALE: TIME_SCALE,
        LOCAL_DATA_DIR: join(dataDir, 'data'),
        LOCAL_STACK_CONFIG: STACK_CONFIG,
        LOCAL_SECRETS_FILE: keys,
        LOG_LEVEL: 'ERROR',
      },
      FIRST_READY_TIMEOUT_MS,
    );
  }, FIRST_READY_TIMEOUT_MS + 5_000);

  afterAll(async () => {
    await killAllChildProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'answers fleet --json with the three spots and exits 0, and writes a self-contained report',
    async () => {
      // Prepare: sp_demo's schedule runs once and its day is archived
      const fired = await requestJson(`${runtime.apiUrl}/_local/schedules/Export-sp_demo-0/fire`, {
        method: 'POST',
      });
      expect(fired.status).toBe(200);
      await eventually(
        async () => {
          const response = await requestJson(`${runtime.apiUrl}/spots?spotId=sp_demo`, {});
          const [spot] = (response.body as { items: SpotStatus[] }).items;
          return spot?.coveredUntil === null || spot?.running !== undefined ? undefined : spot;
        },
        ARCHIVE_TIMEOUT_MS,
        'sp_demo covered',
      );
      const reportFile = join(dataDir, 'fleet.html');

      // Act
      const fleet = await within(
        runCliProcess(['fleet', '--json', '--api', runtime.apiUrl]).exited,
        CLI_TIMEOUT_MS,
        'the fleet command',
      );
      const report = await within(
        runCliProcess(['report', '--out', reportFile, '--days', String(REPORT_DAYS), '--api', runtime.apiUrl])
          .exited,
        CLI_TIMEOUT_MS,
        'the report command',
      );

      // Assess
      expect(fleet.code).toBe(ExitCode.SUCCESS);
      const { items } = JSON.parse(fleet.output.slice(fleet.output.indexOf('{'))) as { items: SpotStatus[] };
      expect(items.map((spot) => spot.spotId).sort()).toEqual(['sp_demo', 'sp_other', 'sp_third']);
      const byId = new Map(items.map((spot) => [spot.spotId, spot]));
      expect(byId.get('sp_demo')).toMatchObject({ configured: true, stale: false, gaps: { count: 0 } });
      expect(byId.get('sp_demo')?.coveredUntil).not.toBeNull();
      expect(byId.get('sp_other')).toMatchObject({
        freshnessTargetHours: null,
        stale: false,
        coveredUntil: null,
      });
      expect(byId.get('sp_third')).toMatchObject({ stale: false, coveredUntil: null });
      expect(report.code).toBe(ExitCode.SUCCESS);
      const html = readFileSync(reportFile, 'utf8');
      expect(html.match(/<td class="cell /g)).toHaveLength(3 * REPORT_DAYS);
      expect(html).toMatch(/data-spot="sp_demo" data-day="[\d-]+" data-state="covered"/);
      expect(html).not.toMatch(/<script|<link|@import|url\(|src=/i);
      // What the period cost: the archived run of sp_demo, from its export view's estimate.
      const demoCost = /<tr data-spot="sp_demo">.*?data-cost-usd="([^"]+)"/.exec(html);
      expect(Number(demoCost?.[1])).toBeGreaterThan(0);
      expect(html).toMatch(/export\(s\) cost an estimated \$\d/);
    },
    ARCHIVE_TIMEOUT_MS + 2 * CLI_TIMEOUT_MS,
  );
});
