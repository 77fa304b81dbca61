import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import type { ArchivedFilesView } from '../lib/archive/archivedFilesSchema';
import type { FollowUpCommand } from './CliCommand';
import type { CliIo } from './CliIo';
import type { ExportsApiClient } from './ExportsApiClient';
import { ArchiveUnavailableError, CliInterruptedError, DownloadFailedError } from './errors';

export interface DownloadArchiveOptions {
  client: ExportsApiClient;
  io: CliIo;
  /** How a message names the command to run next. */
  followUp: FollowUpCommand;
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
  /** The size of the file as saved at `path` (decompressed with --gunzip). */
  bytes: number;
  /** The size of the archived `.csv.gz`, whose SHA-256 `sha256` is. */
  archivedBytes: number;
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
  const { io } = options;
  const pages = await listEveryPage(options);
  const directory = join(options.outDir, options.exportId);
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw new DownloadFailedError(`cannot create ${directory}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const fileCount = pages.reduce((sum, page) => sum + page.items.length, 0);
  const totalBytes = pages.reduce(
    (sum, page) => sum + page.items.reduce((pageSum, item) => pageSum + item.bytes, 0),
    0,
  );
  const done: DownloadedFile[] = [];
  let bytesBefore = 0;
  for (const page of pages) {
    for (const [indexInPage, listed] of page.items.entries()) {
      const index = done.length;
      const path = join(directory, options.gunzip ? listed.name : `${listed.name}.gz`);
      const draw = (bytes: number) => {
        if (options.progress !== 'tty') return;
        const line = `downloading ${index + 1}/${fileCount} ${listed.name}  ${formatBytes(bytesBefore + bytes)} / ${formatBytes(totalBytes)}`;
        io.stdout.write(
          `${REDRAW_LINE}${io.columns && line.length >= io.columns ? line.slice(0, io.columns - 1) : line}`,
        );
      };
      const sha256 = await downloadListed(options, page, indexInPage, path, draw);
      bytesBefore += listed.bytes;
      // Decompressed, the file is larger than the archived object its SHA-256 was checked on.
      const bytes = options.gunzip ? (await stat(path)).size : listed.bytes;
      done.push({ name: listed.name, path, bytes, archivedBytes: listed.bytes, rows: listed.rows, sha256 });
      if (options.progress === 'tty') io.stdout.write(REDRAW_LINE);
      if (options.progress !== 'none') {
        const verified = options.gunzip
          ? `; decompressed from ${formatBytes(listed.bytes)}, sha256 verified`
          : ', sha256 verified';
        io.stdout.write(`saved ${path} (${formatBytes(bytes)}, ${listed.rows} rows${verified})\n`);
      }
    }
  }
  return done;
}

/**
 * Downloads the page's file at `indexInPage`. URLs expire (15 minutes by default) while earlier
 * files download: a page whose URLs are about to is listed again first, and once more if the
 * storage refuses a URL anyway.
 */
async function downloadListed(
  options: DownloadArchiveOptions,
  page: FilesPage,
  indexInPage: number,
  path: string,
  draw: (bytes: number) => void,
): Promise<string> {
  const item = () => page.items[indexInPage] as ArchivedFilesView['items'][number];
  if (options.io.now() >= Date.parse(item().urlExpiresAt) - URL_REFRESH_MARGIN_MS) {
    await refreshPage(options, page);
  }
  try {
    return await downloadOne(options, item(), path, draw);
  } catch (error) {
    if (!(error instanceof UrlRefusedError)) throw error;
    await refreshPage(options, page);
    return downloadOne(options, item(), path, draw);
  }
}

/** A download URL is refreshed this long before it expires. */
const URL_REFRESH_MARGIN_MS = 60_000;

interface FilesPage {
  /** The token that lists this page again; undefined for the first. */
  token: string | undefined;
  items: ArchivedFilesView['items'];
}

/** Every page of the listing first, so the progress shows the whole archive. */
async function listEveryPage(options: DownloadArchiveOptions): Promise<FilesPage[]> {
  const { client, spotId, exportId } = options;
  const first = await client.getFiles(spotId, exportId);
  requireArchived(first, options);
  const pages: FilesPage[] = [{ token: undefined, items: first.items }];
  let { nextToken } = first;
  while (nextToken !== undefined) {
    const page = await client.getFiles(spotId, exportId, nextToken);
    pages.push({ token: nextToken, items: page.items });
    nextToken = page.nextToken;
  }
  return pages;
}

/** Lists `page` again for fresh URLs; the same files must come back. */
async function refreshPage(options: DownloadArchiveOptions, page: FilesPage): Promise<void> {
  const { client, spotId, exportId } = options;
  const fresh = await client.getFiles(spotId, exportId, page.token);
  requireArchived(fresh, options);
  const sameFiles =
    fresh.items.length === page.items.length &&
    fresh.items.every(
      (item, index) => item.key === page.items[index]?.key && item.sha256 === page.items[index]?.sha256,
    );
  if (!sameFiles) {
    throw new DownloadFailedError(
      `the archive of ${exportId} changed while downloading (it was archived again); run the command again`,
    );
  }
  page.items = fresh.items;
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
  followUp: FollowUpCommand;
}): Promise<void> {
  const { client, io, spotId, exportId } = options;
  const giveUpAt = io.now() + ARCHIVE_WAIT_LIMIT_SECONDS * MS_PER_SECOND;
  for (;;) {
    const { archive } = await client.getFiles(spotId, exportId);
    if (archive.status !== 'PENDING') return;
    if (io.now() >= giveUpAt) {
      throw new ArchiveUnavailableError(
        `the archive of ${exportId} was still PENDING after ${ARCHIVE_WAIT_LIMIT_SECONDS / 60} minutes; download it later with '${options.followUp(`download ${exportId} --spot ${spotId}`)}'`,
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

function requireArchived(
  listing: ArchivedFilesView,
  { spotId, exportId, followUp }: Pick<DownloadArchiveOptions, 'spotId' | 'exportId' | 'followUp'>,
): void {
  const { status, reason } = listing.archive;
  if (status === 'ARCHIVED') return;
  const why = reason === undefined ? '' : `: ${reason}`;
  if (status === 'PENDING') {
    throw new ArchiveUnavailableError(
      `the archive of ${exportId} is not ready yet (PENDING); wait for the export with '${followUp(`watch ${exportId} --spot ${spotId}`)}', then download again`,
    );
  }
  throw new ArchiveUnavailableError(`the archive of ${exportId} is ${status}${why}`);
}

async function downloadOne(
  options: DownloadArchiveOptions,
  item: ArchivedFilesView['items'][number],
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
    if (response.status === 403) throw new UrlRefusedError(item.name);
    throw new DownloadFailedError(`${item.name}: the download was answered HTTP ${response.status}`);
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

/** The storage refused a download URL (403): expired, or signed by credentials since revoked. */
class UrlRefusedError extends DownloadFailedError {
  constructor(name: string) {
    super(`${name}: the download was answered HTTP 403 even with a fresh URL; run the command again`);
    this.name = 'UrlRefusedError';
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  if (bytes >= KIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${bytes} B`;
}
