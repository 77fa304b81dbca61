// One user erased from a spot's archive: `npm run bench:erase`. Builds an archive of ERASE_ROWS
// rows (default 1,000,000) in ERASE_FILES files (default 100) of 10 exports, written as the archive
// writes them (gzip CSV and Parquet, through the S3 adapter into the in-process, versioned S3
// stand-in), with authors drawn from ERASE_USERS users (default 5,000): the user erased has about
// ERASE_ROWS / ERASE_USERS rows, spread over most files (ERASE_USER_FILES=5: only in the first 5
// files, the case of a user active for a short time). Then erases that user with the archive's
// eraser, export by export, and runs the check at the end (every file read again, versions
// listed). Prints the wall time of the erasure and of the check, files read vs rewritten, rows
// removed, the peak RSS growth over the process's baseline, the S3 requests by kind, and what the
// same erasure costs in AWS (S3 requests at list price, Lambda GB-seconds at the archive function's
// memory), from lib/settings/settingsTable.ts's price table.
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { ArchiveUserEraser } from '../../lib/archive/ArchiveUserEraser';
import type { ArchiveManifest } from '../../lib/archive/archiveManifest';
import { storeCsv } from '../../lib/archive/archiveZipFile';
import type { ArchivedFile } from '../../lib/exports/record/ExportArchive';
import { ArchiveStatus } from '../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../lib/exports/record/ExportRecord';
import { S3ArchiveObjects } from '../../lib/s3/S3ArchiveObjects';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { AWS_PRICE_TABLE } from '../../lib/settings/settingsTable';
import { startLocalS3 } from '../../local/localS3';
import { formatCsv } from '../../local/openweb-simulator/csv';
import { COMMENT_FIELDS } from '../../local/openweb-simulator/simulatedComments';

const ROWS = Number(process.env.ERASE_ROWS ?? 1_000_000);
const FILES = Number(process.env.ERASE_FILES ?? 100);
const USERS = Number(process.env.ERASE_USERS ?? 5_000);
/** Set: the user erased writes only in the first this many files (every 50th row of each); unset: spread over all. */
const USER_FILES =
  process.env.ERASE_USER_FILES === undefined ? undefined : Number(process.env.ERASE_USER_FILES);
const USER_FILE_ROW_STEP = 50;
const EXPORTS = 10;
const SPOT = 'sp_bench';
const ERASED_USER = 'u_000007';
const RSS_SAMPLE_INTERVAL_MS = 20;
const MB = 1024 * 1024;
/** S3's request prices (us-east-1): GET and the other reads per 1,000; DELETE is free. */
const S3_GET_PER_REQUEST_USD = 0.0004 / 1_000;
/** LIST is priced as a PUT. */
const S3_WRITE_KINDS = [
  'PutObjectCommand',
  'CreateMultipartUploadCommand',
  'UploadPartCommand',
  'CompleteMultipartUploadCommand',
  'ListObjectVersionsCommand',
];

function userOf(row: number, fileIndex: number): string {
  if (USER_FILES !== undefined && fileIndex < USER_FILES && row % USER_FILE_ROW_STEP === 0)
    return ERASED_USER;
  // A fixed spread: row r's author, the same every run.
  const user = (row * 2_654_435_761) % USERS;
  const id = `u_${user.toString(16).padStart(6, '0')}`;
  // With ERASE_USER_FILES, the user erased writes nowhere else.
  return USER_FILES !== undefined && id === ERASED_USER ? 'u_other' : id;
}

function csvOf(fileIndex: number, rows: number): string {
  const records: string[][] = [[...COMMENT_FIELDS]];
  for (let index = 0; index < rows; index++) {
    const row = fileIndex * rows + index;
    records.push([
      `msg_${row.toString(16).padStart(12, '0')}`,
      userOf(row, fileIndex),
      `Reader ${row % 97}`,
      SPOT,
      `post-${row % 12}`,
      'approved',
      row % 5 === 0
        ? 'A comment, with "quotes"\nand a line break'
        : 'Plain comment text of a usual length for a reader',
      String(row % 50),
      new Date(Date.UTC(2026, 9, 1) + row * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ]);
  }
  return formatCsv(records, ',');
}

async function main(): Promise<void> {
  const s3 = await startLocalS3();
  const counts = new Map<string, number>();
  s3.client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const writer = new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName });
  const objects = new S3ArchiveObjects({ client: s3.client, bucketName: s3.bucketName });
  const rowsPerFile = Math.ceil(ROWS / FILES);
  const filesPerExport = Math.ceil(FILES / EXPORTS);
  const built = performance.now();
  const records: ExportRecord[] = [];
  for (let exportIndex = 0; exportIndex < EXPORTS; exportIndex++) {
    const exportId = `exp_${String(exportIndex).padStart(3, '0')}`;
    const prefix = `exports/spot=${SPOT}/date=2026-10-01/${exportId}/`;
    const files: ArchivedFile[] = [];
    for (let n = 1; n <= filesPerExport; n++) {
      const fileIndex = exportIndex * filesPerExport + n - 1;
      const key = `${prefix}${n}.csv.gz`;
      const { rowsLeftOut: _left, ...stored } = await storeCsv({
        source: Readable.from([Buffer.from(csvOf(fileIndex, rowsPerFile))]),
        key,
        storage: writer,
        parquet: {
          delimiter: ',',
          key: `tables/comments/spot=${SPOT}/date=2026-10-01/${exportId}-${n}.parquet`,
          lineage: { exportId, sourceFile: `${n}.csv` },
        },
        label: key,
      });
      files.push({ name: `${n}.csv`, key, sourceLink: 1, ...stored });
    }
    const manifestKey = `${prefix}_manifest.json`;
    const manifest: ArchiveManifest = { files };
    await writer.put(manifestKey, Readable.from([Buffer.from(JSON.stringify(manifest))]), {
      contentType: 'application/json',
    });
    records.push({
      spotId: SPOT,
      exportId,
      request: { kind: 'dateRange', from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' },
      archive: { status: ArchiveStatus.ARCHIVED, files: [], fileCount: files.length, manifestKey },
    } as unknown as ExportRecord);
  }
  const buildSeconds = (performance.now() - built) / 1000;
  counts.clear();

  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, RSS_SAMPLE_INTERVAL_MS);
  const eraser = new ArchiveUserEraser({
    objects,
    writer,
    revisions: { revise: async () => ({}) as ExportRecord },
  });
  const started = performance.now();
  let filesRead = 0;
  let rewritten = 0;
  let rowsRemoved = 0;
  const erasedKeys = new Map<string, string[]>();
  for (const record of records) {
    const result = await eraser.eraseFromExport(record, ERASED_USER, [], async () => {});
    filesRead += result.filesRead;
    rewritten += result.rewritten.length;
    rowsRemoved += result.rewritten.reduce((sum, file) => sum + file.rowsRemoved, 0);
    erasedKeys.set(
      record.exportId,
      result.rewritten.flatMap((file) => [
        file.previousKey,
        file.previousParquetKey ?? '',
        file.key,
        file.parquetKey ?? '',
      ]),
    );
  }
  const eraseSeconds = (performance.now() - started) / 1000;
  const eraseCounts = new Map(counts);
  counts.clear();
  const checked = performance.now();
  let rowsFound = 0;
  let versionsLeft = 0;
  for (const record of records) {
    const check = await eraser.checkExport(record, ERASED_USER, erasedKeys.get(record.exportId) ?? []);
    rowsFound += check.rowsFound;
    versionsLeft += check.versionsLeft;
  }
  const checkSeconds = (performance.now() - checked) / 1000;
  clearInterval(sampler);
  const checkCounts = new Map(counts);
  await s3.close();

  const requests = new Map<string, number>();
  for (const source of [eraseCounts, checkCounts])
    for (const [name, count] of source) requests.set(name, (requests.get(name) ?? 0) + count);
  const s3Usd = [...requests].reduce(
    (sum, [name, count]) =>
      sum +
      count *
        (name === 'DeleteObjectCommand'
          ? 0
          : S3_WRITE_KINDS.includes(name)
            ? AWS_PRICE_TABLE.s3PerPutUsd
            : S3_GET_PER_REQUEST_USD),
    0,
  );
  const lambdaUsd =
    (eraseSeconds + checkSeconds) * AWS_PRICE_TABLE.archiveGb * AWS_PRICE_TABLE.lambdaPerGbSecondUsd;
  const lines = [
    `bench:erase ${new Date().toISOString()} (node ${process.version})`,
    `archive: ${ROWS.toLocaleString('en')} rows in ${FILES} files of ${EXPORTS} exports (gzip CSV + Parquet), ${USERS} users; built in ${buildSeconds.toFixed(1)} s`,
    `erasure of ${ERASED_USER}: ${eraseSeconds.toFixed(1)} s; files read ${filesRead}, rewritten ${rewritten} (each with its Parquet file); rows removed ${rowsRemoved}`,
    `check at the end: ${checkSeconds.toFixed(1)} s; rows found ${rowsFound}, old versions left ${versionsLeft}`,
    `peak RSS growth: ${((peak - baseline) / MB).toFixed(0)} MB over a ${(baseline / MB).toFixed(0)} MB baseline`,
    `S3 requests (erasure + check): ${[...requests].map(([name, count]) => `${name.replace('Command', '')} ${count}`).join(', ')}`,
    `AWS cost of the same erasure: S3 requests $${s3Usd.toFixed(4)}, Lambda ${(eraseSeconds + checkSeconds).toFixed(0)} s at ${AWS_PRICE_TABLE.archiveGb} GB $${lambdaUsd.toFixed(4)}, total $${(s3Usd + lambdaUsd).toFixed(4)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (rowsFound !== 0 || versionsLeft !== 0) process.exitCode = 1;
}

await main();
