import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbQueryEngine } from '../../../../cli/query/DuckDbQueryEngine';
import { COMMENT_CHANGES_VIEW_NAME, COMMENT_CHANGES_VIEW_SQL } from '../../../../lib/lake/commentChangesView';
import { COMMENTS_VIEW_NAME } from '../../../../lib/lake/commentsView';
import { archiveLakeExports } from '../../../support/lakeFixtures';
import {
  AFTER_A_DAY,
  AFTER_A_WEEK,
  FIRST,
  restatedWindowExports,
} from '../../../support/restatedWindowFixtures';
import { trinoSyntaxErrors } from '../../../support/trinoSyntax';

const ARCHIVE_TIMEOUT_MS = 60_000;

/** The rows of `sql`, each as column name → the CLI's text of the value. */
async function ask(engine: DuckDbQueryEngine, sql: string): Promise<Record<string, string | null>[]> {
  const { columns, rows } = await engine.run(sql);
  return rows.map((row) =>
    Object.fromEntries(columns.map((column, index) => [column.name, row[index] ?? null])),
  );
}

const at = (iso: string) => iso.replace('T', ' ').replace('Z', '.000');

describe(`the ${COMMENT_CHANGES_VIEW_NAME} view over Parquet files the archive's writer wrote`, () => {
  let dataDir: string;
  let engine: DuckDbQueryEngine;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'comment-changes-view-'));
    await archiveLakeExports(dataDir, restatedWindowExports(), 'archive');
    engine = await DuckDbQueryEngine.open({ dataDir, database: 'openweb_exports' });
  }, ARCHIVE_TIMEOUT_MS);

  afterAll(async () => {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has one row per change between consecutive versions, with before, after, when and both exports', async () => {
    // Act
    const changes = await ask(
      engine,
      `SELECT id, change, before, after, seen_at, before_export_id, after_export_id
       FROM ${COMMENT_CHANGES_VIEW_NAME} ORDER BY seen_at, id, change`,
    );

    // Assess
    const day = at(AFTER_A_DAY.exportedAt);
    const week = at(AFTER_A_WEEK.exportedAt);
    const change = (
      id: string,
      kind: string,
      before: string | null,
      after: string | null,
      seenAt: string,
      exports: [string, string],
    ) => ({
      id,
      change: kind,
      before,
      after,
      seen_at: seenAt,
      before_export_id: exports[0],
      after_export_id: exports[1],
    });
    const firstToDay: [string, string] = [FIRST.exportId, AFTER_A_DAY.exportId];
    const dayToWeek: [string, string] = [AFTER_A_DAY.exportId, AFTER_A_WEEK.exportId];
    expect(changes).toEqual([
      change('c1', 'message_status', 'approved', 'rejected', day, firstToDay),
      change('c2', 'content', 'First text', 'Edited text', day, firstToDay),
      change('c3', 'message_status', 'pending', 'approved', day, firstToDay),
      change('c4', 'deleted', 'approved', null, day, firstToDay),
      change('c5', 'message_status', 'approved', 'deleted', day, firstToDay),
      change('c6', 'deleted', 'approved', null, day, firstToDay),
      change('c3', 'message_status', 'approved', 'rejected', week, dayToWeek),
      change('c6', 'restored', null, 'approved', week, dayToWeek),
    ]);
  });

  it('says deleted of exactly the comments that comments leaves out', async () => {
    // Act
    const deletedNow = await ask(
      engine,
      `SELECT id FROM (
         SELECT id, change, row_number() OVER (PARTITION BY spot, spot_id, id ORDER BY seen_at DESC) AS latest
         FROM ${COMMENT_CHANGES_VIEW_NAME} WHERE change IN ('deleted', 'restored')
       ) AS last_seen WHERE latest = 1 AND change = 'deleted' ORDER BY id`,
    );
    const leftOut = await ask(
      engine,
      `SELECT DISTINCT id FROM comment_rows WHERE id NOT IN (SELECT id FROM ${COMMENTS_VIEW_NAME}) ORDER BY id`,
    );

    // Assess
    expect(deletedNow).toEqual([{ id: 'c4' }]);
    expect(leftOut).toEqual(deletedNow);
  });

  it('calls nothing deleted when the later export overlaps the window without containing it', async () => {
    // Act
    const morning = await ask(
      engine,
      `SELECT id, change FROM ${COMMENT_CHANGES_VIEW_NAME} WHERE id LIKE 'm%'`,
    );

    // Assess
    expect(morning).toEqual([]);
  });

  it("is one text that Athena's dialect (Trino) parses too", () => {
    // Act / Assess: DuckDB runs it above; the catalog stores the same text (test/integration/infra/ExportsLake.test.ts).
    expect(trinoSyntaxErrors(COMMENT_CHANGES_VIEW_SQL)).toEqual([]);
  });
});
