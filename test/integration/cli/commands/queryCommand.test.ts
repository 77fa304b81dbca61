import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import { runCli } from '../../../../cli/runCli';
import { createTestIo } from '../../../unit/cli/support/testIo';

describe('query on the local engine (DuckDB), as a user runs it', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'cli-query-local-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  async function query(sql: string) {
    const io = createTestIo({ env: { LOCAL_DATA_DIR: join(directory, 'data') } });
    const code = await runCli(['query', sql], io);
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  }

  it.each([
    ['a write', "COPY (SELECT 1 AS x) TO '{dir}/x.csv'", 'x.csv', /refused the query: COPY writes files/],
    ['an attach', "ATTACH '{dir}/x.duckdb' AS x", 'x.duckdb', /refused the query: ATTACH opens or creates/],
  ])('refuses %s with exit 11 and its reason, and creates no file', async (_kind, template, file, reason) => {
    // Act
    const result = await query(template.replaceAll('{dir}', directory));

    // Assess
    expect(result.code).toBe(ExitCode.QUERY_REFUSED);
    expect(result.stderr).toMatch(new RegExp(`^error: DuckDB ${reason.source}`));
    expect(result.stdout).toBe('');
    expect(existsSync(join(directory, file))).toBe(false);
  });

  it('refuses to read a file outside the archive with exit 11, naming it', async () => {
    // Act
    const result = await query("SELECT * FROM read_text('/etc/hostname')");

    // Assess
    expect(result.code).toBe(ExitCode.QUERY_REFUSED);
    expect(result.stderr).toContain(
      'error: DuckDB refused the query: Permission Error: Cannot access file "/etc/hostname" - file system operations are disabled by configuration',
    );
    expect(result.stdout).toBe('');
  });

  it('refuses a DDL statement with exit 11, and the view is still there for the next question', async () => {
    // Act
    const dropped = await query('DROP VIEW comments');
    const counted = await query('SELECT count(*) AS comments FROM comments');

    // Assess
    expect(dropped.code).toBe(ExitCode.QUERY_REFUSED);
    expect(dropped.stderr).toMatch(
      /^error: DuckDB refused the query: DROP drops the archive's tables or views/,
    );
    expect(counted.code).toBe(ExitCode.SUCCESS);
    expect(counted.stdout).toContain('comments\n--------\n       0\n');
  });
});
