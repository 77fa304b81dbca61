import { describe, expect, it } from 'vitest';
import type { ErasureView } from '../../../lib/http/erasureViewSchema';
import { eventually, requestJson } from './support/http';
import {
  DAY,
  EXPORT_TIMEOUT_MS,
  FIRST_READY_TIMEOUT_MS,
  getExport,
  QUERY_TIMEOUT_MS,
  queryRows,
  READY_TIMEOUT_MS,
  restartableRuntimeForSuite,
  runLocalQuery,
  STOP_TIMEOUT_MS,
  startExport,
} from './support/localRuntimeFixtures';
import { type RuntimeProcess, startRuntimeProcess } from './support/runtimeProcess';

const SPOT = 'sp_demo';
/** The day before DAY: a second export of the spot, whose archive hangs. */
const DAY_BEFORE = { from: '2026-11-19T00:00:00Z', until: '2026-11-20T00:00:00Z' };
const ERASURE_TIMEOUT_MS = 60_000;

/**
 * An erasure cut short by kill -9: the runtime erases the archived export, then waits for an
 * archive that began before the user was suppressed (its downloads hang); killed then, the next
 * start runs the same erasure workflow again where the record says, and it completes with none of
 * the user's rows in any file.
 */
describe('an erasure across a kill -9 of the local runtime', () => {
  const suite = restartableRuntimeForSuite('erasure-restart', {
    exportDurationMs: () => 1_000,
    authRequestsPerSecond: 0,
  });

  const query = async (sql: string) =>
    queryRows<Record<string, unknown>>(await runLocalQuery(suite.dataDir, sql));

  async function archived(runtime: RuntimeProcess, exportId: string, status: string) {
    return eventually(
      async () => {
        const view = await getExport(runtime, SPOT, exportId);
        return view.archive.status === status ? view : undefined;
      },
      EXPORT_TIMEOUT_MS,
      `the archive of ${exportId} ${status}`,
    );
  }

  async function erasure(runtime: RuntimeProcess, location: string): Promise<ErasureView> {
    const { body } = await requestJson(`${runtime.apiUrl}${location}`, { spotId: SPOT });
    return body as ErasureView;
  }

  it(
    'resumes after the restart where it was and completes, no file holding the user',
    async () => {
      // Prepare: one export archived; a second one whose archive hangs on its downloads.
      // The first start may synthesize the stack.
      const first = await startRuntimeProcess(suite.environment(), FIRST_READY_TIMEOUT_MS);
      const done = await startExport(first, SPOT, DAY);
      await archived(first, done.exportId, 'ARCHIVED');
      const [top] = await query(
        'select user_id, count(*) as n from comment_rows group by 1 order by 2 desc, 1 limit 1',
      );
      const userId = String(top?.user_id);
      suite.upstream.setFaults({ endpoints: { download: { latencyMs: 120_000 } } });
      const hanging = await startExport(first, SPOT, DAY_BEFORE);
      await archived(first, hanging.exportId, 'PENDING');
      const requested = await requestJson(`${first.apiUrl}/spots/${SPOT}/erasures`, {
        method: 'POST',
        spotId: SPOT,
        body: { userId },
      });
      const location = requested.headers.get('location') as string;
      // The archived export is erased; the erasure waits for the other archive.
      const midway = await eventually(
        async () => {
          const view = await erasure(first, location);
          return view.status === 'RUNNING' && view.exportsDone >= 1 ? view : undefined;
        },
        ERASURE_TIMEOUT_MS,
        'the erasure of the archived export',
      );

      // Act
      first.child.kill('SIGKILL');
      const killed = await first.exited;
      suite.upstream.setFaults({});
      const second = await startRuntimeProcess(suite.environment(), READY_TIMEOUT_MS);
      const completed = await eventually(
        async () => {
          const view = await erasure(second, location);
          return view.status === 'RUNNING' ? undefined : view;
        },
        ERASURE_TIMEOUT_MS,
        'the erasure after the restart',
      );

      // Assess
      expect(killed.signal).toBe('SIGKILL');
      expect(midway.status).toBe('RUNNING');
      expect(completed.status, completed.reason).toBe('COMPLETED');
      // The hanging archive is either swept by the erasure or, claimed again after the restart
      // (after the user was suppressed), stored without the user: either way no file holds them.
      expect(completed.exportsDone).toBeGreaterThanOrEqual(midway.exportsDone);
      expect(completed.rowsRemoved).toBe(Number(top?.n));
      expect(completed.verification).toMatchObject({ rowsFound: 0, versionsLeft: 0 });
      expect(second.output()).toContain('resuming 1 erasure(s)');
      await archived(second, hanging.exportId, 'ARCHIVED');
      const [left] = await query(`select count(*) as n from comment_rows where user_id = '${userId}'`);
      expect(Number(left?.n)).toBe(0);
      expect((await second.stop()).code).toBe(0);
    },
    FIRST_READY_TIMEOUT_MS +
      READY_TIMEOUT_MS +
      3 * EXPORT_TIMEOUT_MS +
      2 * ERASURE_TIMEOUT_MS +
      3 * QUERY_TIMEOUT_MS +
      STOP_TIMEOUT_MS,
  );
});
