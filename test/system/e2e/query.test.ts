import { describe, expect, it } from 'vitest';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { exampleQuestions } from '../../support/exampleQuestions';
import { eventually, requestJson } from './support/http';
import { DAY, QUERY_TIMEOUT_MS, runLocalQuery, runtimeForSuite } from './support/localRuntimeFixtures';
import type { ExitResult } from './support/runtimeProcess';

const ARCHIVE_TIMEOUT_MS = 60_000;

/**
 * The archive as a table, as a newcomer meets it: `npm start` as a process, an export archived,
 * then `query` run as the CLI process it is, over the runtime's data folder.
 */
describe('query, run as npm start and the CLI run it', () => {
  const suite = runtimeForSuite('query');

  function query(sql: string): Promise<ExitResult> {
    return runLocalQuery(suite.dataDir, sql);
  }

  it(
    "answers `select count(*) from comments` with the archived export's row count, and runs the example questions",
    async () => {
      // Prepare: one export, archived.
      const started = await requestJson(`${suite.runtime.apiUrl}/exports`, {
        method: 'POST',
        spotId: 'sp_demo',
        body: DAY,
      });
      const exportId = (started.body as ExportView).exportId;
      const archived = await eventually(
        async () => {
          const { body } = await requestJson(`${suite.runtime.apiUrl}/exports/${exportId}`, {
            spotId: 'sp_demo',
          });
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
