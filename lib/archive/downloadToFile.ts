import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ArchiveRejectedError, ArchiveRetryableError } from './errors';

/** Statuses that say the link itself is over: expired, withdrawn, or never valid. */
const REFUSED_LINK_STATUSES = new Set([401, 403, 404, 410]);

export interface DownloadToFileOptions {
  fetch?: typeof fetch;
  /** Aborts a download that stalls or runs too long. */
  timeoutMs: number;
}

/**
 * Streams a download link's body to `path` (never the whole file in memory).
 * @throws ArchiveRejectedError when the link is refused (401/403/404/410) or answers another 4xx,
 *   ArchiveRetryableError for a 429, a 5xx, a reset or a timeout
 */
export async function downloadToFile(
  link: string,
  linkNumber: number,
  path: string,
  options: DownloadToFileOptions,
): Promise<number> {
  const doFetch = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await doFetch(link, { signal, redirect: 'error' });
  } catch (error) {
    throw new ArchiveRetryableError(`link ${linkNumber}: the download failed (${describe(error)})`, {
      cause: error,
    });
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel().catch(() => {});
    const what = `link ${linkNumber}: the download was answered ${response.status}`;
    if (REFUSED_LINK_STATUSES.has(response.status))
      throw new ArchiveRejectedError(`${what} (the link has expired or was withdrawn)`);
    if (response.status === 429 || response.status >= 500) throw new ArchiveRetryableError(what);
    throw new ArchiveRejectedError(what);
  }
  let bytes = 0;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  try {
    await pipeline(body, createWriteStream(path));
  } catch (error) {
    throw new ArchiveRetryableError(`link ${linkNumber}: the download broke off (${describe(error)})`, {
      cause: error,
    });
  }
  return bytes;
}

/** An error's name and message; a link (a bearer URL) is never part of it. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}${cause}`;
}
