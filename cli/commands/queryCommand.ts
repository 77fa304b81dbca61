import { readFile } from 'node:fs/promises';
import { COMMENT_CHANGES_VIEW_NAME } from '../../lib/lake/commentChangesView';
import { COMMENT_ROWS_TABLE_NAME, DEFAULT_LAKE_DATABASE_NAME } from '../../lib/lake/commentRowsTable';
import { COMMENTS_VIEW_NAME } from '../../lib/lake/commentsView';
import type { CliCommand, CommandContext } from '../CliCommand';
import type { CliIo } from '../CliIo';
import { booleanOption, stringOption } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';
import {
  ATHENA_PRICE_PER_TB_SCANNED_USD,
  ATHENA_PRICE_SOURCE,
  athenaQueryCost,
  formatScannedBytes,
  formatUsd,
} from '../query/athenaPricing';
import { formatQueryResult, QueryOutputFormat } from '../query/formatQueryResult';
import { openQueryEngine } from '../query/openQueryEngine';
import type { QueryProgress } from '../query/QueryEngine';
import { resolveQueryTarget } from '../query/QueryTarget';
import { assertReadOnlyStatement, READ_ONLY_STATEMENTS } from '../query/readOnlyStatement';

const NAME = 'query';
const FORMATS = Object.values(QueryOutputFormat);
// Return to the start of the line and erase it, so the next progress line replaces the last.
const REDRAW_LINE = '\r\x1b[2K';
const SPINNER_FRAMES = ['|', '/', '-', '\\'] as const;
const MS_PER_SECOND = 1000;
/** How messages name each engine (the engines' own names, without loading either). */
const ENGINE_NAMES = { duckdb: 'DuckDB', athena: 'Athena' } as const;

export const queryCommand: CliCommand = {
  name: NAME,
  summary: 'Ask the archive a question in SQL (DuckDB locally, Athena in AWS)',
  synopsis: `${NAME} "<sql>" | --file <q.sql> [--format table|csv|json] [--local [--data-dir <dir>] | --workgroup <name>] [--database <name>]`,
  help: `Runs one SQL statement over the archive: the table ${COMMENT_ROWS_TABLE_NAME} (every archived row,
every version), the view ${COMMENTS_VIEW_NAME} (one row per comment, its newest version, less those deleted
at the source) and the view ${COMMENT_CHANGES_VIEW_NAME} (one row per change seen between versions). The same
SQL runs on both engines when it sticks to their common ground (see docs/archive.md).

Where it runs:
  Athena, when a workgroup is named (--workgroup, or $OPENWEB_EXPORTS_WORKGROUP: the stack's
  AthenaWorkGroupName output), in --region (else the --api host's region, else $AWS_REGION),
  with the default AWS credential chain. Prints the bytes scanned and their cost on stderr.
  DuckDB otherwise (or with --local), on this machine, over the Parquet files the local runtime
  ('npm start') archived, read in place.

Options:
  --file <path>         Read the SQL from a file instead of the argument
  --format <format>     table (the default: aligned columns), csv or json (an array of objects);
                        --json is --format json
  --local               Run on DuckDB even when a workgroup is set
  --data-dir <dir>      The local runtime's data dir (default: $LOCAL_DATA_DIR, else the
                        project's .local-data, where 'npm start' keeps it)
  --workgroup <name>    The Athena workgroup (default: $OPENWEB_EXPORTS_WORKGROUP)
  --database <name>     The catalog database: the stack's LakeDatabaseName output (default:
                        $OPENWEB_EXPORTS_DATABASE, else on Athena the workgroup's name in lower
                        case with _ for other characters, as the stack names it; locally
                        ${DEFAULT_LAKE_DATABASE_NAME})

Only questions run: ${READ_ONLY_STATEMENTS}. A statement that writes,
defines, attaches, loads or sets anything is refused before it runs, and DuckDB reads no file
but the archive's own (see docs/security.md).

Exits 9 when the engine fails the query, with its message; 11 when the query is refused.`,
  options: {
    file: { type: 'string' },
    format: { type: 'string' },
    local: { type: 'boolean' },
    'data-dir': { type: 'string' },
    workgroup: { type: 'string' },
    database: { type: 'string' },
  },
  run: runQuery,
};

async function runQuery(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  const format = formatOption(context);
  const sql = await readSql(context);
  const target = resolveQueryTarget({
    local: booleanOption(values, 'local'),
    dataDir: stringOption(values, 'data-dir'),
    workGroup: stringOption(values, 'workgroup'),
    database: stringOption(values, 'database'),
    region: stringOption(values, 'region'),
    api: stringOption(values, 'api'),
    env: io.env,
    cwd: process.cwd(),
    command: NAME,
  });
  // Up front, before an engine is loaded or a credential looked up.
  assertReadOnlyStatement(sql, ENGINE_NAMES[target.engine]);
  const engine = await (io.openQueryEngine ?? openQueryEngine)(target, io);
  if (engine.notice !== undefined) io.stderr.write(`${engine.notice}\n`);
  const progress = progressLine(io, engine.name);
  try {
    const result = await engine.run(sql, {
      onProgress: progress.update,
      ...(io.signal !== undefined && { signal: io.signal }),
    });
    progress.clear();
    io.stdout.write(formatQueryResult(result, format));
    const rows = `${result.rows.length} ${result.rows.length === 1 ? 'row' : 'rows'}`;
    const scanned =
      target.engine === 'athena' && result.scannedBytes !== undefined
        ? `; ${athenaCostText(result.scannedBytes)}`
        : '';
    io.stderr.write(`${rows} from ${engine.name}, ${engine.source}${scanned}\n`);
    return ExitCode.SUCCESS;
  } finally {
    progress.clear();
    await engine.close();
  }
}

function formatOption(context: CommandContext): QueryOutputFormat {
  const text = stringOption(context.values, 'format');
  if (text === undefined) return context.json ? QueryOutputFormat.JSON : QueryOutputFormat.TABLE;
  const format = FORMATS.find((candidate) => candidate === text.toLowerCase());
  if (format === undefined)
    throw new CliUsageError(`--format '${text}' must be one of ${FORMATS.join(', ')}`, NAME);
  if (context.json && format !== QueryOutputFormat.JSON) {
    throw new CliUsageError(`--json and --format ${format} contradict each other`, NAME);
  }
  return format;
}

/** The SQL of the one argument or of --file, without a trailing `;` (Athena takes one statement, bare). */
async function readSql(context: CommandContext): Promise<string> {
  const file = stringOption(context.values, 'file');
  const [argument, ...extra] = context.positionals;
  if (extra.length > 0) {
    throw new CliUsageError(`unexpected argument '${extra[0]}' (quote the SQL as one argument)`, NAME);
  }
  if (file !== undefined && argument !== undefined) {
    throw new CliUsageError('give the SQL as an argument or with --file, not both', NAME);
  }
  let text = argument;
  if (file !== undefined) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliUsageError(
        `cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        NAME,
      );
    }
  }
  const sql = text?.trim().replace(/;\s*$/, '').trimEnd();
  if (sql === undefined || sql === '')
    throw new CliUsageError('the SQL is missing: query "<sql>" or --file <path>', NAME);
  return sql;
}

/** `Scanned 1.2 MB (billed 10.0 MB): about $0.0000048 at Athena's $5 per TB scanned (us-east-1 list price, November 2026)` */
export function athenaCostText(scannedBytes: number): string {
  const { billedBytes, usd } = athenaQueryCost(scannedBytes);
  return (
    `scanned ${formatScannedBytes(scannedBytes)} (billed ${formatScannedBytes(billedBytes)}): about ${formatUsd(usd)} ` +
    `at Athena's $${ATHENA_PRICE_PER_TB_SCANNED_USD} per TB scanned (${ATHENA_PRICE_SOURCE})`
  );
}

/** A redrawn status line on stderr while the engine runs, on a terminal only. */
function progressLine(
  io: CliIo,
  engineName: string,
): { update(progress: QueryProgress): void; clear(): void } {
  let frame = 0;
  let drawn = false;
  return {
    update(progress) {
      if (!io.isTTY) return;
      const spinner = SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length];
      const scanned =
        progress.scannedBytes === undefined ? '' : `, ${formatScannedBytes(progress.scannedBytes)} scanned`;
      const seconds = (progress.elapsedMs / MS_PER_SECOND).toFixed(0);
      io.stderr.write(`${REDRAW_LINE}${spinner} ${engineName}: ${progress.state} ${seconds} s${scanned}`);
      drawn = true;
    },
    clear() {
      if (drawn) io.stderr.write(REDRAW_LINE);
      drawn = false;
    },
  };
}
