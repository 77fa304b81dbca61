import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import type { CoveredWindowView, SpotCoverage } from '../../../lib/exports/coverage/spotCoverageSchema';
import { eventually, requestJson } from './support/http';
import {
  CLI_TIMEOUT_MS,
  QUERY_TIMEOUT_MS,
  queryRows,
  runCliProcess,
  runLocalQuery,
  runtimeForSuite,
} from './support/localRuntimeFixtures';
import { type ExitResult, within } from './support/runtimeProcess';

// What docs/local.md's "Windows exported again" has a reader copy: npm start's default time scale,
// one schedule fired by hand, its window exported again at PT1H (36 s at this scale).
const TIME_SCALE = '0.01';
const STACK_CONFIG = JSON.stringify({
  spots: [
    { spotId: 'sp_demo', schedules: [{ expression: 'rate(1 day)', window: 'PT1H', restate: ['PT1H'] }] },
  ],
});
// A comment a second, every one changing its status once within a simulated hour (36 s here): the
// window's last 36 s hold about 36 comments, a good share of them changing between its two exports.
const SIMULATOR_SETTINGS = {
  SIMULATOR_COMMENTS_PER_HOUR: '3600',
  SIMULATOR_STATUS_CHANGE_SHARE: '1',
  SIMULATOR_MAX_CHANGE_DELAY_SECONDS: '3600',
};
const RESTATED_AGE = 'PT36S';
const RESTATED_AGE_MS = 36_000;
/** The first export and its archive, 36 s, the restatement and its archive, with room on a loaded machine. */
const SETTLED_TIMEOUT_MS = 150_000;

interface FiredRun {
  outcome: string;
  result: { windows: { from: string; until: string; exportId: string }[] };
}

interface ChangeRow {
  id: string;
  change: string;
  before: string;
  after: string;
  before_export_id: string;
  after_export_id: string;
}

/**
 * A window exported again by itself, as a newcomer meets it: `npm start` as a process with a
 * schedule that names a restatement age, the schedule fired once, then the coverage (API and CLI)
 * and `query` on `comments` and `comment_changes`, run as the CLI processes they are.
 */
describe('restatement, run as npm start and the CLI run it', () => {
  const suite = runtimeForSuite('restatement', {
    LOCAL_TIME_SCALE: TIME_SCALE,
    LOCAL_STACK_CONFIG: STACK_CONFIG,
    ...SIMULATOR_SETTINGS,
  });

  /** The spot's one covered window, once `ready` says it is what the test waits for. */
  function coveredWindowOnce(ready: (window: CoveredWindowView) => boolean): Promise<CoveredWindowView> {
    return eventually(
      async () => {
        const response = await requestJson(`${suite.runtime.apiUrl}/spots/sp_demo/coverage`, {
          spotId: 'sp_demo',
        });
        expect(response.status).toBe(200);
        const [window] = (response.body as SpotCoverage).coveredWindows;
        return window !== undefined && ready(window) ? window : undefined;
      },
      SETTLED_TIMEOUT_MS,
      'the covered window of sp_demo',
    );
  }

  function runCoverageCli(): Promise<ExitResult> {
    const cli = runCliProcess(['coverage', '--spot', 'sp_demo', '--api', suite.runtime.apiUrl]);
    return within(cli.exited, CLI_TIMEOUT_MS, 'the coverage command');
  }

  async function query<Row>(sql: string): Promise<Row[]> {
    return queryRows<Row>(await runLocalQuery(suite.dataDir, sql));
  }

  it(
    'exports the window again at its age by itself, moves it from provisional to settled, and answers with the newest status and the change',
    async () => {
      // Prepare: the schedule's first run, archived
      const fired = await requestJson(`${suite.runtime.apiUrl}/_local/schedules/Export-sp_demo-0/fire`, {
        method: 'POST',
      });
      expect(fired.status).toBe(200);
      const run = fired.body as FiredRun;
      const [first] = run.result.windows;
      const provisional = await coveredWindowOnce((window) => window.versions.length === 1);
      const provisionalCli = await runCoverageCli();

      // Act: nothing but time
      const settled = await coveredWindowOnce((window) => window.currency === 'settled');
      const settledCli = await runCoverageCli();
      const changes = await query<ChangeRow>(
        "SELECT id, change, before, after, before_export_id, after_export_id FROM comment_changes WHERE spot_id = 'sp_demo' AND change = 'message_status' ORDER BY id",
      );
      const changed = changes[0];
      const newest = await query<{ id: string; message_status: string }>(
        `SELECT id, message_status FROM comments WHERE spot_id = 'sp_demo' AND id = '${changed?.id}'`,
      );
      const counts = await query<{ comments: number; ids: number }>(
        "SELECT count(*) AS comments, count(DISTINCT id) AS ids FROM comments WHERE spot_id = 'sp_demo'",
      );

      // Assess: one window, first provisional, then settled by a second export of the same hours
      expect(run.outcome).toBe('succeeded');
      expect(run.result.windows).toHaveLength(1);
      expect(provisional).toMatchObject({ from: first?.from, until: first?.until, currency: 'provisional' });
      expect(provisional.restate).toEqual([RESTATED_AGE]);
      expect(Date.parse(provisional.nextRestatementAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(first?.until ?? '') + RESTATED_AGE_MS,
      );
      expect(provisional.versions.map((version) => version.exportId)).toEqual([first?.exportId]);
      expect(provisionalCli.code, provisionalCli.output).toBe(ExitCode.SUCCESS);
      expect(provisionalCli.output).toMatch(/of the covered are provisional/);
      expect(provisionalCli.output).toContain('+ covered, provisional');
      expect(settled).toMatchObject({ from: first?.from, until: first?.until, currency: 'settled' });
      expect(settled.versions).toHaveLength(2);
      const [firstVersion, restated] = settled.versions;
      expect(firstVersion?.exportId).toBe(first?.exportId);
      expect(restated?.age).toBe(RESTATED_AGE);
      expect(restated?.exportId).not.toBe(first?.exportId);
      expect(settledCli.code, settledCli.output).toBe(ExitCode.SUCCESS);
      expect(settledCli.output).not.toMatch(/provisional/);
      // The newest state: one row per comment, and the status the restatement read
      expect(changes.length).toBeGreaterThan(0);
      expect(changed).toMatchObject({
        before_export_id: first?.exportId,
        after_export_id: restated?.exportId,
      });
      expect(changed?.before).not.toBe(changed?.after);
      expect(newest).toEqual([{ id: changed?.id, message_status: changed?.after }]);
      expect(Number(counts[0]?.comments)).toBeGreaterThan(0);
      expect(Number(counts[0]?.comments)).toBe(Number(counts[0]?.ids));
    },
    SETTLED_TIMEOUT_MS + 2 * CLI_TIMEOUT_MS + 3 * QUERY_TIMEOUT_MS,
  );
});
