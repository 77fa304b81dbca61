import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import type { CliIo } from './CliIo';
import { CLI_NAME } from './cliOptions';
import type { ExportsApiClient } from './ExportsApiClient';
import type { ArchivedFiles } from './ExportView';
import { ArchiveUnavailableError, CliInterruptedError, DownloadFailedError } from './errors';

export interface DownloadArchiveOptions {
  client: ExportsApiClient;
  io: CliIo;
  spotId: string;
  exportId: string;
  /** Files go to `<outDir>/<exportId>/`. */
  outDir: string;
  /** Store the CSVs decompressed (the SHA-256 is checked on the compressed bytes as they arrive). */
  gunzip: boolean;
  /** Progress on stdout: redrawn on a terminal, a line per file otherwise, nothing with --json. */
  progress: 'tty' | 'plain' | 'none';
}

export interface DownloadedFile {
  name: string;
  path: string;
  bytes: number;
  rows: number;
  sha256: string;
}

const REDRAW_LINE = '\r\x1b[2K';
const KIB = 1024;
const MIB = KIB * KIB;

/**
 * Downloads every archived file of an export, verifying each SHA-256 while it streams. A file is
 * written to `<name>.part` and renamed only once verified, so nothing partial or corrupt is left
 * under its final name. @throws ArchiveUnavailableError, DownloadFailedError
 */
export async function downloadArchive(options: DownloadArchiveOptions): Promise<DownloadedFile[]> {
  const { client, io, spotId, exportId } = options;
  const listing = await client.getFiles(spotId, exportId);
  requireArchived(listing, spotId, exportId);
  // Every page first: the progress shows the whole archive.
  let { nextToken } = listing;
  while (nextToken !== undefined) {
    const page = await client.getFiles(spotId, exportId, nextToken);
    listing.items.push(...page.items);
    nextToken = page.nextToken;
  }
  const directory = join(options.outDir, exportId);
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw new DownloadFailedError(`cannot create ${directory}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const totalBytes = listing.items.reduce((sum, item) => sum + item.bytes, 0);
  const done: DownloadedFile[] = [];
  let bytesBefore = 0;
  for (const [index, item] of listing.items.entries()) {
    const path = join(directory, options.gunzip ? item.name : `${item.name}.gz`);
    const draw = (bytes: number) => {
      if (options.progress !== 'tty') return;
      const line = `downloading ${index + 1}/${listing.items.length} ${item.name}  ${formatBytes(bytesBefore + bytes)} / ${formatBytes(totalBytes)}`;
      io.stdout.write(
        `${REDRAW_LINE}${io.columns && line.length >= io.columns ? line.slice(0, io.columns - 1) : line}`,
      );
    };
    const sha256 = await downloadOne(options, item, path, draw);
    bytesBefore += item.bytes;
    done.push({ name: item.name, path, bytes: item.bytes, rows: item.rows, sha256 });
    if (options.progress === 'tty') io.stdout.write(REDRAW_LINE);
    if (options.progress !== 'none') {
      io.stdout.write(`saved ${path} (${formatBytes(item.bytes)}, ${item.rows} rows, sha256 verified)\n`);
    }
  }
  return done;
}

/** The longest `start --wait --download` waits for the archive after the export COMPLETED. */
export const ARCHIVE_WAIT_LIMIT_SECONDS = 30 * 60;
const MS_PER_SECOND = 1000;

/**
 * Waits until the archive is no longer PENDING (the workflow archives right after the export
 * completed), checking every `intervalSeconds`. @throws ArchiveUnavailableError past the limit
 */
export async function waitForArchive(options: {
  client: ExportsApiClient;
  io: CliIo;
  spotId: string;
  exportId: string;
  intervalSeconds: number;
}): Promise<void> {
  const { client, io, spotId, exportId } = options;
  const giveUpAt = io.now() + ARCHIVE_WAIT_LIMIT_SECONDS * MS_PER_SECOND;
  for (;;) {
    const { archive } = await client.getFiles(spotId, exportId);
    if (archive.status !== 'PENDING') return;
    if (io.now() >= giveUpAt) {
      throw new ArchiveUnavailableError(
        `the archive of ${exportId} was still PENDING after ${ARCHIVE_WAIT_LIMIT_SECONDS / 60} minutes; download it later with '${CLI_NAME} download ${exportId} --spot ${spotId}'`,
      );
    }
    try {
      await io.sleep(options.intervalSeconds * MS_PER_SECOND, io.signal);
    } catch (error) {
      if (io.signal?.aborted) throw new CliInterruptedError();
      throw error;
    }
  }
}

function requireArchived(listing: ArchivedFiles, spotId: string, exportId: string): void {
  const { status, reason } = listing.archive;
  if (status === 'ARCHIVED') return;
  const why = reason === undefined ? '' : `: ${reason}`;
  if (status === 'PENDING') {
    throw new ArchiveUnavailableError(
      `the archive of ${exportId} is not ready yet (PENDING); wait for the export with '${CLI_NAME} watch ${exportId} --spot ${spotId}', then download again`,
    );
  }
  throw new ArchiveUnavailableError(`the archive of ${exportId} is ${status}${why}`);
}

async function downloadOne(
  options: DownloadArchiveOptions,
  item: ArchivedFiles['items'][number],
  path: string,
  draw: (bytes: number) => void,
): Promise<string> {
  const { fetch, signal } = options.client.transport;
  let response: Response;
  try {
    response = await fetch(item.url, signal === undefined ? {} : { signal });
  } catch (error) {
    if (signal?.aborted) throw new CliInterruptedError();
    throw new DownloadFailedError(`${item.name}: the download failed (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel().catch(() => {});
    const expired =
      response.status === 403 ? '; the download URL may have expired, run the command again' : '';
    throw new DownloadFailedError(
      `${item.name}: the download was answered HTTP ${response.status}${expired}`,
    );
  }
  const part = `${path}.part`;
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      hash.update(chunk);
      bytes += chunk.length;
      draw(bytes);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      meter,
      options.gunzip ? createGunzip() : new PassThrough(),
      createWriteStream(part),
    );
  } catch (error) {
    await rm(part, { force: true });
    if (signal?.aborted) throw new CliInterruptedError();
    throw new DownloadFailedError(`${item.name}: ${(error as Error).message}`, { cause: error });
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== item.sha256 || bytes !== item.bytes) {
    await rm(part, { force: true });
    throw new DownloadFailedError(
      `${item.name}: the download does not match the archive (sha256 ${sha256}, ${bytes} bytes; expected ${item.sha256}, ${item.bytes} bytes); nothing was kept`,
    );
  }
  await rename(part, path);
  return sha256;
}

function formatBytes(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  if (bytes >= KIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${bytes} B`;
}
