import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadToFile } from '../../../../lib/archive/downloadToFile';
import { ArchiveRejectedError, ArchiveRetryableError } from '../../../../lib/archive/errors';
import { captureError } from '../../../support/captureError';

const LINK = 'https://exports.openweb.test/files/1.zip?signature=secret-signature';
const TIMEOUT_MS = 5_000;

/** A body that yields `chunks` and then, if given, fails with `error`. */
function streamedBody(chunks: string[], error?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (error !== undefined) controller.error(error);
      else controller.close();
    },
  });
}

describe('downloadToFile', () => {
  let folder: string;
  let path: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'download-to-file-'));
    path = join(folder, 'link-1.zip');
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('streams the body to the file, refusing redirects, and returns the bytes written', async () => {
    // Prepare
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response(streamedBody(['PK', '\u0003\u0004', 'rest of the archive'])),
    );

    // Act
    const bytes = await downloadToFile(LINK, 1, path, { fetch, timeoutMs: TIMEOUT_MS });

    // Assess
    const written = await readFile(path);
    expect(written.toString('latin1')).toBe('PK\u0003\u0004rest of the archive');
    expect(bytes).toBe(written.length);
    expect(fetch).toHaveBeenCalledWith(LINK, expect.objectContaining({ redirect: 'error' }));
  });

  it.each([401, 403, 404, 410])('rejects a link answered %i as over, without retrying', async (status) => {
    // Act
    const error = await captureError(
      downloadToFile(LINK, 2, path, {
        fetch: async () => new Response('gone', { status }),
        timeoutMs: TIMEOUT_MS,
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(ArchiveRejectedError);
    expect(error.message).toBe(
      `link 2: the download was answered ${status} (the link has expired or was withdrawn)`,
    );
  });

  it('rejects another 4xx, and hands a 429 or a 5xx to the retry', async () => {
    // Act
    const [badRequest, throttled, unavailable] = await Promise.all(
      [400, 429, 503].map((status) =>
        captureError(
          downloadToFile(LINK, 1, path, {
            fetch: async () => new Response(null, { status }),
            timeoutMs: TIMEOUT_MS,
          }),
        ),
      ),
    );

    // Assess
    expect(badRequest).toBeInstanceOf(ArchiveRejectedError);
    expect(throttled).toBeInstanceOf(ArchiveRetryableError);
    expect(unavailable).toBeInstanceOf(ArchiveRetryableError);
  });

  it('hands a failed request to the retry, naming the failure but never the link', async () => {
    // Prepare: as undici fails, the system error as the cause
    const refused = new TypeError(`fetch failed: ${LINK}`, {
      cause: new Error('connect ECONNREFUSED 203.0.113.7:443'),
    });

    // Act
    const error = await captureError(
      downloadToFile(LINK, 3, path, {
        fetch: async () => {
          throw refused;
        },
        timeoutMs: TIMEOUT_MS,
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(ArchiveRetryableError);
    expect(error.message).toBe(
      'link 3: the download failed (TypeError: connect ECONNREFUSED 203.0.113.7:443)',
    );
    expect(error.cause).toBe(refused);
  });

  it('hands a body that breaks off to the retry', async () => {
    // Act
    const error = await captureError(
      downloadToFile(LINK, 1, path, {
        fetch: async () => new Response(streamedBody(['PK', 'part'], new Error('socket hang up'))),
        timeoutMs: TIMEOUT_MS,
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(ArchiveRetryableError);
    expect(error.message).toMatch(/^link 1: the download broke off/);
  });

  it('gives the request a signal that aborts it once the timeout has passed', async () => {
    // Prepare: an upstream that only answers by failing when aborted
    const fetch = vi.fn<typeof globalThis.fetch>(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );

    // Act
    const error = await captureError(downloadToFile(LINK, 1, path, { fetch, timeoutMs: 20 }));

    // Assess
    expect(error).toBeInstanceOf(ArchiveRetryableError);
    expect(error.message).toMatch(/^link 1: the download failed \(TimeoutError/);
  });
});
