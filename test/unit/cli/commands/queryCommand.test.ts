import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import { QueryFailedError } from '../../../../cli/errors';
import type { QueryEngine, QueryRunOptions } from '../../../../cli/query/QueryEngine';
import { ColumnKind, type QueryResult } from '../../../../cli/query/QueryResult';
import type { QueryTarget } from '../../../../cli/query/QueryTarget';
import { runCli } from '../../../../cli/runCli';
import { DEFAULT_LOCAL_DATA_DIR } from '../../../../lib/settings/localRuntimeLayout';
import { LOCAL_PROJECT_ROOT } from '../../../../local/projectRoot';
import { createTestIo, type TestIo } from '../support/testIo';

const ANSWER: QueryResult = {
  columns: [
    { name: 'message_status', type: 'VARCHAR', kind: ColumnKind.TEXT },
    { name: 'comments', type: 'BIGINT', kind: ColumnKind.INTEGER },
    { name: 'share_percent', type: 'DOUBLE', kind: ColumnKind.FLOAT },
  ],
  rows: [
    ['approved', '1204', '57.14'],
    ['pending, "maybe"', '3', '0.5'],
    [null, '12', null],
  ],
};

/** An engine that answers `answer` (or fails with `failure`) and records what it was asked. */
class FakeEngine implements QueryEngine {
  readonly name: string;
  readonly source = 'the fake data';
  readonly notice: string | undefined;
  readonly asked: string[] = [];
  closed = false;
  progress: QueryRunOptions['onProgress'];

  constructor(
    readonly answer: QueryResult | Error,
    options: { name?: string; notice?: string; duringRun?: (options: QueryRunOptions) => void } = {},
  ) {
    this.name = options.name ?? 'DuckDB';
    this.notice = options.notice;
    this.duringRun = options.duringRun;
  }

  readonly duringRun: ((options: QueryRunOptions) => void) | undefined;

  async run(sql: string, options: QueryRunOptions = {}): Promise<QueryResult> {
    this.asked.push(sql);
    this.duringRun?.(options);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function ioWith(engine: FakeEngine, overrides: Partial<TestIo> = {}): TestIo & { targets: QueryTarget[] } {
  const targets: QueryTarget[] = [];
  const io = createTestIo({
    openQueryEngine: async (target) => {
      targets.push(target);
      return engine;
    },
    ...overrides,
  });
  return Object.assign(io, { targets });
}

describe('query command', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'cli-query-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it("runs the SQL on DuckDB over the local runtime's files by default and prints an aligned table", async () => {
    // Prepare
    const engine = new FakeEngine(ANSWER);
    const io = ioWith(engine);

    // Act
    const code = await runCli(['query', 'SELECT message_status, count(*) FROM comments GROUP BY 1'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.targets).toEqual([
      {
        engine: 'duckdb',
        dataDir: join(LOCAL_PROJECT_ROOT, DEFAULT_LOCAL_DATA_DIR),
        database: 'openweb_exports',
      },
    ]);
    expect(engine.asked).toEqual(['SELECT message_status, count(*) FROM comments GROUP BY 1']);
    expect(io.stdoutText()).toBe(
      [
        'message_status    comments  share_percent',
        '----------------  --------  -------------',
        'approved              1204          57.14',
        'pending, "maybe"         3            0.5',
        'NULL                    12           NULL',
        '',
      ].join('\n'),
    );
    expect(io.stderrText()).toBe('3 rows from DuckDB, the fake data\n');
    expect(engine.closed).toBe(true);
  });

  it('reads the SQL from --file, without its trailing semicolon', async () => {
    // Prepare
    const file = join(directory, 'q.sql');
    writeFileSync(file, '-- top statuses\nSELECT 1;\n\n');
    const engine = new FakeEngine(ANSWER);

    // Act
    const code = await runCli(['query', '--file', file], ioWith(engine));

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(engine.asked).toEqual(['-- top statuses\nSELECT 1']);
  });

  it('prints CSV for pipes: quoted where needed, null as an empty field', async () => {
    // Prepare
    const io = ioWith(new FakeEngine(ANSWER));

    // Act
    const code = await runCli(['query', 'SELECT 1', '--format', 'csv'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toBe(
      'message_status,comments,share_percent\napproved,1204,57.14\n"pending, ""maybe""",3,0.5\n,12,\n',
    );
  });

  it('prints JSON with --json: an array of objects, numbers as numbers', async () => {
    // Prepare
    const io = ioWith(new FakeEngine(ANSWER));

    // Act
    const code = await runCli(['query', 'SELECT 1', '--json'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(JSON.parse(io.stdoutText())).toEqual([
      { message_status: 'approved', comments: 1204, share_percent: 57.14 },
      { message_status: 'pending, "maybe"', comments: 3, share_percent: 0.5 },
      { message_status: null, comments: 12, share_percent: null },
    ]);
  });

  it("runs on Athena when a workgroup is named, and prints the bytes scanned and Athena's price for them", async () => {
    // Prepare: 1.5 MB scanned is billed as Athena's 10 MB minimum.
    const engine = new FakeEngine({ ...ANSWER, scannedBytes: 1_572_864 }, { name: 'Athena' });
    const io = ioWith(engine, {
      env: { OPENWEB_EXPORTS_WORKGROUP: 'OpenWebExports', AWS_REGION: 'eu-west-1' },
    });

    // Act
    const code = await runCli(['query', 'SELECT 1', '--database', 'exports_lake'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.targets).toEqual([
      { engine: 'athena', region: 'eu-west-1', workGroup: 'OpenWebExports', database: 'exports_lake' },
    ]);
    expect(io.stderrText()).toBe(
      '3 rows from Athena, the fake data; scanned 1.5 MB (billed 10.0 MB): about $0.000048 ' +
        "at Athena's $5 per TB scanned (us-east-1 list price, November 2026)\n",
    );
  });

  it('shows a progress line on a terminal while the query runs, and erases it before the answer', async () => {
    // Prepare
    const engine = new FakeEngine(ANSWER, {
      name: 'Athena',
      duringRun: (options) =>
        options.onProgress?.({ state: 'RUNNING', elapsedMs: 3_200, scannedBytes: 1_048_576 }),
    });
    const io = ioWith(engine, { isTTY: true });

    // Act
    await runCli(['query', 'SELECT 1', '--workgroup', 'wg', '--region', 'eu-west-1'], io);

    // Assess
    const redraw = '\r\x1b[2K';
    expect(
      io.stderrText().startsWith(`${redraw}| Athena: RUNNING 3 s, 1.0 MB scanned${redraw}3 rows from Athena`),
    ).toBe(true);
  });

  it('prints no progress line when stdout is not a terminal', async () => {
    // Prepare
    const engine = new FakeEngine(ANSWER, {
      duringRun: (options) => options.onProgress?.({ state: 'RUNNING', elapsedMs: 3_200 }),
    });
    const io = ioWith(engine);

    // Act
    await runCli(['query', 'SELECT 1'], io);

    // Assess
    expect(io.stderrText()).not.toContain('RUNNING');
  });

  it('says so first when the engine has a notice (no archived file yet)', async () => {
    // Prepare
    const io = ioWith(new FakeEngine(ANSWER, { notice: 'No archived Parquet files yet.' }));

    // Act
    await runCli(['query', 'SELECT 1'], io);

    // Assess
    expect(io.stderrText()).toMatch(/^No archived Parquet files yet\.\n3 rows/);
  });

  it("exits 9 with the engine's own message and no stack when the engine refuses the query", async () => {
    // Prepare
    const engine = new FakeEngine(
      new QueryFailedError('DuckDB', 'Binder Error: Referenced column "nope" not found in FROM clause!'),
    );
    const io = ioWith(engine);

    // Act
    const code = await runCli(['query', 'SELECT nope FROM comments'], io);

    // Assess
    expect(code).toBe(ExitCode.QUERY_FAILED);
    expect(io.stderrText()).toBe(
      'error: DuckDB: Binder Error: Referenced column "nope" not found in FROM clause!\n',
    );
    expect(io.stdoutText()).toBe('');
    expect(engine.closed).toBe(true);
  });

  it.each([
    [['query'], 'the SQL is missing'],
    [['query', '  ;  '], 'the SQL is missing'],
    [['query', 'SELECT 1', '--file', 'q.sql'], 'give the SQL as an argument or with --file, not both'],
    [['query', 'SELECT', '1'], "unexpected argument '1' (quote the SQL as one argument)"],
    [['query', 'SELECT 1', '--format', 'xml'], "--format 'xml' must be one of table, csv, json"],
    [['query', 'SELECT 1', '--json', '--format', 'csv'], '--json and --format csv contradict each other'],
    [['query', 'SELECT 1', '--local', '--workgroup', 'wg'], '--local and --workgroup exclude each other'],
    [['query', 'SELECT 1', '--workgroup', 'wg'], 'Athena needs a region'],
    [['query', 'SELECT 1', '--database', 'Bad-Name'], "--database 'Bad-Name' must be a catalog name"],
    [['query', '--file', '/nonexistent/q.sql'], 'cannot read --file /nonexistent/q.sql: ENOENT'],
  ])('refuses %j with a usage error (exit 2) before any engine opens', async (argv, message) => {
    // Prepare
    const engine = new FakeEngine(ANSWER);
    const io = ioWith(engine);

    // Act
    const code = await runCli(argv, io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain(`error: ${message}`);
    expect(io.stderrText()).toContain('Usage: npx openweb-exports query');
    expect(io.targets).toEqual([]);
  });

  it('is listed in the general help, with the exit code for a failed query', async () => {
    // Prepare
    const io = createTestIo();

    // Act
    await runCli(['--help'], io);

    // Assess
    expect(io.stdoutText()).toMatch(/^ {2}query +Ask the archive a question in SQL/m);
    expect(io.stdoutText()).toMatch(/^ {2}9 +query: the engine failed the query/m);
    expect(io.stdoutText()).toMatch(/^ {2}11 +query: refused, not a read-only question about the archive/m);
  });

  it.each([
    ['a write', "COPY (SELECT 1) TO 's3://elsewhere/x.csv'", 'COPY writes files'],
    ['a table made', 'CREATE TABLE t AS SELECT 1', 'CREATE defines tables, views or functions'],
    ['a view dropped', '/* tidy */ DROP VIEW comments', "DROP drops the archive's tables or views"],
    [
      'an EXPLAIN ANALYZE of an insert',
      'EXPLAIN ANALYZE INSERT INTO t VALUES (1)',
      'EXPLAIN INSERT changes data',
    ],
  ])(
    'refuses %s on Athena too (exit 11), before any engine opens or credential is looked up',
    async (_kind, sql, reason) => {
      // Prepare
      const engine = new FakeEngine(ANSWER, { name: 'Athena' });
      const io = ioWith(engine, { env: { OPENWEB_EXPORTS_WORKGROUP: 'wg', AWS_REGION: 'eu-west-1' } });

      // Act
      const code = await runCli(['query', sql], io);

      // Assess
      expect(code).toBe(ExitCode.QUERY_REFUSED);
      expect(io.stderrText()).toBe(
        `error: Athena refused the query: ${reason}: a query here only reads the archive (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE, or EXPLAIN of a query)\n`,
      );
      expect(io.targets).toEqual([]);
      expect(engine.asked).toEqual([]);
    },
  );
});
