// Archive throughput and memory, with and without Parquet: `npm run bench:archive`. For 100k- and
// 400k-record export files of about 1 KB a record (the simulator's comments with their text grown
// to prose, one zipped CSV each), a fresh child process downloads the zip over loopback HTTP and
// stores its CSV gzip-compressed through the S3 adapter into the in-process S3 stand-in, exactly as
// the archive task does, once with the CSV's rows also written as Parquet (`on`) and once without
// (`off`). The child holds nothing else, so its peak RSS growth over its own baseline is the
// archive's. Both servers run in this (parent) process. Rounds are interleaved (each round runs
// every size and mode once, in alternating order) so drift on a shared machine hits both modes;
// prints medians over ARCHIVE_RUNS rounds (default 3), the on/off ratio, and whether each goal is
// met; exits 1 when one is missed. ARCHIVE_SIZES=100000 runs one size only; ARCHIVE_ROW_GROUP_ROWS
// tries another row group size.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { archiveZipFile } from '../../lib/archive/archiveZipFile';
import { downloadToFile } from '../../lib/archive/downloadToFile';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { startLocalS3 } from '../../local/localS3';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { writeKilobyteCommentsZip } from './support/kilobyteComments';
import { median } from './support/median';

/** The size the memory goal names, and four times it to show the growth stays flat. */
const SIZES: readonly number[] = process.env.ARCHIVE_SIZES?.split(',').map(Number) ?? [100_000, 400_000];
const GOAL_SIZE = 100_000;
/** Another row group size to compare with COMMENT_ROW_GROUP_ROWS (ARCHIVE_ROW_GROUP_ROWS=10000). */
const ROW_GROUP_ROWS =
  process.env.ARCHIVE_ROW_GROUP_ROWS === undefined ? undefined : Number(process.env.ARCHIVE_ROW_GROUP_ROWS);
const MODES = ['off', 'on'] as const;
type Mode = (typeof MODES)[number];
const RUNS = Number(process.env.ARCHIVE_RUNS ?? 3);
/** Goal: a 100k-record file archives, Parquet included, within this much RSS growth, and no more at 400k (flat). */
const MAX_RSS_GROWTH_MB = 128;
/** Goal: the archive with Parquet runs at least this fraction of the speed without it. */
const MIN_PARQUET_THROUGHPUT_RATIO = 0.7;
const RSS_SAMPLE_INTERVAL_MS = 5;
const DOWNLOAD_TIMEOUT_MS = 600_000;
const MB = 1024 * 1024;
const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const SEED = 7;

interface ChildFigures {
  zipBytes: number;
  storedBytes: number;
  parquetBytes: number;
  rows: number;
  parquetRows: number;
  seconds: number;
  peakRssGrowthMb: number;
  baselineRssMb: number;
}

/** Run in the child: one archive of one zip, measured. */
async function measureOne(
  zipUrl: string,
  s3Endpoint: string,
  bucket: string,
  mode: Mode,
): Promise<ChildFigures> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const storage = new S3ArchiveWriter({ client, bucketName: bucket });
  const scratch = mkdtempSync(join(tmpdir(), 'bench-archive-child-'));
  // Warm up module loading and the connection pool on a tiny object, then take the baseline.
  await storage.put('exports/bench/warmup', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, RSS_SAMPLE_INTERVAL_MS);
  const startedAt = performance.now();
  const zipPath = join(scratch, 'export.zip');
  const zipBytes = await downloadToFile(zipUrl, 1, zipPath, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
  const files = await archiveZipFile({
    zipPath,
    storage,
    sourceLink: 1,
    nextTarget: () => ({
      fileNumber: 1,
      key: 'exports/spot=sp_bench/date=2026-01-01/ex_bench/1.csv.gz',
      parquetKey: 'tables/comments/spot=sp_bench/date=2026-01-01/ex_bench-1.parquet',
    }),
    ...(mode === 'on' && {
      parquet: {
        delimiter: ',',
        ...(ROW_GROUP_ROWS !== undefined && { rowGroupRows: ROW_GROUP_ROWS }),
        lineage: {
          exportId: 'ex_bench',
          windowFrom: '2026-01-01T00:00:00Z',
          windowUntil: '2026-01-02T00:00:00Z',
          exportedAt: '2026-01-02T01:00:00Z',
        },
      },
    }),
  });
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  rmSync(scratch, { recursive: true, force: true });
  client.destroy();
  const file = files[0];
  return {
    zipBytes,
    storedBytes: file?.bytes ?? 0,
    parquetBytes: file?.parquet?.bytes ?? 0,
    rows: file?.rows ?? 0,
    parquetRows: file?.parquet?.rows ?? 0,
    seconds,
    peakRssGrowthMb: (peak - baseline) / MB,
    baselineRssMb: baseline / MB,
  };
}

function runChild(zipUrl: string, s3Endpoint: string, bucket: string, mode: Mode): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'test/bench/archive.ts',
        '--child',
        zipUrl,
        s3Endpoint,
        bucket,
        mode,
      ],
      {
        cwd: LOCAL_PROJECT_ROOT,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`the measuring process exited ${code}: ${output}`));
      else resolve(JSON.parse(line) as ChildFigures);
    });
  });
}

// The stand-in's client in this process: one SDK warning about Node 20 is enough (the children's).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const range = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-archive-'));
  const s3 = await startLocalS3();
  const zipFiles = new Map<string, string>();
  const csvBytes = new Map<number, number>();
  for (const size of SIZES) {
    const path = join(directory, `${size}.zip`);
    csvBytes.set(size, writeKilobyteCommentsZip(path, `export_${size}.csv`, size, SEED));
    zipFiles.set(`/${size}.zip`, path);
  }
  const files = createServer((request, response) => {
    const path = zipFiles.get(request.url ?? '');
    if (path === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': statSync(path).size });
    createReadStream(path).pipe(response);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

  const figures = new Map<string, ChildFigures[]>();
  const at = (size: number, mode: Mode) => figures.get(`${size}/${mode}`) ?? [];
  const problems: string[] = [];
  try {
    for (let round = 0; round < RUNS; round++) {
      for (const size of SIZES) {
        const modes = round % 2 === 0 ? MODES : [...MODES].reverse();
        for (const mode of modes) {
          const measured = await runChild(`${filesUrl}/${size}.zip`, s3.endpoint, s3.bucketName, mode);
          figures.set(`${size}/${mode}`, [...at(size, mode), measured]);
        }
      }
    }
  } finally {
    files.close();
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  }

  const lines: string[] = [];
  const summary = new Map<string, { mbPerSecond: number; growth: number }>();
  for (const size of SIZES) {
    const csvMb = (csvBytes.get(size) ?? 0) / MB;
    for (const mode of MODES) {
      const runs = at(size, mode);
      const speeds = runs.map((run) => csvMb / run.seconds);
      const growths = runs.map((run) => run.peakRssGrowthMb);
      const first = runs[0];
      if (runs.some((run) => run.rows !== size)) {
        problems.push(`${size} ${mode}: rows counted ${runs.map((run) => run.rows).join(', ')}`);
      }
      if (mode === 'on' && runs.some((run) => run.parquetRows !== size)) {
        problems.push(`${size}: Parquet rows ${runs.map((run) => run.parquetRows).join(', ')}`);
      }
      summary.set(`${size}/${mode}`, { mbPerSecond: median(speeds), growth: median(growths) });
      lines.push(
        `| ${size.toLocaleString('en-US')} | ${mode} | ${csvMb.toFixed(0)} MB | ${((first?.zipBytes ?? 0) / MB).toFixed(1)} MB | ${((first?.storedBytes ?? 0) / MB).toFixed(1)} MB | ${mode === 'on' ? `${((first?.parquetBytes ?? 0) / MB).toFixed(1)} MB` : '—'} | ${median(runs.map((run) => run.seconds)).toFixed(2)} s | ${median(speeds).toFixed(1)} MB/s (${range(speeds, 1)}) | ${median(growths).toFixed(0)} MB (${range(growths, 0)}) |`,
      );
    }
  }
  console.log(
    `Archive of one export file of ~1 KB records (download over loopback → CRC check, row count, gzip, SHA-256 → S3 stand-in; "on": the rows also parsed and written as Parquet → S3 stand-in); medians of ${RUNS} interleaved rounds (min–max)\n`,
  );
  console.log(
    '| records | Parquet | CSV | zip | stored .csv.gz | stored .parquet | time | MB/s (CSV) | peak RSS growth |',
  );
  console.log('| ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const line of lines) console.log(line);

  console.log('');
  for (const size of SIZES) {
    const on = summary.get(`${size}/on`);
    const off = summary.get(`${size}/off`);
    const ratio = (on?.mbPerSecond ?? 0) / (off?.mbPerSecond ?? Number.NaN);
    const met = ratio >= MIN_PARQUET_THROUGHPUT_RATIO;
    if (!met) problems.push(`throughput with Parquet ${ratio.toFixed(3)} × without at ${size} records`);
    console.log(
      `goal: throughput with Parquet ≥ ${MIN_PARQUET_THROUGHPUT_RATIO} × without, ${size.toLocaleString('en-US')} records: ${ratio.toFixed(3)} × — ${met ? 'met' : 'MISSED'}`,
    );
  }
  const atGoal = summary.get(`${GOAL_SIZE}/on`)?.growth ?? Number.NaN;
  const goalMet = atGoal <= MAX_RSS_GROWTH_MB;
  if (!goalMet) problems.push(`peak RSS growth ${atGoal.toFixed(0)} MB at 100k records with Parquet`);
  console.log(
    `goal: peak RSS growth ≤ ${MAX_RSS_GROWTH_MB} MB at ${GOAL_SIZE.toLocaleString('en-US')} records with Parquet: ${atGoal.toFixed(0)} MB — ${goalMet ? 'met' : 'MISSED'}`,
  );
  const largest = SIZES.at(-1) as number;
  const largestGrowth = Math.max(
    ...MODES.map((mode) => summary.get(`${largest}/${mode}`)?.growth ?? Number.NaN),
  );
  // Flat: four times the records may not need more than the same bound.
  const flat = largestGrowth <= MAX_RSS_GROWTH_MB;
  if (!flat) problems.push(`peak RSS growth ${largestGrowth.toFixed(0)} MB at ${largest} records: not flat`);
  console.log(
    `goal: still within ${MAX_RSS_GROWTH_MB} MB at ${largest.toLocaleString('en-US')} records (flat): ${largestGrowth.toFixed(0)} MB — ${flat ? 'met' : 'MISSED'}`,
  );
  for (const problem of problems) console.log(`  ${problem}`);
  if (problems.length > 0) process.exitCode = 1;
}

if (process.argv[2] === '--child') {
  const [zipUrl, s3Endpoint, bucket, mode] = process.argv.slice(3) as [string, string, string, Mode];
  measureOne(zipUrl, s3Endpoint, bucket, mode).then(
    (figures) => console.log(JSON.stringify(figures)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  await main();
}
