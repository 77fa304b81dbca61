import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryFailedError, QueryRefusedError } from '../../../../cli/errors';
import { DuckDbQueryEngine } from '../../../../cli/query/DuckDbQueryEngine';
import { COMMENT_ROW_COLUMNS } from '../../../../lib/lake/commentRowsTable';
import {
  localArchiveBucketDirectory,
  S3RVER_OBJECT_SUFFIX,
} from '../../../../lib/settings/localRuntimeLayout';
import { captureError } from '../../../support/captureError';
import {
  archiveLakeExports,
  exportRows,
  type LakeRow,
  writeLakeParquet,
} from '../../../support/lakeFixtures';

const SPOT = 'sp_demo';
const DAY = '2024-05-01';

function lineage(exportId: string, exportedAt: string) {
  return {
    spotId: SPOT,
    exportId,
    windowFrom: `${DAY}T00:00:00Z`,
    windowUntil: '2024-05-02T00:00:00Z',
    exportedAt,
  };
}

const ODD_ROW: LakeRow = {
  ...(exportRows(
    [{ id: 'c_odd', userId: 'u_1', status: 'approved', writtenAt: `${DAY}T10:00:00.123Z` }],
    lineage('ex_a', '2024-05-02T00:10:00Z'),
  )[0] as LakeRow),
  user_name: 'Zoë 李雷',
  content: 'She said "never again",\r\nthen left 👍',
  post_id: '',
  rank: null,
  extra_columns: '{"mood":"grumpy"}',
  unparsed_values: '{"rank":"n/a"}',
};

describe('DuckDbQueryEngine over the local runtime’s archive', () => {
  let dataDir: string;
  const engines: DuckDbQueryEngine[] = [];

  async function open(): Promise<DuckDbQueryEngine> {
    const engine = await DuckDbQueryEngine.open({ dataDir, database: 'openweb_exports' });
    engines.push(engine);
    return engine;
  }

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'duckdb-engine-'));
  });

  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads the S3 stand-in's own files in place, typed as the catalog types them, spot and date from the keys", async () => {
    // Prepare
    await archiveLakeExports(dataDir, [{ spotId: SPOT, date: DAY, exportId: 'ex_a', files: [[ODD_ROW]] }]);
    const engine = await open();

    // Act
    const described = await engine.run('SELECT column_name, column_type FROM (DESCRIBE comment_rows)');

    // Assess
    const duckdbType = { string: 'VARCHAR', bigint: 'BIGINT', timestamp: 'TIMESTAMP' } as const;
    expect(described.rows).toEqual([
      ...COMMENT_ROW_COLUMNS.map((column) => [column.name, duckdbType[column.type]]),
      ['spot', 'VARCHAR'],
      ['date', 'VARCHAR'],
    ]);
    expect(engine.files.files).toEqual([
      join(
        localArchiveBucketDirectory(dataDir),
        'tables/comments/spot=sp_demo/date=2024-05-01',
        `ex_a-1.parquet${S3RVER_OBJECT_SUFFIX}`,
      ),
    ]);
  });

  it('gives back odd values verbatim: unicode, quotes, a CRLF, an empty string, nulls, the JSON columns', async () => {
    // Prepare
    await archiveLakeExports(dataDir, [{ spotId: SPOT, date: DAY, exportId: 'ex_a', files: [[ODD_ROW]] }]);
    const engine = await open();

    // Act
    const result = await engine.run(
      'SELECT user_name, content, post_id, rank, written_at, extra_columns, unparsed_values, spot, "date" FROM comments',
    );

    // Assess
    expect(result.rows).toEqual([
      [
        'Zoë 李雷',
        'She said "never again",\r\nthen left 👍',
        '',
        null,
        '2024-05-01 10:00:00.123',
        '{"mood":"grumpy"}',
        '{"rank":"n/a"}',
        SPOT,
        DAY,
      ],
    ]);
  });

  it('reads timestamps alike whether the writer marked them adjusted to UTC or not', async () => {
    // Prepare: the same row twice, once per encoding, under two spots.
    const other = { ...ODD_ROW, spot_id: 'sp_other' };
    await archiveLakeExports(
      dataDir,
      [{ spotId: SPOT, date: DAY, exportId: 'ex_a', files: [[ODD_ROW]] }],
      'millis',
    );
    await archiveLakeExports(
      dataDir,
      [{ spotId: 'sp_other', date: DAY, exportId: 'ex_a', files: [[other]] }],
      'utc-micros',
    );
    const engine = await open();

    // Act
    const result = await engine.run(
      'SELECT spot, written_at, window_from, exported_at, typeof(written_at) FROM comment_rows ORDER BY spot',
    );

    // Assess
    expect(result.rows).toEqual([
      [SPOT, '2024-05-01 10:00:00.123', '2024-05-01 00:00:00.000', '2024-05-02 00:10:00.000', 'TIMESTAMP'],
      [
        'sp_other',
        '2024-05-01 10:00:00.123',
        '2024-05-01 00:00:00.000',
        '2024-05-02 00:10:00.000',
        'TIMESTAMP',
      ],
    ]);
  });

  it('leaves out what Athena would not read: objects named _… or .…, and objects still being uploaded', async () => {
    // Prepare
    const rows = exportRows(
      [{ id: 'c1', userId: 'u1', status: 'approved', writtenAt: `${DAY}T01:00:00Z` }],
      lineage('ex_a', '2024-05-02T00:10:00Z'),
    );
    await archiveLakeExports(dataDir, [{ spotId: SPOT, date: DAY, exportId: 'ex_a', files: [rows] }]);
    const partition = join(
      localArchiveBucketDirectory(dataDir),
      'tables/comments/spot=sp_demo/date=2024-05-01',
    );
    // A hidden object, stored through S3 like any other.
    await archiveLakeExports(dataDir, [{ spotId: SPOT, date: DAY, exportId: '_scratch', files: [rows] }]);
    // An upload in progress: the stand-in has written bytes but no metadata yet.
    const scratch = join(dataDir, 'in-progress.parquet');
    await writeLakeParquet(scratch, rows);
    mkdirSync(partition, { recursive: true });
    copyFileSync(scratch, join(partition, `ex_b-1.parquet${S3RVER_OBJECT_SUFFIX}`));
    const engine = await open();

    // Act
    const result = await engine.run('SELECT export_id, count(*) FROM comment_rows GROUP BY export_id');

    // Assess
    expect(result.rows).toEqual([['ex_a', '1']]);
  });

  it("counts each comment once in the view, taking the newest export's row (exported_at, then export_id)", async () => {
    // Prepare: c2 is in all three exports of the same window; ex_c and ex_b completed at the same
    // instant. ex_c, the newest, no longer holds c1 and c3: deleted at the source.
    const comments = (ids: string[], status: string) =>
      ids.map((id) => ({ id, userId: 'u1', status, writtenAt: `${DAY}T01:00:00Z` }));
    await archiveLakeExports(dataDir, [
      {
        spotId: SPOT,
        date: DAY,
        exportId: 'ex_a',
        files: [exportRows(comments(['c1', 'c2'], 'pending'), lineage('ex_a', '2024-05-02T00:10:00Z'))],
      },
      {
        spotId: SPOT,
        date: DAY,
        exportId: 'ex_b',
        files: [exportRows(comments(['c2', 'c3'], 'approved'), lineage('ex_b', '2024-05-03T00:10:00Z'))],
      },
      {
        spotId: SPOT,
        date: DAY,
        exportId: 'ex_c',
        files: [exportRows(comments(['c2'], 'deleted'), lineage('ex_c', '2024-05-03T00:10:00Z'))],
      },
    ]);
    const engine = await open();

    // Act
    const rows = await engine.run('SELECT count(*) FROM comment_rows');
    const view = await engine.run(
      'SELECT id, message_status, export_id FROM openweb_exports.comments ORDER BY id',
    );

    // Assess
    expect(rows.rows).toEqual([['5']]);
    expect(view.rows).toEqual([['c2', 'deleted', 'ex_c']]);
  });

  it('answers from empty tables, with a notice, before anything was archived', async () => {
    // Prepare: a data dir with nothing in it yet
    const engine = await open();

    // Act
    const result = await engine.run('SELECT count(*) AS comments FROM comments');

    // Assess
    expect(result.rows).toEqual([['0']]);
    expect(engine.notice).toMatch(/^No archived Parquet files in .+ yet: the tables are empty/);
  });

  it("refuses more than one statement, and bad SQL with DuckDB's own message", async () => {
    // Prepare
    const engine = await open();

    // Act
    const twoStatements = await captureError(engine.run('SELECT 1; SELECT 2'));
    const badSql = await captureError(engine.run('SELECT nope FROM comments'));

    // Assess
    expect(twoStatements).toBeInstanceOf(QueryFailedError);
    expect(twoStatements.message).toBe('2 statements to run: a query is one statement');
    expect(badSql).toBeInstanceOf(QueryFailedError);
    expect(badSql.message).toMatch(/^Binder Error: Referenced column "nope" not found/);
  });

  describe('answers questions about the archive and nothing else', () => {
    async function archived(): Promise<DuckDbQueryEngine> {
      const rows = exportRows(
        [{ id: 'c1', userId: 'u1', status: 'approved', writtenAt: `${DAY}T01:00:00Z` }],
        lineage('ex_a', '2024-05-02T00:10:00Z'),
      );
      await archiveLakeExports(dataDir, [{ spotId: SPOT, date: DAY, exportId: 'ex_a', files: [rows] }]);
      return open();
    }

    it.each([
      [
        'a write (COPY … TO)',
        "COPY (SELECT 1 AS x) TO '{out}/x.csv'",
        /^COPY writes files: a query here only reads/,
      ],
      ['a database attached', "ATTACH '{out}/x.duckdb' AS x", /^ATTACH opens or creates a database file/],
      [
        'a table created (DDL)',
        'CREATE TABLE t AS SELECT 1 AS x',
        /^CREATE defines tables, views or functions/,
      ],
      ['a view dropped (DDL)', 'DROP VIEW comments', /^DROP drops the archive's tables or views/],
      ['a row inserted', 'INSERT INTO comment_rows DEFAULT VALUES', /^INSERT changes data/],
      ['a setting changed', 'SET enable_external_access = true', /^SET changes the engine's settings/],
      ['an extension loaded', 'INSTALL httpfs', /^INSTALL installs extensions/],
      [
        'an EXPLAIN ANALYZE that would run DDL',
        'EXPLAIN ANALYZE CREATE TABLE t AS SELECT 1',
        /^EXPLAIN CREATE defines/,
      ],
    ])('refuses %s with the reason, and nothing is written', async (_kind, template, reason) => {
      // Prepare
      const engine = await archived();
      const out = join(dataDir, 'out');
      mkdirSync(out);
      const sql = template.replaceAll('{out}', out);

      // Act
      const error = await captureError(engine.run(sql));
      const after = await engine.run('SELECT count(*) FROM comments');

      // Assess
      expect(error).toBeInstanceOf(QueryRefusedError);
      expect(error.message).toMatch(reason);
      expect(existsSync(join(out, 'x.csv'))).toBe(false);
      expect(existsSync(join(out, 'x.duckdb'))).toBe(false);
      expect(after.rows).toEqual([['1']]);
    });

    it.each([
      ['read_csv', "SELECT * FROM read_csv('/etc/passwd')", '/etc/passwd'],
      ['read_text', "SELECT * FROM read_text('/etc/hostname')", '/etc/hostname'],
      ['glob', "SELECT * FROM glob('/etc/*')", '/etc/*'],
      ['glob over the data dir', "SELECT * FROM glob('{dataDir}/**')", '{dataDir}/**'],
      [
        'read_parquet of a file beside the archive',
        "SELECT * FROM read_parquet('{dataDir}/beside.parquet')",
        '{dataDir}/beside.parquet',
      ],
    ])('refuses to read files outside the archive (%s), naming the file', async (_kind, template, file) => {
      // Prepare
      const engine = await archived();
      await writeLakeParquet(join(dataDir, 'beside.parquet'), []);
      const sql = template.replaceAll('{dataDir}', dataDir);

      // Act
      const error = await captureError(engine.run(sql));

      // Assess
      expect(error).toBeInstanceOf(QueryRefusedError);
      expect(error.message).toContain(`Cannot access file "${file.replaceAll('{dataDir}', dataDir)}"`);
      expect(error.message).toMatch(/a query here reads only the archive's own files/);
    });

    it.each([
      ['SELECT', 'SELECT count(*) FROM comments', [['1']]],
      ['WITH', 'WITH c AS (SELECT * FROM comments) SELECT count(*) FROM c', [['1']]],
      ['FROM first, after a comment', '-- how many?\nFROM comments SELECT count(*)', [['1']]],
      ['a parenthesized SELECT', '(SELECT count(*) FROM comment_rows)', [['1']]],
      ['VALUES', 'VALUES (1)', [['1']]],
      ['DESCRIBE', 'DESCRIBE comments', undefined],
      ['SHOW TABLES', 'SHOW TABLES', [['comment_changes'], ['comment_rows'], ['comments']]],
      ['SUMMARIZE', 'SUMMARIZE comment_rows', undefined],
      ['EXPLAIN', 'EXPLAIN SELECT count(*) FROM comments', undefined],
      ['EXPLAIN ANALYZE of a query', 'EXPLAIN ANALYZE SELECT count(*) FROM comments', undefined],
    ])('runs %s, reading the archive', async (_kind, sql, rows) => {
      // Prepare
      const engine = await archived();

      // Act
      const result = await engine.run(sql);

      // Assess
      expect(result.rows.length).toBeGreaterThan(0);
      if (rows !== undefined) expect(result.rows).toEqual(rows);
    });
  });
});
