import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { ExportsApiClient } from '../../../cli/ExportsApiClient';
import { runCli } from '../../../cli/runCli';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { COMPLETED_LINKS, EXPORT_ID, exportList, exportView, SPOT_ID } from './support/exportViews';
import { type FakeExportsApi, type FakeRoute, startFakeExportsApi } from './support/fakeExportsApi';
import { createTestIo } from './support/testIo';

let api: FakeExportsApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function serve(route: FakeRoute): Promise<FakeExportsApi> {
  api = await startFakeExportsApi(route);
  return api;
}

describe('status command', () => {
  it('shows the export with its links and exits 0 when it COMPLETED', async () => {
    // Prepare
    const server = await serve(() => ({
      status: 200,
      body: exportView({
        status: 'COMPLETED',
        upstreamStatus: 'completed',
        links: COMPLETED_LINKS,
        pollCount: 4,
      }),
    }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.method).toBe('GET');
    expect(server.requests[0]?.path).toBe(`/exports/${EXPORT_ID}`);
    expect(server.requests[0]?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(io.stdoutText()).toMatch(/status\s+COMPLETED \(upstream: completed\)/);
    expect(io.stdoutText()).toMatch(/polls\s+4/);
    expect(io.stdoutText()).toContain(`${COMPLETED_LINKS[0]}\n${COMPLETED_LINKS[1]}\n`);
  });

  it.each([
    ['FAILED', ExitCode.EXPORT_FAILED],
    ['ABORTED', ExitCode.EXPORT_ABORTED],
    ['PROCESSING', ExitCode.SUCCESS],
  ] as const)('exits with the code of an export that is %s', async (status, expected) => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: exportView({ status }) }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID, '--json'], io);

    // Assess
    expect(code).toBe(expected);
    expect(JSON.parse(io.stdoutText())).toMatchObject({ exportId: EXPORT_ID, status });
  });

  it('shows the archive, and names the end time of an aborted export after how it ended', async () => {
    // Prepare
    const server = await serve(() => ({
      status: 200,
      body: exportView({
        status: 'ABORTED',
        upstreamStatus: 'abort accepted',
        completedAt: '2026-05-01T12:00:09Z',
        archive: {
          status: 'NONE',
          reason: 'the export ended ABORTED: there are no files to archive',
          files: 0,
        },
      }),
    }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.EXPORT_ABORTED);
    expect(io.stdoutText()).toMatch(/^aborted +2026-05-01T12:00:09Z$/m);
    expect(io.stdoutText()).not.toMatch(/^completed/m);
    expect(io.stdoutText()).toMatch(/^archive +NONE$/m);
  });

  it.each<[ExportView['archive'], string]>([
    [
      { status: 'ARCHIVED', archivedAt: '2026-05-01T12:01:00Z', files: 2, rows: 500 },
      'ARCHIVED (2 files, 500 rows)',
    ],
    [
      {
        status: 'ARCHIVED',
        files: 2,
        rows: 500,
        catalog: 'PENDING',
        catalogReason: 'Glue did not register partition (sp_demo, 2026-05-01): OperationTimeoutException',
      },
      'ARCHIVED (2 files, 500 rows; catalog PENDING: Glue did not register partition (sp_demo, 2026-05-01): OperationTimeoutException)',
    ],
    [{ status: 'FAILED', reason: 'link 1 expired', files: 0 }, 'FAILED: link 1 expired'],
    [{ status: 'PENDING', files: 0 }, 'PENDING'],
  ])('shows an archive %o as %s', async (archive, shown) => {
    // Prepare
    const server = await serve(() => ({
      status: 200,
      body: exportView({ status: 'COMPLETED', completedAt: '2026-05-01T12:00:30Z', archive }),
    }));
    const io = createTestIo();

    // Act
    await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(io.stdoutText()).toContain(`archive      ${shown}\n`);
    expect(io.stdoutText()).toMatch(/^completed +2026-05-01T12:00:30Z$/m);
  });
});

describe('the API client', () => {
  it('encodes the export id into the path', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: exportView() }));
    const client = new ExportsApiClient({ baseUrl: new URL(server.url), fetch: globalThis.fetch });

    // Act
    await client.getExport(SPOT_ID, 'exp/../1');

    // Assess
    expect(server.requests[0]?.path).toBe('/exports/exp%2F..%2F1');
  });
});

describe('abort command', () => {
  it('posts the abort and exits 0 once it is accepted', async () => {
    // Prepare
    const server = await serve((request) =>
      request.method === 'POST'
        ? { status: 202, body: exportView({ status: 'ABORTING' }) }
        : { status: 200, body: exportView({ status: 'PROCESSING' }) },
    );
    const io = createTestIo();

    // Act
    const code = await runCli(['abort', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const abort = server.requests.find((request) => request.method === 'POST');
    expect(abort?.path).toBe(`/exports/${EXPORT_ID}/abort`);
    expect(abort?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(io.stdoutText()).toContain(`Abort of export ${EXPORT_ID} accepted.`);
    expect(io.stdoutText()).toMatch(/status\s+ABORTING/);
  });

  it('says an export ABORTED already was not aborted again, and sends no abort', async () => {
    // Prepare: the API answers a repeated abort with 202 and the aborted export, as the first.
    const aborted = exportView({ status: 'ABORTED', completedAt: '2026-05-01T12:00:09Z' });
    const server = await serve((request) =>
      request.method === 'POST' ? { status: 202, body: aborted } : { status: 200, body: aborted },
    );
    const io = createTestIo();

    // Act
    const code = await runCli(['abort', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
    expect(io.stdoutText()).toContain(
      `Export ${EXPORT_ID} was already ABORTED (at 2026-05-01T12:00:09Z); nothing to abort.\n`,
    );
    expect(io.stdoutText()).not.toContain('accepted');
  });
});

describe('list command', () => {
  it('passes status and limit as query parameters and prints a table', async () => {
    // Prepare
    const server = await serve(() => ({
      status: 200,
      body: exportList(
        [
          exportView({
            exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0002',
            status: 'COMPLETED',
            archive: { status: 'ARCHIVED', files: 1, rows: 250 },
          }),
          exportView({ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001', archive: { status: 'PENDING', files: 0 } }),
        ],
        'tok-2',
      ),
    }));
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['list', '--api', server.url, '--spot', SPOT_ID, '--status', 'completed', '--limit', '2'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.path).toBe('/exports');
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({ status: 'COMPLETED', limit: '2' });
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EXPORT\s+STATUS\s+ARCHIVE\s+REQUESTED\s+SOURCE\s+POLLS\s+REQUEST$/);
    expect(lines[1]).toMatch(/^ex_01kak3f4v2qz7m9d8c5b4a0002\s+COMPLETED\s+ARCHIVED\s/);
    expect(lines[2]).toMatch(/^ex_01kak3f4v2qz7m9d8c5b4a0001\s+PROCESSING\s+PENDING\s/);
    expect(io.stderrText()).toContain('--next-token tok-2');
  });

  it('follows every page with --all and prints them as one JSON document', async () => {
    // Prepare
    const server = await serve((request) => {
      const token = request.query.get('nextToken');
      if (token === null)
        return {
          status: 200,
          body: exportList([exportView({ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0003' })], 'p2'),
        };
      if (token === 'p2')
        return {
          status: 200,
          body: exportList([exportView({ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0002' })], 'p3'),
        };
      return { status: 200, body: exportList([exportView({ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001' })]) };
    });
    const io = createTestIo();

    // Act
    const code = await runCli(['list', '--api', server.url, '--spot', SPOT_ID, '--all', '--json'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => request.query.get('nextToken'))).toEqual([null, 'p2', 'p3']);
    const listing = JSON.parse(io.stdoutText());
    expect(listing.items.map((item: { exportId: string }) => item.exportId)).toEqual([
      'ex_01kak3f4v2qz7m9d8c5b4a0003',
      'ex_01kak3f4v2qz7m9d8c5b4a0002',
      'ex_01kak3f4v2qz7m9d8c5b4a0001',
    ]);
    expect(listing.nextToken).toBeUndefined();
  });

  it('says so when the spot has no exports', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: exportList([]) }));
    const io = createTestIo();

    // Act
    const code = await runCli(['list', '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toBe(`No exports for spot ${SPOT_ID}.\n`);
  });
});
