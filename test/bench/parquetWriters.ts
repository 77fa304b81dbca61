// Parquet writers side by side: `npm run bench:parquet-writers`. Each candidate, pinned, is
// installed once into node_modules/.cache/parquet-writer-candidates (from the npm registry) and
// writes the same CSV (100k records of about 1 KB, the archive bench's data) as the comments
// table: the project's own CSV parser and column mapping, row groups of COMMENT_ROW_GROUP_ROWS,
// snappy. Every run is a fresh child process reading the CSV from disk as a stream, so its peak
// RSS growth over its own baseline is the writer's; runs are interleaved (round r runs every
// candidate once), medians of WRITERS_RUNS rounds (default 3). Bundle size: the writer's code as
// the archive function would carry it (esbuild, minified ESM for Node, as infra/functionBundling.ts
// builds), plus any WebAssembly file it must ship beside it.
import { execFileSync, spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { COMMENT_ROW_GROUP_ROWS, CommentParquetWriter } from '../../lib/archive/parquet/CommentParquetWriter';
import {
  CommentRowMapping,
  type CommentRowValues,
  KNOWN_STRING_COLUMNS,
} from '../../lib/archive/parquet/CommentRowMapping';
import { CsvRecordParser } from '../../lib/archive/parquet/CsvRecordParser';
import { COMMENT_TABLE_COLUMNS } from '../../lib/archive/parquet/commentTableSchema';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { kilobyteCommentsCsv } from './support/kilobyteComments';
import { median } from './support/median';

const CANDIDATES = {
  'hyparquet-writer': {
    packages: ['hyparquet-writer@0.17.0', 'hysnappy@1.1.1'],
    runtime: 'JavaScript, snappy in WebAssembly (hysnappy, inlined)',
  },
  '@dsnp/parquetjs': { packages: ['@dsnp/parquetjs@1.8.9'], runtime: 'pure JavaScript' },
  'parquet-wasm': {
    packages: ['parquet-wasm@0.8.0', 'apache-arrow@21.2.0'],
    runtime: 'Rust as WebAssembly (+ apache-arrow to hand it columns)',
  },
} as const;
type Candidate = keyof typeof CANDIDATES;

const RECORDS = Number(process.env.WRITERS_RECORDS ?? 100_000);
const RUNS = Number(process.env.WRITERS_RUNS ?? 3);
const CANDIDATES_DIR = join(LOCAL_PROJECT_ROOT, 'node_modules', '.cache', 'parquet-writer-candidates');
const RSS_SAMPLE_INTERVAL_MS = 5;
/** A writer that needs more than this fails its run instead of taking the machine's memory. */
const CHILD_MAX_HEAP_MB = 4096;
const MB = 1024 * 1024;
const KB = 1024;
const SEED = 7;

interface ChildFigures {
  seconds: number;
  peakRssGrowthMb: number;
  parquetBytes: number;
  rows: number;
}

/** One row group's columns, in COMMENT_TABLE_COLUMNS order, as plain values. */
type RowGroupColumns = Record<string, unknown[]>;

const LINEAGE = {
  exportId: 'ex_bench',
  windowFrom: Date.UTC(2026, 0, 1),
  windowUntil: Date.UTC(2026, 0, 2),
  exportedAt: Date.UTC(2026, 0, 2, 1),
  sourceFile: 'export_bench.csv',
};

/** Collects mapped rows into row groups of COMMENT_ROW_GROUP_ROWS for the writers that are not ours. */
class RowGroupCollector {
  #mapping: CommentRowMapping | undefined;
  #rows: CommentRowValues[] = [];
  constructor(private readonly flush: (columns: RowGroupColumns) => void) {}

  record(fields: Buffer[]): void {
    if (this.#mapping === undefined) {
      this.#mapping = new CommentRowMapping(fields);
      return;
    }
    this.#rows.push(this.#mapping.values(fields));
    if (this.#rows.length >= COMMENT_ROW_GROUP_ROWS) this.end();
  }

  end(): void {
    if (this.#rows.length === 0) return;
    const rows = this.#rows;
    this.#rows = [];
    const columns: RowGroupColumns = {};
    // These writers take JavaScript strings.
    KNOWN_STRING_COLUMNS.forEach((name, index) => {
      columns[name] = rows.map((row) => {
        const value = row.strings[index];
        if (value === null || value === undefined) return null;
        return typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
      });
    });
    columns.rank = rows.map((row) => row.rank);
    columns.written_at = rows.map((row) => row.writtenAtMs);
    columns.extra_columns = rows.map((row) => row.extraColumns);
    columns.unparsed_values = rows.map((row) => row.unparsedValues);
    columns.export_id = rows.map(() => LINEAGE.exportId);
    columns.window_from = rows.map(() => LINEAGE.windowFrom);
    columns.window_until = rows.map(() => LINEAGE.windowUntil);
    columns.exported_at = rows.map(() => LINEAGE.exportedAt);
    columns.source_file = rows.map(() => LINEAGE.sourceFile);
    this.flush(columns);
  }
}

/** Writes the CSV at `csvPath` as Parquet with `candidate`; returns the Parquet bytes and rows. */
async function writeWith(candidate: Candidate, csvPath: string): Promise<{ bytes: number; rows: number }> {
  const load = createRequire(join(CANDIDATES_DIR, 'package.json'));
  const importCandidate = (name: string) => import(pathToFileURL(load.resolve(name)).href);
  let bytes = 0;
  let rows = 0;
  const feed = async (onRecord: (fields: Buffer[]) => void, after?: () => Promise<void>) => {
    const parser = new CsvRecordParser(',', onRecord);
    for await (const chunk of createReadStream(csvPath)) {
      parser.push(chunk as Buffer);
      await after?.();
    }
    parser.end();
  };

  if (candidate === 'hyparquet-writer') {
    // What the archive runs (its hyparquet-writer is the project's own, the same version).
    const writer = new CommentParquetWriter({
      lineage: {
        exportId: LINEAGE.exportId,
        windowFrom: new Date(LINEAGE.windowFrom).toISOString(),
        windowUntil: new Date(LINEAGE.windowUntil).toISOString(),
        exportedAt: new Date(LINEAGE.exportedAt).toISOString(),
        sourceFile: LINEAGE.sourceFile,
      },
      output: (chunk) => {
        bytes += chunk.length;
      },
    });
    await feed((fields) => writer.writeRecord(fields));
    writer.finish();
    return { bytes, rows: writer.rows };
  }

  if (candidate === '@dsnp/parquetjs') {
    const { ParquetSchema, ParquetWriter } = load('@dsnp/parquetjs');
    const { Writable } = await import('node:stream');
    const typeOf = { STRING: 'UTF8', INT64: 'INT64', TIMESTAMP: 'TIMESTAMP_MILLIS' } as const;
    const schema = new ParquetSchema(
      Object.fromEntries(
        COMMENT_TABLE_COLUMNS.map(({ name, type }) => [
          name,
          { type: typeOf[type], optional: true, compression: 'SNAPPY' },
        ]),
      ),
    );
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback();
      },
    });
    const writer = await ParquetWriter.openStream(schema, sink, { rowGroupSize: COMMENT_ROW_GROUP_ROWS });
    // appendRow must be awaited row by row: the writer flushes a full row group inside it.
    let queued: Record<string, unknown>[] = [];
    const collector = new RowGroupCollector((columns) => {
      const count = columns.id?.length ?? 0;
      for (let index = 0; index < count; index++) {
        const row: Record<string, unknown> = {};
        for (const { name, type } of COMMENT_TABLE_COLUMNS) {
          const value = columns[name]?.[index];
          if (value === null || value === undefined) continue;
          row[name] = type === 'TIMESTAMP' ? new Date(value as number) : value;
        }
        queued.push(row);
      }
      rows += count;
    });
    const appendQueued = async () => {
      const batch = queued;
      queued = [];
      for (const row of batch) await writer.appendRow(row);
    };
    await feed((fields) => collector.record(fields), appendQueued);
    collector.end();
    await appendQueued();
    await writer.close();
    return { bytes, rows };
  }

  // parquet-wasm takes Arrow data: each row group becomes an Arrow table (apache-arrow), crosses
  // into WebAssembly as Arrow IPC and is written there. Each group is written as its own Parquet
  // buffer: the same encoding work as one file (its streaming writer needs web streams of batches).
  const wasm = load('parquet-wasm/node');
  const arrow = await importCandidate('apache-arrow');
  // A WriterProperties is consumed by the write it is passed to: one per row group.
  const properties = () => new wasm.WriterPropertiesBuilder().setCompression(wasm.Compression.SNAPPY).build();
  const arrowType = (type: string) =>
    type === 'STRING'
      ? new arrow.Utf8()
      : type === 'INT64'
        ? new arrow.Int64()
        : new arrow.TimestampMillisecond('UTC');
  const collector = new RowGroupCollector((columns) => {
    const vectors = Object.fromEntries(
      COMMENT_TABLE_COLUMNS.map(({ name, type }) => [
        name,
        arrow.vectorFromArray(type === 'INT64' ? columns[name] : (columns[name] ?? []), arrowType(type)),
      ]),
    );
    const table = new arrow.Table(vectors);
    const ipc = arrow.tableToIPC(table, 'stream');
    const parquet = wasm.writeParquet(wasm.Table.fromIPCStream(ipc), properties());
    bytes += parquet.length;
    rows += table.numRows;
  });
  await feed((fields) => collector.record(fields));
  collector.end();
  return { bytes, rows };
}

async function measureOne(candidate: Candidate, csvPath: string): Promise<ChildFigures> {
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, RSS_SAMPLE_INTERVAL_MS);
  const startedAt = performance.now();
  const { bytes, rows } = await writeWith(candidate, csvPath);
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds, peakRssGrowthMb: (peak - baseline) / MB, parquetBytes: bytes, rows };
}

function runChild(candidate: Candidate, csvPath: string): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        `--max-old-space-size=${CHILD_MAX_HEAP_MB}`,
        '--import',
        'tsx',
        'test/bench/parquetWriters.ts',
        '--child',
        candidate,
        csvPath,
      ],
      { cwd: LOCAL_PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${candidate}: the measuring process exited ${code}: ${output}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '') as ChildFigures);
    });
  });
}

/** Installs the pinned candidates once (npm's own client, the npm registry). */
function installCandidates(): void {
  const wanted = Object.values(CANDIDATES).flatMap((candidate) => candidate.packages);
  const marker = join(CANDIDATES_DIR, `.installed-${wanted.join('+').replaceAll('/', '_')}`);
  if (existsSync(marker)) return;
  mkdirSync(CANDIDATES_DIR, { recursive: true });
  writeFileSync(join(CANDIDATES_DIR, 'package.json'), '{"private":true}\n');
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', CANDIDATES_DIR, ...wanted],
    {
      stdio: 'inherit',
    },
  );
  writeFileSync(marker, '');
}

/** Minified bytes the writer adds to a function bundle, and the WebAssembly it ships beside it. */
async function bundleBytes(candidate: Candidate): Promise<{ code: number; wasm: number }> {
  const entries: Record<Candidate, string> = {
    'hyparquet-writer':
      "export { ByteWriter, ParquetWriter } from 'hyparquet-writer';\nexport { snappyCompressor } from 'hysnappy';",
    '@dsnp/parquetjs': "export { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';",
    'parquet-wasm':
      "export { Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm/node';\n" +
      "export { Table, tableToIPC, vectorFromArray, Utf8, Int64, TimestampMillisecond } from 'apache-arrow';",
  };
  const entry = join(CANDIDATES_DIR, `entry-${candidate.replace(/\W/g, '_')}.mjs`);
  writeFileSync(entry, `${entries[candidate]}\n`);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: CANDIDATES_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    write: false,
    logLevel: 'silent',
    // As the functions are bundled: the AWS SDK is bundled too, so a writer that imports it carries it.
  });
  const code = result.outputFiles.reduce((sum, file) => sum + file.contents.length, 0);
  const wasm =
    candidate === 'parquet-wasm'
      ? statSync(
          createRequire(join(CANDIDATES_DIR, 'package.json')).resolve(
            'parquet-wasm/node/parquet_wasm_bg.wasm',
          ),
        ).size
      : 0;
  return { code, wasm };
}

async function main(): Promise<void> {
  installCandidates();
  const directory = mkdtempSync(join(tmpdir(), 'bench-parquet-writers-'));
  const csvPath = join(directory, 'comments.csv');
  const chunks = [...kilobyteCommentsCsv(RECORDS, SEED)];
  writeFileSync(csvPath, Buffer.concat(chunks));
  const csvMb = statSync(csvPath).size / MB;
  const candidates = Object.keys(CANDIDATES) as Candidate[];
  const figures = new Map<Candidate, ChildFigures[]>(candidates.map((candidate) => [candidate, []]));
  try {
    for (let round = 0; round < RUNS; round++) {
      // Interleaved, and each round in another order, so drift on a shared machine hits all alike.
      const order = candidates.map(
        (_, index) => candidates[(index + round) % candidates.length] as Candidate,
      );
      for (const candidate of order) figures.get(candidate)?.push(await runChild(candidate, csvPath));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  console.log(
    `Parquet writers, ${RECORDS.toLocaleString('en-US')} records of about 1 KB (${csvMb.toFixed(1)} MB of CSV), rows of ${COMMENT_ROW_GROUP_ROWS.toLocaleString('en-US')} a row group, snappy; medians of ${RUNS} interleaved rounds (min–max)\n`,
  );
  console.log(
    '| writer | runs as | MB/s of CSV | peak RSS growth | Parquet size | bundle (minified) | + WebAssembly |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const candidate of candidates) {
    const runs = figures.get(candidate) ?? [];
    const speeds = runs.map((run) => csvMb / run.seconds);
    const growths = runs.map((run) => run.peakRssGrowthMb);
    const rows = new Set(runs.map((run) => run.rows));
    if (rows.size !== 1 || !rows.has(RECORDS)) {
      console.log(`  ${candidate}: rows written ${[...rows].join(', ')}, expected ${RECORDS}`);
      process.exitCode = 1;
    }
    const { code, wasm } = await bundleBytes(candidate);
    console.log(
      `| ${candidate} | ${CANDIDATES[candidate].runtime} | ${median(speeds).toFixed(1)} (${Math.min(...speeds).toFixed(1)}–${Math.max(...speeds).toFixed(1)}) | ${median(growths).toFixed(0)} MB (${Math.min(...growths).toFixed(0)}–${Math.max(...growths).toFixed(0)}) | ${((runs[0]?.parquetBytes ?? 0) / MB).toFixed(1)} MB | ${(code / KB).toFixed(0)} KB | ${wasm === 0 ? '—' : `${(wasm / KB).toFixed(0)} KB`} |`,
    );
  }
}

if (process.argv[2] === '--child') {
  const [candidate, csvPath] = process.argv.slice(3) as [Candidate, string];
  measureOne(candidate, csvPath).then(
    (figures) => console.log(JSON.stringify(figures)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  await main();
}
