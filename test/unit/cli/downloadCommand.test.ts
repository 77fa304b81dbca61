import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { EXPORT_ID, exportView, REQUESTED_AT, SPOT_ID } from './support/exportViews';
import { type FakeExportsApi, startFakeExportsApi } from './support/fakeExportsApi';
import { createTestIo } from './support/testIo';

const CSV = 'id,text\r\n1,"a\r\nb"\r\n2,c\r\n';
const STORED = gzipSync(Buffer.from(CSV));
const SHA256 = createHash('sha256').update(STORED).digest('hex');

/**
 * Serves the stored `.csv.gz` bytes at /blob (garbage at /bad, 403 at /expired), like a
 * presigned S3 URL, and records the paths asked for.
 */
async function startBlobServer(): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    if (request.url === '/expired') {
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/gzip' });
    response.end(request.url === '/bad' ? Buffer.from('not the archived bytes') : STORED);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paths };
}

describe('download command', () => {
  let api: FakeExportsApi | undefined;
  let blobs: { url: string; server: Server; paths: string[] };
  let outDir: string;

  beforeEach(async () => {
    blobs = await startBlobServer();
    outDir = mkdtempSync(join(tmpdir(), 'cli-download-'));
  });

  afterEach(async () => {
    await api?.close();
    api = undefined;
    await new Promise<void>((resolve) => blobs.server.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  });

  function filesReply(status: string, path = '/blob', extra: Record<string, unknown> = {}) {
    return {
      status: 200,
      body: {
        archive: { status, ...extra },
        items:
          status === 'ARCHIVED'
            ? [
                {
                  name: 'exp_1.csv',
                  key: 'exports/k/1.csv.gz',
                  bytes: STORED.length,
                  sha256: SHA256,
                  rows: 2,
                  url: `${blobs.url}${path}`,
                  urlExpiresAt: '2030-01-01T00:00:00Z',
                },
              ]
            : [],
      },
    };
  }

  it('downloads each file into <out>/<exportId>/, verified against its SHA-256', async () => {
    // Prepare
    api = await startFakeExportsApi(() => filesReply('ARCHIVED'));
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(api.requests[0]?.path).toBe(`/exports/${EXPORT_ID}/files`);
    expect(api.requests[0]?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(readFileSync(join(outDir, EXPORT_ID, 'exp_1.csv.gz')).equals(STORED)).toBe(true);
    expect(io.stdoutText()).toContain('sha256 verified');
  });

  it('follows nextToken through every page of /files and downloads the files of each', async () => {
    // Prepare: two pages of one file each.
    api = await startFakeExportsApi((request) => {
      const first = filesReply('ARCHIVED');
      if (request.query.get('nextToken') === null)
        return { ...first, body: { ...first.body, nextToken: '1' } };
      const [item] = first.body.items;
      return {
        ...first,
        body: { ...first.body, items: [{ ...item, name: 'exp_2.csv', key: 'exports/k/2.csv.gz' }] },
      };
    });

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      createTestIo(),
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(api.requests.map((request) => request.query.get('nextToken'))).toEqual([null, '1']);
    expect(readdirSync(join(outDir, EXPORT_ID)).sort()).toEqual(['exp_1.csv.gz', 'exp_2.csv.gz']);
  });

  /**
   * A listing of two files whose first answer carries `first` URLs (and expiry), every later one
   * fresh URLs.
   */
  function relistedFiles(first: { path: string; urlExpiresAt: string }) {
    let listings = 0;
    return () => {
      const reply = filesReply('ARCHIVED', listings === 0 ? first.path : '/blob');
      const [item] = reply.body.items;
      const urlExpiresAt = listings === 0 ? first.urlExpiresAt : '2030-01-01T00:00:00Z';
      listings++;
      const items = [
        { ...item, urlExpiresAt },
        { ...item, name: 'exp_2.csv', key: 'exports/k/2.csv.gz', urlExpiresAt },
      ];
      return { ...reply, body: { ...reply.body, items } };
    };
  }

  it('lists a page again before downloading from it once its URLs are about to expire', async () => {
    // Prepare: the first listing's URL expires now (the CLI's clock), and the storage would refuse it.
    api = await startFakeExportsApi(relistedFiles({ path: '/expired', urlExpiresAt: REQUESTED_AT }));

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      createTestIo(),
    );

    // Assess: listed once more for the page, not once per file.
    expect(code).toBe(ExitCode.SUCCESS);
    expect(api.requests).toHaveLength(2);
    expect(blobs.paths).toEqual(['/blob', '/blob']);
    expect(readFileSync(join(outDir, EXPORT_ID, 'exp_2.csv.gz')).equals(STORED)).toBe(true);
  });

  it('lists the page again when the storage refuses a URL, and downloads with the fresh one', async () => {
    // Prepare: a URL that should still work, but the storage says 403.
    api = await startFakeExportsApi(
      relistedFiles({ path: '/expired', urlExpiresAt: '2030-01-01T00:00:00Z' }),
    );

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      createTestIo(),
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(api.requests).toHaveLength(2);
    expect(blobs.paths).toEqual(['/expired', '/blob', '/blob']);
    expect(readdirSync(join(outDir, EXPORT_ID)).sort()).toEqual(['exp_1.csv.gz', 'exp_2.csv.gz']);
  });

  it('exits 8 when a fresh URL is refused too, keeping nothing of the file', async () => {
    // Prepare
    api = await startFakeExportsApi(() => filesReply('ARCHIVED', '/expired'));
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.DOWNLOAD_FAILED);
    expect(blobs.paths).toEqual(['/expired', '/expired']);
    expect(io.stderrText()).toMatch(/exp_1\.csv: the download was answered HTTP 403 even with a fresh URL/);
    expect(readdirSync(join(outDir, EXPORT_ID))).toEqual([]);
  });

  it('stops when the archive changed between listings, rather than mixing two archives', async () => {
    // Prepare: the second listing holds another file (the export was archived again meanwhile).
    let listings = 0;
    api = await startFakeExportsApi(() => {
      const reply = filesReply('ARCHIVED', listings === 0 ? '/expired' : '/blob');
      const [item] = reply.body.items;
      const sha256 = listings === 0 ? SHA256 : 'f'.repeat(64);
      listings++;
      return { ...reply, body: { ...reply.body, items: [{ ...item, sha256 }] } };
    });
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.DOWNLOAD_FAILED);
    expect(io.stderrText()).toMatch(/changed while downloading \(it was archived again\)/);
    expect(blobs.paths).toEqual(['/expired']);
  });

  it('stores the CSV decompressed with --gunzip', async () => {
    api = await startFakeExportsApi(() => filesReply('ARCHIVED'));
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--gunzip', '--api', api.url],
      createTestIo(),
    );
    expect(code).toBe(ExitCode.SUCCESS);
    expect(readFileSync(join(outDir, EXPORT_ID, 'exp_1.csv'), 'utf8')).toBe(CSV);
  });

  it('reports the size of the file it saved with --gunzip, not of the archived .csv.gz', async () => {
    // Prepare
    api = await startFakeExportsApi(() => filesReply('ARCHIVED'));
    const io = createTestIo();
    const jsonIo = createTestIo();
    const saved = join(outDir, EXPORT_ID, 'exp_1.csv');

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--gunzip', '--api', api.url],
      io,
    );
    await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--gunzip', '--json', '--api', api.url],
      jsonIo,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toBe(
      `saved ${saved} (${CSV.length} B, 2 rows; decompressed from ${STORED.length} B, sha256 verified)\n`,
    );
    expect(JSON.parse(jsonIo.stdoutText()).files).toEqual([
      {
        name: 'exp_1.csv',
        path: saved,
        bytes: CSV.length,
        archivedBytes: STORED.length,
        rows: 2,
        sha256: SHA256,
      },
    ]);
  });

  it('keeps nothing of a file whose bytes do not match, and exits 8', async () => {
    // Prepare
    api = await startFakeExportsApi(() => filesReply('ARCHIVED', '/bad'));
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.DOWNLOAD_FAILED);
    expect(io.stderrText()).toMatch(/exp_1\.csv: the download does not match the archive/);
    expect(readdirSync(join(outDir, EXPORT_ID))).toEqual([]);
  });

  it.each([
    ['PENDING', /not ready yet \(PENDING\)/],
    ['FAILED', /is FAILED: link 1: the download was answered 403/],
  ])('exits 7 when the archive is %s, saying why', async (status, message) => {
    // Prepare
    api = await startFakeExportsApi(() =>
      filesReply(
        status,
        '/blob',
        status === 'FAILED' ? { reason: 'link 1: the download was answered 403' } : {},
      ),
    );
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['download', EXPORT_ID, '--spot', SPOT_ID, '--out', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.ARCHIVE_UNAVAILABLE);
    expect(io.stderrText()).toMatch(message);
    expect(existsSync(join(outDir, EXPORT_ID))).toBe(false);
  });

  it('start --wait --download waits for the archive after the export completed, then downloads it', async () => {
    // Prepare: the export completes at once; the archive is PENDING on the first look.
    let filesCalls = 0;
    api = await startFakeExportsApi((request) => {
      if (request.path.endsWith('/files')) return filesReply(++filesCalls === 1 ? 'PENDING' : 'ARCHIVED');
      if (request.method === 'POST') return { status: 202, body: exportView({ status: 'REQUESTED' }) };
      return { status: 200, body: exportView({ status: 'COMPLETED' }) };
    });
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['start', '--spot', SPOT_ID, '--last', 'P1D', '--wait', '--download', outDir, '--api', api.url],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(filesCalls).toBe(3);
    expect(readFileSync(join(outDir, EXPORT_ID, 'exp_1.csv.gz')).equals(STORED)).toBe(true);
  });

  it('refuses --download without --wait', async () => {
    const io = createTestIo();
    const code = await runCli(['start', '--spot', SPOT_ID, '--last', 'P1D', '--download', outDir], io);
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain('--download only applies with --wait');
  });
});
