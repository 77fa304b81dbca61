import { describe, expect, it } from 'vitest';
import type { ErasureView } from '../../../lib/http/erasureViewSchema';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { eventually, requestJson } from './support/http';
import {
  DAY,
  QUERY_TIMEOUT_MS,
  queryRows,
  runCliProcess,
  runLocalQuery,
  runtimeForSuite,
} from './support/localRuntimeFixtures';
import { within } from './support/runtimeProcess';

const ARCHIVE_TIMEOUT_MS = 60_000;
const ERASURE_TIMEOUT_MS = 60_000;
const SPOT = 'sp_demo';

/**
 * An erasure as a publisher asks for it: `npm start` as a process, an export archived, one call
 * to `POST /spots/{spotId}/erasures`, and nothing else: the runtime runs it to COMPLETED, and
 * `query` finds none of the user's rows and every other row.
 */
describe('erasure, run by npm start after one API call', () => {
  const suite = runtimeForSuite('erasure');

  async function query(sql: string): Promise<Record<string, unknown>[]> {
    return queryRows(await runLocalQuery(suite.dataDir, sql));
  }

  it(
    "erases the user's rows from the archive without a caller, keeping every other row",
    async () => {
      // Prepare: one export, archived; its most active user.
      const started = await requestJson(`${suite.runtime.apiUrl}/exports`, {
        method: 'POST',
        spotId: SPOT,
        body: DAY,
      });
      const exportId = (started.body as ExportView).exportId;
      await eventually(
        async () => {
          const { body } = await requestJson(`${suite.runtime.apiUrl}/exports/${exportId}`, { spotId: SPOT });
          return (body as ExportView).archive.status === 'ARCHIVED' ? body : undefined;
        },
        ARCHIVE_TIMEOUT_MS,
        `the archive of ${exportId}`,
      );
      const [top] = await query(
        'select user_id, count(*) as n from comment_rows group by 1 order by 2 desc, 1 limit 1',
      );
      const userId = String(top?.user_id);
      const [before] = await query('select count(*) as n from comment_rows');

      // Act
      const requested = await requestJson(`${suite.runtime.apiUrl}/spots/${SPOT}/erasures`, {
        method: 'POST',
        spotId: SPOT,
        body: { userId },
      });
      const location = requested.headers.get('location') as string;
      const completed = await eventually(
        async () => {
          const { body } = await requestJson(`${suite.runtime.apiUrl}${location}`, { spotId: SPOT });
          return (body as ErasureView).status === 'RUNNING' ? undefined : (body as ErasureView);
        },
        ERASURE_TIMEOUT_MS,
        `the erasure of ${userId}`,
      );

      // Assess
      expect(requested.status).toBe(202);
      expect(completed.status, completed.reason).toBe('COMPLETED');
      expect(completed.rowsRemoved).toBe(Number(top?.n));
      expect(completed.verification).toMatchObject({ rowsFound: 0, versionsLeft: 0, tableRowsFound: 0 });
      // The runtime asked the table (DuckDB over the archive's Parquet files): the query and its answer.
      expect(completed.verification?.checks).toContain(
        `DuckDB: SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = '${SPOT}', user_id = '${userId}': 0`,
      );
      const [left] = await query(`select count(*) as n from comment_rows where user_id = '${userId}'`);
      const [after] = await query('select count(*) as n from comment_rows');
      expect(Number(left?.n)).toBe(0);
      expect(Number(after?.n)).toBe(Number(before?.n) - completed.rowsRemoved);
      const listed = await requestJson(`${suite.runtime.apiUrl}/spots/${SPOT}/erasures`, { spotId: SPOT });
      expect((listed.body as { items: ErasureView[] }).items.map((item) => item.erasureId)).toEqual([
        completed.erasureId,
      ]);
    },
    ARCHIVE_TIMEOUT_MS + ERASURE_TIMEOUT_MS + 6 * QUERY_TIMEOUT_MS,
  );

  it(
    '`openweb-exports erase --spot --user --wait`, as a process, exits 0 once no row of the user is left',
    async () => {
      // Prepare: another user of the archived export.
      const [other] = await query(
        'select user_id, count(*) as n from comment_rows group by 1 order by 2 desc, 1 limit 1',
      );
      const userId = String(other?.user_id);

      // Act
      const cli = runCliProcess([
        'erase',
        '--spot',
        SPOT,
        '--user',
        userId,
        '--wait',
        '--api',
        suite.runtime.apiUrl,
      ]);
      const exit = await within(cli.exited, ERASURE_TIMEOUT_MS, `erase --wait of ${userId}`);
      const status = runCliProcess([
        'erase',
        'status',
        exit.output.match(/er_[0-9a-f]{24}/)?.[0] ?? 'none',
        '--spot',
        SPOT,
        '--json',
        '--api',
        suite.runtime.apiUrl,
      ]);
      const statusExit = await within(status.exited, QUERY_TIMEOUT_MS, 'erase status');

      // Assess
      expect(exit.code, exit.output).toBe(0);
      expect(exit.output).toContain('COMPLETED');
      expect(statusExit.code, statusExit.output).toBe(0);
      expect(statusExit.output).toContain('"status":"COMPLETED"');
      const [left] = await query(`select count(*) as n from comment_rows where user_id = '${userId}'`);
      expect(Number(left?.n)).toBe(0);
    },
    ERASURE_TIMEOUT_MS + 3 * QUERY_TIMEOUT_MS,
  );
});
