// Local query speed: `npm run bench:query`. Archives 1,000,000 rows in the Lake layout into the local
// runtime's S3 stand-in (the simulator's comments: two spots, 18 daily exports each, and four days of
// sp_demo exported again, so 100,000 rows are duplicates the view removes), then times, in this
// process, what `openweb-exports query` does for each question: open DuckDB over the files, create the
// table and view, answer. Each run opens a fresh engine, as each CLI command does. Also times one
// whole CLI process, and estimates what each question would scan on Athena from the Parquet files'
// own column-chunk sizes. Prints medians over QUERY_RUNS runs (default 5); exits 1 when a goal is missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { athenaQueryCost, formatScannedBytes, formatUsd } from '../../cli/query/athenaPricing';
import { DuckDbQueryEngine } from '../../cli/query/DuckDbQueryEngine';
import { findLocalLakeFiles } from '../../cli/query/localLakeFiles';
import { generateComments } from '../../local/openweb-simulator/simulatedComments';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { exampleQuestions } from '../support/exampleQuestions';
import { openLakeArchive, windowExport } from '../support/lakeFixtures';
import { median } from './support/median';

const SPOTS = ['sp_demo', 'sp_other'] as const;
const DAYS = 18;
const COMMENTS_PER_DAY = 25_000;
/** Days of sp_demo exported a second time (a backfill over the schedule's windows). */
const REEXPORTED_DAYS = 4;
const ROWS = (SPOTS.length * DAYS + REEXPORTED_DAYS) * COMMENTS_PER_DAY;
const FIRST_DAY_MS = Date.parse('2024-05-01T00:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const RUNS = Number(process.env.QUERY_RUNS ?? 5);
/** The goal: a local question over 1,000,000 archived rows is answered within this. */
const MAX_ANSWER_SECONDS = 2;
const MS_PER_SECOND = 1000;
const MICROSECONDS_PER_SECOND = 1_000_000;

/** The columns each question makes Athena read: the view's ranking columns and the question's own. */
const VIEW_COLUMNS = ['id', 'spot_id', 'export_id', 'exported_at'];
const QUESTION_COLUMNS = [['written_at'], ['user_id', 'user_name'], ['message_status']];
const QUESTIONS = [
  ...exampleQuestions().map((question, index) => ({
    ...question,
    columns: [...VIEW_COLUMNS, ...(QUESTION_COLUMNS[index] ?? [])],
    // The first question filters on spot: Athena reads that spot's partitions only.
    spot: index === 0 ? 'sp_demo' : undefined,
  })),
  { title: 'Comments in all', sql: 'select count(*) from comments', columns: VIEW_COLUMNS, spot: undefined },
];

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

async function archiveRows(dataDir: string): Promise<void> {
  const lake = await openLakeArchive(dataDir);
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
        const window = { spotId, from: iso(fromMs), until: iso(fromMs + DAY_MS) };
        await lake.archive([
          windowExport(comments, {
            ...window,
            exportId: `ex_${spotId}_${day}`,
            exportedAt: iso(fromMs + DAY_MS),
          }),
        ]);
        if (spotId === 'sp_demo' && day < REEXPORTED_DAYS) {
          await lake.archive([
            windowExport(comments, {
              ...window,
              exportId: `ex_${spotId}_${day}_again`,
              exportedAt: iso(fromMs + 30 * DAY_MS),
            }),
          ]);
        }
      }
    }
  } finally {
    await lake.close();
  }
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

const dataDir = mkdtempSync(join(tmpdir(), 'bench-query-'));
try {
  console.log(
    `Archiving ${ROWS.toLocaleString('en')} rows (${SPOTS.length} spots × ${DAYS} days × ${COMMENTS_PER_DAY.toLocaleString('en')}, and ${REEXPORTED_DAYS} days again)…`,
  );
  const archiveStarted = performance.now();
  await archiveRows(dataDir);
  const { files } = await findLocalLakeFiles(dataDir);
  const sizes = await columnBytes(files);
  console.log(
    `${files.length} Parquet files, ${formatScannedBytes(sizes.total)} in all (${formatScannedBytes((sizes.total / ROWS) * 1_000_000)} per million rows), ` +
      `archived in ${((performance.now() - archiveStarted) / MS_PER_SECOND).toFixed(1)} s\n`,
  );

  let missed = false;
  console.log(
    `${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the start: wall-clock times grow with the ` +
      'load, CPU times much less\n',
  );
  console.log(
    `| question | answer rows | local answer, median of ${RUNS} (min–max) | CPU time, median | Athena would scan (estimate) | Athena cost |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const question of QUESTIONS) {
    await answerOnce(dataDir, question.sql); // warm the file cache, as a second question would find it
    const runs: { seconds: number; cpuSeconds: number; rows: number }[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await answerOnce(dataDir, question.sql));
    const seconds = runs.map((run) => run.seconds);
    const scanned = question.columns.reduce((sum, column) => {
      const perFile = sizes.byColumn.get(column) ?? new Map<string, number>();
      return (
        sum +
        [...perFile]
          .filter(([file]) => question.spot === undefined || file.includes(`/spot=${question.spot}/`))
          .reduce((total, [, bytes]) => total + bytes, 0)
      );
    }, 0);
    const cost = athenaQueryCost(scanned);
    if (median(seconds) > MAX_ANSWER_SECONDS) missed = true;
    console.log(
      `| ${question.title} | ${runs[0]?.rows ?? 0} | ${median(seconds).toFixed(2)} s (${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}) | ` +
        `${median(runs.map((run) => run.cpuSeconds)).toFixed(2)} s | ` +
        `${formatScannedBytes(scanned)} | ${formatUsd(cost.usd)} (billed ${formatScannedBytes(cost.billedBytes)}) |`,
    );
  }
  const cli = [0, 1, 2].map(() => cliProcessSeconds(dataDir, 'select count(*) from comments'));
  console.log(
    `\nThe whole CLI process (tsx, DuckDB, the answer), 'select count(*) from comments': ` +
      `${median(cli).toFixed(2)} s median of 3 (${Math.min(...cli).toFixed(2)}–${Math.max(...cli).toFixed(2)})`,
  );
  console.log(
    `Goal: every local answer over ${ROWS.toLocaleString('en')} rows within ${MAX_ANSWER_SECONDS} s: ` +
      `${missed ? 'MISSED' : 'met'} (load average ${loadavg()[0]?.toFixed(1)} at the end)`,
  );
  if (missed) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
