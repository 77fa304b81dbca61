import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuckDbQueryEngine } from '../../../../cli/query/DuckDbQueryEngine';
import { COMMENTS_VIEW_NAME, COMMENTS_VIEW_SQL } from '../../../../lib/lake/commentsView';
import { archiveLakeExports, exportRows, type LakeExport } from '../../../support/lakeFixtures';
import {
  AFTER_A_WEEK,
  MORNING,
  RESTATED_SPOT,
  restatedWindowExports,
} from '../../../support/restatedWindowFixtures';
import { trinoSyntaxErrors } from '../../../support/trinoSyntax';

const ARCHIVE_TIMEOUT_MS = 60_000;

async function ask(dataDir: string, sql: string): Promise<Record<string, string | null>[]> {
  const engine = await DuckDbQueryEngine.open({ dataDir, database: 'openweb_exports' });
  try {
    const { columns, rows } = await engine.run(sql);
    return rows.map((row) =>
      Object.fromEntries(columns.map((column, index) => [column.name, row[index] ?? null])),
    );
  } finally {
    await engine.close();
  }
}

describe(`the ${COMMENTS_VIEW_NAME} view over Parquet files the archive's writer wrote`, () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'comments-view-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "answers each comment's newest version and leaves out those a newer export of their window no longer holds",
    async () => {
      // Prepare
      await archiveLakeExports(dataDir, restatedWindowExports(), 'archive');

      // Act
      const comments = await ask(
        dataDir,
        `SELECT id, message_status, content, export_id FROM ${COMMENTS_VIEW_NAME} ORDER BY id`,
      );
      const [{ versions } = { versions: null }] = await ask(
        dataDir,
        'SELECT count(*) AS versions FROM comment_rows',
      );

      // Assess
      expect(versions).toBe('18');
      expect(comments).toEqual([
        { id: 'c1', message_status: 'rejected', content: 'Comment c1', export_id: AFTER_A_WEEK.exportId },
        { id: 'c2', message_status: 'approved', content: 'Edited text', export_id: AFTER_A_WEEK.exportId },
        { id: 'c3', message_status: 'rejected', content: 'Comment c3', export_id: AFTER_A_WEEK.exportId },
        // c4: gone from both restatements of its day, so deleted at the source.
        { id: 'c5', message_status: 'deleted', content: 'Comment c5', export_id: AFTER_A_WEEK.exportId },
        // c6: missing from the first restatement, back in the second.
        { id: 'c6', message_status: 'approved', content: 'Comment c6', export_id: AFTER_A_WEEK.exportId },
        // m1: a later export overlaps its window without containing it: not called deleted.
        { id: 'm1', message_status: 'approved', content: 'Comment m1', export_id: MORNING.exportId },
        { id: 'm2', message_status: 'approved', content: 'Comment m2', export_id: 'ex_overlapping' },
      ]);
    },
    ARCHIVE_TIMEOUT_MS,
  );

  it(
    'keeps a comment until a newer export of a containing window runs without it',
    async () => {
      // Prepare: the day exported once, then again a day later without c4.
      const [first, afterADay] = restatedWindowExports();
      await archiveLakeExports(dataDir, [first as LakeExport], 'archive');
      const before = await ask(dataDir, `SELECT id FROM ${COMMENTS_VIEW_NAME} WHERE id = 'c4'`);

      // Act
      await archiveLakeExports(dataDir, [afterADay as LakeExport], 'archive');
      const after = await ask(dataDir, `SELECT id FROM ${COMMENTS_VIEW_NAME} WHERE id = 'c4'`);

      // Assess
      expect(before).toEqual([{ id: 'c4' }]);
      expect(after).toEqual([]);
    },
    ARCHIVE_TIMEOUT_MS,
  );

  it(
    'never leaves out a row of a conversation export, and a conversation export deletes nothing',
    async () => {
      // Prepare: a window's comment, then a later conversation export (no window) without it, and a
      // comment only a conversation export holds, then a later window export without it.
      const row = (
        exportId: string,
        id: string,
        window: { from: string; until: string } | null,
        at: string,
      ) =>
        exportRows([{ id, userId: 'u1', status: 'approved', writtenAt: '2026-11-10T01:00:00Z' }], {
          spotId: RESTATED_SPOT,
          exportId,
          windowFrom: window?.from ?? null,
          windowUntil: window?.until ?? null,
          exportedAt: at,
        });
      const day = { from: '2026-11-10T00:00:00Z', until: '2026-11-11T00:00:00Z' };
      await archiveLakeExports(
        dataDir,
        [
          {
            spotId: RESTATED_SPOT,
            date: '2026-11-10',
            exportId: 'ex_window',
            files: [row('ex_window', 'w1', day, '2026-11-11T00:05:00Z')],
          },
          {
            spotId: RESTATED_SPOT,
            date: '2026-11-12',
            exportId: 'ex_conversation',
            files: [row('ex_conversation', 'k1', null, '2026-11-12T00:05:00Z')],
          },
          {
            spotId: RESTATED_SPOT,
            date: '2026-11-10',
            exportId: 'ex_window_again',
            files: [row('ex_window_again', 'w2', day, '2026-11-13T00:05:00Z')],
          },
        ],
        'archive',
      );

      // Act
      const comments = await ask(dataDir, `SELECT id FROM ${COMMENTS_VIEW_NAME} ORDER BY id`);

      // Assess: w1 is deleted by the later export of its day; k1 has no window to be judged by.
      expect(comments).toEqual([{ id: 'k1' }, { id: 'w2' }]);
    },
    ARCHIVE_TIMEOUT_MS,
  );

  it("is one text that Athena's dialect (Trino) parses too", () => {
    // Act / Assess: DuckDB runs it above; the catalog stores the same text (test/integration/infra/ExportsLake.test.ts).
    expect(trinoSyntaxErrors(COMMENTS_VIEW_SQL)).toEqual([]);
  });
});
