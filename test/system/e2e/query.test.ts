import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { exampleQuestions } from '../../support/exampleQuestions';
import { eventually, requestJson } from './support/http';
import { DAY, FIRST_READY_TIMEOUT_MS, runCliProcess, TIME_SCALE } from './support/localRuntimeFixtures';
import {
  type ExitResult,
  killAllChildProcesses,
  type RuntimeProcess,
  startRuntimeProcess,
  within,
} from './support/runtimeProcess';

const ARCHIVE_TIMEOUT_MS = 60_000;
/** A query starts DuckDB: longer than the other commands. */
const QUERY_TIMEOUT_MS = 60_000;

/**
 * The archive as a table, as a newcomer meets it: `npm start` as a process, an export archived,
 * then `query` run as the CLI process it is, over the runtime's data folder.
 */
describe('query, run as npm start and the CLI run it', () => {
  let dataDir: string;
  let runtime: RuntimeProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'openweb-exports-e2e-query-'));
    runtime = await startRuntimeProcess(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_TIME_SCALE: TIME_SCALE,
        LOCAL_DATA_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
      },
      FIRST_READY_TIMEOUT_MS,
    );
  }, FIRST_READY_TIMEOUT_MS + 5_000);

  afterAll(async () => {
    await killAllChildProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function query(sql: string): Promise<ExitResult> {
    const cli = runCliProcess(['query', sql, '--format', 'json', '--local', '--data-dir', dataDir]);
    return within(cli.exited, QUERY_TIMEOUT_MS, `the query ${sql}`);
  }

  it(
    "answers `select count(*) from comments` with the archived export's row count, and runs the example questions",
    async () => {
      // Prepare: one export, archived.
      const started = await requestJson(`${runtime.apiUrl}/exports`, {
        method: 'POST',
        spotId: 'sp_demo',
        body: DAY,
      });
      const exportId = (started.body as ExportView).exportId;
      const archived = await eventually(
        async () => {
          const { body } = await requestJson(`${runtime.apiUrl}/exports/${exportId}`, { spotId: 'sp_demo' });
          const view = body as ExportView;
          return view.archive.status === 'ARCHIVED' ? view : undefined;
        },
        ARCHIVE_TIMEOUT_MS,
        `the archive of ${exportId}`,
      );

      // Act
      const count = await query('select count(*) as comments from comments');
      const questions = [];
      for (const question of exampleQuestions())
        questions.push({ question, exit: await query(question.sql) });

      // Assess
      expect(count.code, count.output).toBe(0);
      const [row] = JSON.parse(
        count.output.slice(count.output.indexOf('['), count.output.lastIndexOf(']') + 1),
      ) as {
        comments: number;
      }[];
      expect(Number(row?.comments)).toBe(archived.archive.rows);
      expect(archived.archive.rows).toBeGreaterThan(0);
      expect(questions.length).toBeGreaterThanOrEqual(3);
      for (const { question, exit } of questions)
        expect(exit.code, `${question.title}: ${exit.output}`).toBe(0);
    },
    ARCHIVE_TIMEOUT_MS + (1 + exampleQuestions().length) * QUERY_TIMEOUT_MS,
  );
});
