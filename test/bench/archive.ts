// Archive throughput and memory: `npm run bench:archive`. For 1k, 10k and 100k-record export files
// (the simulator's comments, one zipped CSV each), a fresh child process downloads the zip over
// loopback HTTP and stores its CSV gzip-compressed through the S3 adapter into the in-process S3
// stand-in, exactly as the archive task does. The child holds nothing else, so its peak RSS growth
// over its own baseline is the archive's. Both servers run in this (parent) process.
// Prints medians over ARCHIVE_RUNS runs (default 3); exits 1 when a goal is missed.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { unzipSync } from 'fflate';
import { archiveZipFile } from '../../lib/archive/archiveZipFile';
import { downloadToFile } from '../../lib/archive/downloadToFile';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { startLocalS3 } from '../../local/localS3';
import { buildCommentsArchive } from '../../local/openweb-simulator/commentsArchive';
import { generateComments } from '../../local/openweb-simulator/simulatedComments';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { median } from './support/median';

/** The sizes the goal names, and one past them to show the growth stays flat. */
const SIZES = [1_000, 10_000, 100_000, 400_000] as const;
const GOAL_SIZE = 100_000;
const RUNS = Number(process.env.ARCHIVE_RUNS ?? 3);
/** The goal: a 100k-record file archives within this much RSS growth, and growth stays flat with size. */
const MAX_RSS_GROWTH_MB = 64;
const RSS_SAMPLE_INTERVAL_MS = 5;
const MB = 1024 * 1024;
const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface ChildFigures {
  zipBytes: number;
  storedBytes: number;
  rows: number;
  seconds: number;
  peakRssGrowthMb: number;
  baselineRssMb: number;
}

/** Run in the child: one archive of one zip, measured. */
async function measureOne(zipUrl: string, s3Endpoint: string, bucket: string): Promise<ChildFigures> {
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
  await storage.put('exports/bench/warmup', (await import('node:stream')).Readable.from([Buffer.from('x')]), {
    contentType: 'text/plain',
  });
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, RSS_SAMPLE_INTERVAL_MS);
  const startedAt = performance.now();
  const zipPath = join(scratch, 'export.zip');
  const zipBytes = await downloadToFile(zipUrl, 1, zipPath, { timeoutMs: 600_000 });
  const files = await archiveZipFile({
    zipPath,
    storage,
    sourceLink: 1,
    nextTarget: () => ({ fileNumber: 1, key: 'exports/spot=sp_bench/date=2026-01-01/ex_bench/1.csv.gz' }),
  });
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  rmSync(scratch, { recursive: true, force: true });
  client.destroy();
  return {
    zipBytes,
    storedBytes: files[0]?.bytes ?? 0,
    rows: files[0]?.rows ?? 0,
    seconds,
    peakRssGrowthMb: (peak - baseline) / MB,
    baselineRssMb: baseline / MB,
  };
}

function runChild(zipUrl: string, s3Endpoint: string, bucket: string): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/bench/archive.ts', '--child', zipUrl, s3Endpoint, bucket],
      {
        cwd: LOCAL_PROJECT_ROOT,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: '1' },
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

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-archive-'));
  const s3 = await startLocalS3();
  const zipFiles = new Map<string, string>();
  const csvBytes = new Map<number, number>();
  for (const size of SIZES) {
    const comments = generateComments({
      seed: size,
      count: size,
      spotId: 'sp_bench',
      fromMs: Date.UTC(2026, 0, 1),
      untilMs: Date.UTC(2026, 0, 2),
    });
    const path = join(directory, `${size}.zip`);
    const zip = buildCommentsArchive(`export_${size}.csv`, comments, ',', Date.UTC(2026, 0, 2));
    csvBytes.set(size, Object.values(unzipSync(zip))[0]?.length ?? 0);
    writeFileSync(path, zip);
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

  const rows: string[] = [];
  const growths: number[] = [];
  const problems: string[] = [];
  try {
    for (const size of SIZES) {
      const figures: ChildFigures[] = [];
      for (let run = 0; run < RUNS; run++)
        figures.push(await runChild(`${filesUrl}/${size}.zip`, s3.endpoint, s3.bucketName));
      const zipMb = (figures[0]?.zipBytes ?? 0) / MB;
      const csvMb = (csvBytes.get(size) ?? 0) / MB;
      const seconds = median(figures.map((f) => f.seconds));
      const growth = median(figures.map((f) => f.peakRssGrowthMb));
      growths.push(growth);
      if (figures.some((f) => f.rows !== size))
        problems.push(`${size}: rows counted ${figures.map((f) => f.rows).join(', ')}`);
      rows.push(
        `| ${size.toLocaleString('en-US')} | ${csvMb.toFixed(1)} MB | ${zipMb.toFixed(1)} MB | ${((figures[0]?.storedBytes ?? 0) / MB).toFixed(1)} MB | ${seconds.toFixed(2)} s | ${(csvMb / seconds).toFixed(1)} MB/s | ${growth.toFixed(1)} MB (${Math.min(...figures.map((f) => f.peakRssGrowthMb)).toFixed(1)}–${Math.max(...figures.map((f) => f.peakRssGrowthMb)).toFixed(1)}) |`,
      );
    }
  } finally {
    files.close();
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  }
  const atGoal = growths[SIZES.indexOf(GOAL_SIZE)] ?? Number.NaN;
  const largest = growths.at(-1) ?? Number.NaN;
  if (!(atGoal <= MAX_RSS_GROWTH_MB))
    problems.push(`peak RSS growth ${atGoal.toFixed(1)} MB at 100k records, goal ≤ ${MAX_RSS_GROWTH_MB} MB`);
  // Flat: four times the records may not need more than the same bound.
  if (!(largest <= MAX_RSS_GROWTH_MB))
    problems.push(`peak RSS growth ${largest.toFixed(1)} MB at ${SIZES.at(-1)} records: not flat`);
  console.log(
    `Archive of one export file (download over loopback → CRC check, row count, gzip, SHA-256 → S3 stand-in); medians of ${RUNS} runs, (min–max)\n`,
  );
  console.log('| records | CSV | zip | stored .csv.gz | time | MB/s (CSV) | peak RSS growth |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log(
    `\ngoal: peak RSS growth ≤ ${MAX_RSS_GROWTH_MB} MB at 100k records, and still within it at ${SIZES.at(-1)?.toLocaleString('en-US')} (flat): ${problems.length === 0 ? 'met' : 'MISSED'}`,
  );
  for (const problem of problems) console.log(`  ${problem}`);
  if (problems.length > 0) process.exitCode = 1;
}

if (process.argv[2] === '--child') {
  const [zipUrl, s3Endpoint, bucket] = process.argv.slice(3) as [string, string, string];
  measureOne(zipUrl, s3Endpoint, bucket).then(
    (figures) => console.log(JSON.stringify(figures)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  await main();
}
