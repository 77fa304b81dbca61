// Local query speed and Athena's bytes: `npm run bench:query`. Archives the simulator's comments, two
// spots over QUERY_DAYS days of QUERY_COMMENTS_PER_DAY each, into two copies of the local runtime's
// S3 stand-in with the archive's own Parquet writer: once with each day exported once (one version
// per comment), once with each day exported three times, as `restate: ["P1D", "P7D"]` would (three
// versions, the source moderating, editing and deleting comments in between). Estimates what each
// example question of docs/archive.md, and `select count(*) from comments`, would make Athena scan
// in each copy, from the Parquet files' own column-chunk sizes: per million rows, and for three
// versions per million comments too. Then times, in this process, what `openweb-exports query` does
// for each question over the three versions: open DuckDB over the files, create the table and views,
// answer. Each run opens a fresh engine, as each CLI command does. Also times one whole CLI process.
// Prints medians over QUERY_RUNS runs (default 5); exits 1 when a goal is missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { athenaQueryCost, formatScannedBytes, formatUsd } from '../../cli/query/athenaPricing';
import { DuckDbQueryEngine } from '../../cli/query/DuckDbQueryEngine';
import { findLocalLakeFiles } from '../../lib/lake/localLakeFiles';
import { generateComments, type SimulatedComment } from '../../local/openweb-simulator/simulatedComments';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { exampleQuestions } from '../support/exampleQuestions';
import { openLakeArchive, windowExport } from '../support/lakeFixtures';
import { median } from './support/median';

const SPOTS = ['sp_demo', 'sp_other'] as const;
const DAYS = Number(process.env.QUERY_DAYS ?? 10);
/** 17,000 a day: three versions of every comment come to about 1,000,000 rows, the goal's size. */
const COMMENTS_PER_DAY = Number(process.env.QUERY_COMMENTS_PER_DAY ?? 17_000);
const COMMENTS = SPOTS.length * DAYS * COMMENTS_PER_DAY;
const FIRST_DAY_MS = Date.parse('2024-05-01T00:00:00Z');
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const RUNS = Number(process.env.QUERY_RUNS ?? 5);
/** The goal: a local question over 1,000,000 archived rows is answered within this. */
const MAX_ANSWER_SECONDS = 2;
const MS_PER_SECOND = 1000;
const MICROSECONDS_PER_SECOND = 1_000_000;
const MILLION = 1_000_000;

/**
 * When each version of a day is exported, after the day ends: the schedule's run, then the
 * restatements at one day and seven days.
 */
const VERSION_DELAYS_MS = [10 * 60_000, DAY_MS, 7 * DAY_MS] as const;
/** What the source does to its comments before each restatement, per comment (by its place in the day). */
const STATUS_CHANGED_EVERY = 10;
const EDITED_EVERY = 50;
const DELETED_EVERY = 100;

/**
 * The parts of the table a question makes Athena read: each scan of `comment_rows` its query
 * plans (a view reads the table once per subquery, and every branch of `comment_changes` is its
 * own scan), with the columns that scan needs once the engine has pruned the rest (Athena reads
 * only the column chunks a scan names), and whether it reads one spot's partitions only.
 */
interface TableScan {
  columns: readonly string[];
  spot?: string;
}

/** `comments`: the versions ranked (with the windows, to match later exports), and the later exports. */
const commentsScans = (columns: readonly string[], spot?: string): TableScan[] => [
  {
    columns: ['id', 'spot_id', 'export_id', 'exported_at', 'window_from', 'window_until', ...columns],
    ...(spot !== undefined && { spot }),
  },
  {
    columns: ['export_id', 'window_from', 'window_until', 'exported_at'],
    ...(spot !== undefined && { spot }),
  },
];
/** The `message_status` branch of `comment_changes` (a filter on `change` leaves the other columns' branches out). */
const STATUS_CHANGES: TableScan = {
  columns: ['id', 'spot_id', 'message_status', 'export_id', 'exported_at'],
};
/** The `deleted` branch: the versions with their windows, and the later exports. */
const DELETIONS: TableScan[] = [
  { columns: ['id', 'spot_id', 'export_id', 'exported_at', 'window_from', 'window_until'] },
  { columns: ['export_id', 'window_from', 'window_until', 'exported_at'] },
];

/** The scans of each example question, by its title in docs/archive.md. */
const SCANS_BY_TITLE: Record<string, TableScan[]> = {
  'Comments per day for a spot': commentsScans(['written_at'], 'sp_demo'),
  'The ten most active authors': commentsScans(['user_id', 'user_name']),
  'The share of comments per message status': commentsScans(['message_status']),
  'Comments rejected after first being approved, per day': [STATUS_CHANGES],
  'The share of comments whose status changed within 7 days': [
    { columns: ['id', 'spot_id', 'written_at'] },
    STATUS_CHANGES,
  ],
  'Comments deleted at the source last week': [STATUS_CHANGES, ...DELETIONS],
};
const QUESTIONS = [
  ...exampleQuestions().map((question) => {
    const scans = SCANS_BY_TITLE[question.title];
    if (scans === undefined) throw new Error(`no scans listed for the question "${question.title}"`);
    return { ...question, scans };
  }),
  { title: 'Comments in all', sql: 'select count(*) from comments', scans: commentsScans([]) },
];

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The day's comments as the source holds them when version `version` (0, 1, 2) is exported. */
function asOfVersion(comments: readonly SimulatedComment[], version: number): SimulatedComment[] {
  return comments.flatMap((comment, index) => {
    if (version > 0 && index % DELETED_EVERY === 1) return [];
    const changed = { ...comment };
    if (version > 0 && index % STATUS_CHANGED_EVERY === 0) {
      changed.message_status = comment.message_status === 'approved' ? 'rejected' : 'approved';
    }
    if (version > 1 && index % STATUS_CHANGED_EVERY === 5) changed.message_status = 'rejected';
    if (version > 0 && index % EDITED_EVERY === 2) changed.content = `${comment.content} (edited)`;
    return [changed];
  });
}

/** Archives every day of every spot `versions` times (1 or 3); returns the rows archived. */
async function archiveRows(dataDir: string, versions: number): Promise<number> {
  const lake = await openLakeArchive(dataDir, 'archive');
  let rows = 0;
  try {
    for (const [spotIndex, spotId] of SPOTS.entries()) {
      for (let day = 0; day < DAYS; day += 1) {
        const fromMs = FIRST_DAY_MS + day * DAY_MS;
        const comments = generateComments({
          seed: 1_000 * (spotIndex + 1) + day,
          count: COMMENTS_PER_DAY,
          spotId,
          fromMs,
          untilMs: fromMs + DAY_MS,
        });
        for (let version = 0; version < versions; version += 1) {
          const exported = windowExport(asOfVersion(comments, version), {
            spotId,
            from: iso(fromMs),
            until: iso(fromMs + DAY_MS),
            exportId: `ex_${spotId}_${day}_v${version + 1}`,
            exportedAt: iso(fromMs + DAY_MS + (VERSION_DELAYS_MS[version] as number)),
          });
          rows += exported.files.reduce((sum, file) => sum + file.length, 0);
          await lake.archive([exported]);
        }
      }
    }
  } finally {
    await lake.close();
  }
  return rows;
}

/** One question as the CLI answers it: a fresh engine over the files, the table and view, the answer. */
async function answerOnce(
  dataDir: string,
  sql: string,
): Promise<{ seconds: number; cpuSeconds: number; rows: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const engine = await DuckDbQueryEngine.open({ dataDir, database: 'openweb_exports' });
  try {
    const result = await engine.run(sql);
    const cpu = process.cpuUsage(cpuBefore);
    return {
      seconds: (performance.now() - started) / MS_PER_SECOND,
      // DuckDB's threads run in this process: their time is in it.
      cpuSeconds: (cpu.user + cpu.system) / MICROSECONDS_PER_SECOND,
      rows: result.rows.length,
    };
  } finally {
    await engine.close();
  }
}

/** Bytes of the named columns' chunks in the files (what Athena reads of a Parquet file), plus every file's size. */
async function columnBytes(
  files: readonly string[],
): Promise<{ byColumn: Map<string, Map<string, number>>; total: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const list = files.map((file) => `'${file}'`).join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT file_name, path_in_schema, sum(total_compressed_size)::BIGINT FROM parquet_metadata([${list}]) GROUP BY ALL`,
    );
    const byColumn = new Map<string, Map<string, number>>();
    for (const [file, column, bytes] of reader.getRows()) {
      const perFile = byColumn.get(String(column)) ?? new Map<string, number>();
      perFile.set(String(file), Number(bytes));
      byColumn.set(String(column), perFile);
    }
    const sizes = await connection.runAndReadAll(`SELECT sum(size)::BIGINT FROM read_blob([${list}])`);
    return { byColumn, total: Number(sizes.getRows()[0]?.[0]) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function cliProcessSeconds(dataDir: string, sql: string): number {
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(LOCAL_PROJECT_ROOT, 'cli/main.ts'), 'query', sql, '--data-dir', dataDir],
    {
      cwd: LOCAL_PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  if (child.status !== 0) throw new Error(`the CLI failed: ${child.stderr}`);
  return (performance.now() - started) / MS_PER_SECOND;
}

interface ArchivedCopy {
  dataDir: string;
  rows: number;
  sizes: Awaited<ReturnType<typeof columnBytes>>;
}

async function archiveCopy(root: string, versions: number): Promise<ArchivedCopy> {
  const dataDir = join(root, `versions-${versions}`);
  const started = performance.now();
  const rows = await archiveRows(dataDir, versions);
  const { files } = await findLocalLakeFiles(dataDir);
  const sizes = await columnBytes(files);
  console.log(
    `${versions === 1 ? 'One version' : `${versions} versions`} per comment: ${rows.toLocaleString('en')} rows, ` +
      `${files.length} Parquet files, ${formatScannedBytes(sizes.total)} in all ` +
      `(${formatScannedBytes((sizes.total / rows) * MILLION)} per million rows), archived in ` +
      `${((performance.now() - started) / MS_PER_SECOND).toFixed(1)} s`,
  );
  return { dataDir, rows, sizes };
}

/** What Athena would read for `scans`: the bytes of each scan's column chunks in the files it reads, summed. */
function scannedBytes(copy: ArchivedCopy, scans: readonly TableScan[]): number {
  return scans.reduce(
    (sum, scan) =>
      sum +
      scan.columns.reduce((scanSum, column) => {
        const perFile = copy.sizes.byColumn.get(column) ?? new Map<string, number>();
        return (
          scanSum +
          [...perFile]
            .filter(([file]) => scan.spot === undefined || file.includes(`/spot=${scan.spot}/`))
            .reduce((total, [, bytes]) => total + bytes, 0)
        );
      }, 0),
    0,
  );
}

const root = mkdtempSync(join(tmpdir(), 'bench-query-'));
try {
  console.log(
    `Archiving ${COMMENTS.toLocaleString('en')} comments (${SPOTS.length} spots × ${DAYS} days × ` +
      `${COMMENTS_PER_DAY.toLocaleString('en')}) with the archive's Parquet writer, each day exported once, ` +
      'then each day exported three times (at its end, a day later, a week later)…',
  );
  const one = await archiveCopy(root, 1);
  const three = await archiveCopy(root, 3);

  console.log(
    "\nWhat Athena would scan (estimate from the files' column chunks; billed at least 10 MB a query):\n",
  );
  console.log(
    '| question | one version: per million rows | three versions: per million rows | three versions: per million comments | three ÷ one, same comments |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const question of QUESTIONS) {
    const oneBytes = scannedBytes(one, question.scans);
    const threeBytes = scannedBytes(three, question.scans);
    console.log(
      `| ${question.title} | ${formatScannedBytes((oneBytes / one.rows) * MILLION)} | ` +
        `${formatScannedBytes((threeBytes / three.rows) * MILLION)} | ` +
        `${formatScannedBytes((threeBytes / COMMENTS) * MILLION)} | ${(threeBytes / oneBytes).toFixed(2)} × |`,
    );
  }

  let missed = false;
  console.log(
    `\n${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the start: wall-clock times grow with the ` +
      'load, CPU times much less\n',
  );
  console.log(`Local answers over the three versions (${three.rows.toLocaleString('en')} rows):\n`);
  console.log(
    `| question | answer rows | local answer, median of ${RUNS} (min–max) | CPU time, median | Athena would scan | Athena cost |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const question of QUESTIONS) {
    await answerOnce(three.dataDir, question.sql); // warm the file cache, as a second question would find it
    const runs: { seconds: number; cpuSeconds: number; rows: number }[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await answerOnce(three.dataDir, question.sql));
    const seconds = runs.map((run) => run.seconds);
    const scanned = scannedBytes(three, question.scans);
    const cost = athenaQueryCost(scanned);
    if (median(seconds) > MAX_ANSWER_SECONDS) missed = true;
    console.log(
      `| ${question.title} | ${runs[0]?.rows ?? 0} | ${median(seconds).toFixed(2)} s (${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}) | ` +
        `${median(runs.map((run) => run.cpuSeconds)).toFixed(2)} s | ` +
        `${formatScannedBytes(scanned)} | ${formatUsd(cost.usd)} (billed ${formatScannedBytes(cost.billedBytes)}) |`,
    );
  }
  const cli = [0, 1, 2].map(() => cliProcessSeconds(three.dataDir, 'select count(*) from comments'));
  console.log(
    `\nThe whole CLI process (tsx, DuckDB, the answer), 'select count(*) from comments': ` +
      `${median(cli).toFixed(2)} s median of 3 (${Math.min(...cli).toFixed(2)}–${Math.max(...cli).toFixed(2)})`,
  );
  console.log(
    `Goal: every local answer over ${three.rows.toLocaleString('en')} rows within ${MAX_ANSWER_SECONDS} s: ` +
      `${missed ? 'MISSED' : 'met'} (load average ${loadavg()[0]?.toFixed(1)} at the end)`,
  );
  if (missed) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
