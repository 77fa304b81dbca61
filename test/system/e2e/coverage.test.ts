import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import type { SpotCoverage } from '../../../lib/exports/coverage/spotCoverageSchema';
import { eventually, requestJson } from './support/http';
import { CLI_TIMEOUT_MS, runCliProcess, runtimeForSuite } from './support/localRuntimeFixtures';
import { type ExitResult, within } from './support/runtimeProcess';

const ARCHIVE_TIMEOUT_MS = 60_000;
// Schedules that only run when fired by hand here: their next time is in 2199.
const BY_HAND_ONLY = 'cron(0 0 1 1 ? 2199)';
const STACK_CONFIG = JSON.stringify({
  spots: [
    { spotId: 'sp_demo', schedules: [{ expression: BY_HAND_ONLY, window: 'P1D' }] },
    { spotId: 'sp_other', schedules: [{ expression: BY_HAND_ONLY, window: 'P1D' }] },
  ],
});
const SIMULATOR_URL = /OpenWeb simulator at (http:\/\/127\.0\.0\.1:\d+)/;

interface FiredRun {
  outcome: string;
  result: { watermark: string; windows: { from: string; until: string; exportId: string }[] };
}

/**
 * The coverage a newcomer sees after the README's schedule example: the local runtime as a
 * process, a schedule fired by hand, its window exported and archived, then `coverage` run as
 * the CLI process it is.
 */
describe('coverage, run as npm start and the CLI run it', () => {
  const suite = runtimeForSuite('coverage', { LOCAL_STACK_CONFIG: STACK_CONFIG });

  async function fire(schedule: string): Promise<FiredRun> {
    const fired = await requestJson(`${suite.runtime.apiUrl}/_local/schedules/${schedule}/fire`, {
      method: 'POST',
    });
    expect(fired.status).toBe(200);
    return fired.body as FiredRun;
  }

  /** The API's answer, once `ready` says it is what the test waits for. */
  function coverageOnce(spotId: string, ready: (coverage: SpotCoverage) => boolean): Promise<SpotCoverage> {
    return eventually(
      async () => {
        const response = await requestJson(`${suite.runtime.apiUrl}/spots/${spotId}/coverage`, { spotId });
        expect(response.status).toBe(200);
        const coverage = response.body as SpotCoverage;
        return ready(coverage) ? coverage : undefined;
      },
      ARCHIVE_TIMEOUT_MS,
      `the coverage of ${spotId}`,
    );
  }

  function runCoverageCli(spotId: string, ...args: string[]): Promise<ExitResult> {
    const cli = runCliProcess(['coverage', '--spot', spotId, '--api', suite.runtime.apiUrl, ...args]);
    return within(cli.exited, CLI_TIMEOUT_MS, 'the coverage command');
  }

  it(
    "shows the 24 hours a schedule's first run exported as covered once archived, and exits 0",
    async () => {
      // Prepare
      const run = await fire('Export-sp_demo-0');
      const [window] = run.result.windows;
      await coverageOnce('sp_demo', (coverage) => coverage.summary.coveredHours > 0);

      // Act
      const shown = await runCoverageCli('sp_demo');
      const json = await runCoverageCli('sp_demo', '--json');

      // Assess
      expect(run.outcome).toBe('succeeded');
      expect(run.result.windows).toHaveLength(1);
      expect(shown.code).toBe(ExitCode.SUCCESS);
      expect(shown.output).toMatch(/In all: 24 h covered, 0 h in flight, 0 h gap, /);
      // The hour the range ends in may be mostly past the window's end: not planned yet.
      expect(shown.output).toMatch(
        /^\d{4}-\d{2}-\d{2} {2}[ #.]{6} [ #.]{6} [ #.]{6} [ #.]{6} +\d+(\.\d)? h$/m,
      );
      expect(shown.output).toContain('Gaps: none.');
      expect(shown.output).toMatch(new RegExp(`schedule-0 +${window?.until.slice(0, 10)} `));
      expect(json.code).toBe(ExitCode.SUCCESS);
      const coverage = JSON.parse(json.output.slice(json.output.indexOf('{'))) as SpotCoverage;
      expect(coverage.range.from).toBe(window?.from);
      expect(coverage.covered).toEqual([{ from: window?.from, until: window?.until }]);
      expect(coverage.summary).toMatchObject({ coveredHours: 24, inFlightHours: 0, gapHours: 0 });
      expect(coverage.watermarks).toEqual([
        expect.objectContaining({ schedule: 'schedule-0', until: window?.until }),
      ]);
    },
    ARCHIVE_TIMEOUT_MS + 2 * CLI_TIMEOUT_MS,
  );

  it(
    'shows a window the upstream refused as a gap with its reason and the command that fills it, and exits 10',
    async () => {
      // Prepare: the upstream refuses the next create, so the window is given up on at once
      const simulatorUrl = SIMULATOR_URL.exec(suite.runtime.output())?.[1];
      expect(simulatorUrl).toBeDefined();
      const faults = await fetch(`${simulatorUrl}/__simulator/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ script: [{ endpoint: 'create', kind: 'error', status: 400 }] }),
      });
      expect(faults.status).toBeLessThan(300);
      const run = await fire('Export-sp_other-0');
      const [window] = run.result.windows;
      await coverageOnce('sp_other', (coverage) => coverage.gaps.length > 0);

      // Act
      const shown = await runCoverageCli('sp_other');

      // Assess
      expect(shown.code).toBe(ExitCode.COVERAGE_GAPS);
      expect(shown.output).toMatch(/In all: 0 h covered, 0 h in flight, 24 h gap, /);
      expect(shown.output).toMatch(/^\d{4}-\d{2}-\d{2} {2}[ X.]{6} [ X.]{6} [ X.]{6} [ X.]{6} +0 h$/m);
      expect(shown.output).toContain('Gaps (1)');
      expect(shown.output).toMatch(/why: +the upstream rejected the request: /);
      expect(shown.output).toContain(
        `fill it: npx openweb-exports start --spot sp_other --from ${window?.from} --until ${window?.until}`,
      );
    },
    ARCHIVE_TIMEOUT_MS + CLI_TIMEOUT_MS,
  );
});
