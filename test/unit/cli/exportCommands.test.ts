import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { COMPLETED_LINKS, EXPORT_ID, exportView, SPOT_ID } from './support/exportViews';
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

  it('encodes the export id into the path', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: exportView() }));
    const io = createTestIo();

    // Act
    await runCli(['status', 'exp/../1', '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(server.requests[0]?.path).toBe('/exports/exp%2F..%2F1');
  });
});

describe('abort command', () => {
  it('posts the abort and exits 0 once it is accepted', async () => {
    // Prepare
    const server = await serve(() => ({ status: 202, body: exportView({ status: 'ABORTING' }) }));
    const io = createTestIo();

    // Act
    const code = await runCli(['abort', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.method).toBe('POST');
    expect(server.requests[0]?.path).toBe(`/exports/${EXPORT_ID}/abort`);
    expect(server.requests[0]?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(io.stdoutText()).toContain(`Abort of export ${EXPORT_ID} accepted.`);
    expect(io.stdoutText()).toMatch(/status\s+ABORTING/);
  });
});

describe('list command', () => {
  it('passes status and limit as query parameters and prints a table', async () => {
    // Prepare
    const server = await serve(() => ({
      status: 200,
      body: {
        items: [exportView({ exportId: 'exp_2', status: 'COMPLETED' }), exportView({ exportId: 'exp_1' })],
        nextToken: 'tok-2',
      },
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
    expect(lines[0]).toMatch(/^EXPORT\s+STATUS\s+REQUESTED\s+SOURCE\s+POLLS\s+REQUEST$/);
    expect(lines[1]).toMatch(/^exp_2\s+COMPLETED\s/);
    expect(lines[2]).toMatch(/^exp_1\s+PROCESSING\s/);
    expect(io.stderrText()).toContain('--next-token tok-2');
  });

  it('follows every page with --all and prints them as one JSON document', async () => {
    // Prepare
    const server = await serve((request) => {
      const token = request.query.get('nextToken');
      if (token === null)
        return { status: 200, body: { items: [exportView({ exportId: 'exp_3' })], nextToken: 'p2' } };
      if (token === 'p2')
        return { status: 200, body: { items: [exportView({ exportId: 'exp_2' })], nextToken: 'p3' } };
      return { status: 200, body: { items: [exportView({ exportId: 'exp_1' })] } };
    });
    const io = createTestIo();

    // Act
    const code = await runCli(['list', '--api', server.url, '--spot', SPOT_ID, '--all', '--json'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => request.query.get('nextToken'))).toEqual([null, 'p2', 'p3']);
    const listing = JSON.parse(io.stdoutText());
    expect(listing.items.map((item: { exportId: string }) => item.exportId)).toEqual([
      'exp_3',
      'exp_2',
      'exp_1',
    ]);
    expect(listing.nextToken).toBeUndefined();
  });

  it('says so when the spot has no exports', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: { items: [] } }));
    const io = createTestIo();

    // Act
    const code = await runCli(['list', '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toBe(`No exports for spot ${SPOT_ID}.\n`);
  });
});
