import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { EXPORT_ID, exportView, SPOT_ID } from './support/exportViews';
import { type FakeExportsApi, type FakeRoute, startFakeExportsApi } from './support/fakeExportsApi';
import { createTestIo } from './support/testIo';

describe('start command', () => {
  let api: FakeExportsApi | undefined;

  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function serve(route: FakeRoute): Promise<FakeExportsApi> {
    api = await startFakeExportsApi(route);
    return api;
  }

  const accepted: FakeRoute = (request) => ({
    status: 202,
    body: exportView({
      status: 'REQUESTED',
      request: { kind: 'dateRange', ...(request.body as object) } as ExportView['request'],
    }),
    headers: { location: `/exports/${EXPORT_ID}` },
  });

  it('posts a date range with the spot header and idempotency key and exits 0 once accepted', async () => {
    // Prepare
    const server = await serve(accepted);
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'start',
        '--api',
        server.url,
        '--spot',
        SPOT_ID,
        '--from',
        '2026-04-01T00:00:00Z',
        '--until',
        '2026-04-02',
        '--delimiter',
        'tab',
        '--max-records-in-file',
        '5000',
        '--idempotency-key',
        'nightly-2026-04-01',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/exports');
    expect(request?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(request?.headers['idempotency-key']).toBe('nightly-2026-04-01');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      from: '2026-04-01T00:00:00Z',
      until: '2026-04-02T00:00:00Z',
      delimiter: '\t',
      maxRecordsInFile: 5000,
    });
    expect(io.stdoutText()).toContain(`Started export ${EXPORT_ID} for spot ${SPOT_ID}.`);
    // Pasted as it is, the hint reaches the same API (not the default port).
    expect(io.stdoutText()).toContain(
      `Follow it with: npx openweb-exports watch ${EXPORT_ID} --spot ${SPOT_ID} --api ${server.url}\n`,
    );
  });

  it('takes instants with an offset, sends them in UTC and says which UTC instants they are', async () => {
    // Prepare
    const server = await serve(accepted);
    const io = createTestIo({ now: () => Date.parse('2026-11-25T12:00:00Z') });

    // Act
    const code = await runCli(
      [
        'start',
        '--api',
        server.url,
        '--spot',
        SPOT_ID,
        '--from',
        '2026-11-20T00:00:00+02:00',
        '--until',
        '2026-11-21T00:00:00+02:00',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.body).toEqual({ from: '2026-11-19T22:00:00Z', until: '2026-11-20T22:00:00Z' });
    expect(io.stderrText()).toBe(
      '--from 2026-11-20T00:00:00+02:00 is 2026-11-19T22:00:00Z (UTC)\n' +
        '--until 2026-11-21T00:00:00+02:00 is 2026-11-20T22:00:00Z (UTC)\n',
    );
  });

  it('turns --last into the window that ends now, to the second', async () => {
    // Prepare
    const server = await serve(accepted);
    const io = createTestIo({ now: () => Date.parse('2026-05-01T12:34:56.789Z') });

    // Act
    const code = await runCli(['start', '--api', server.url, '--spot', SPOT_ID, '--last', 'PT6H'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.body).toEqual({ from: '2026-05-01T06:34:56Z', until: '2026-05-01T12:34:56Z' });
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('exports a conversation, taking the API and spot from the environment', async () => {
    // Prepare
    const server = await serve((request) => ({
      status: 202,
      body: exportView({
        request: { kind: 'conversation', ...(request.body as object) } as ExportView['request'],
      }),
    }));
    const io = createTestIo({ env: { OPENWEB_EXPORTS_API: server.url, OPENWEB_SPOT_ID: SPOT_ID } });

    // Act
    const code = await runCli(['start', '--conversation', `${SPOT_ID}_post-1`], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.headers['x-spot-id']).toBe(SPOT_ID);
    expect(server.requests[0]?.body).toEqual({ conversationId: `${SPOT_ID}_post-1` });
    expect(io.stdoutText()).toContain(`conversation ${SPOT_ID}_post-1`);
  });

  it('prints the accepted view as one JSON document with --json', async () => {
    // Prepare
    const server = await serve(accepted);
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['--json', 'start', '--api', server.url, '--spot', SPOT_ID, '--last', 'P1D'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(JSON.parse(io.stdoutText())).toMatchObject({ exportId: EXPORT_ID, status: 'REQUESTED' });
  });

  it('keeps the path of the API URL, e.g. an API Gateway stage', async () => {
    // Prepare
    const server = await serve(accepted);
    const io = createTestIo();

    // Act
    await runCli(['start', '--api', `${server.url}/prod/`, '--spot', SPOT_ID, '--last', 'P1D'], io);

    // Assess
    expect(server.requests[0]?.path).toBe('/prod/exports');
  });

  it('follows the export with --wait and exits with its outcome', async () => {
    // Prepare
    const server = await serve((request) =>
      request.method === 'POST'
        ? { status: 202, body: exportView({ status: 'REQUESTED', pollCount: 0 }) }
        : {
            status: 200,
            body: exportView({ status: 'FAILED', pollCount: 2, failureReason: 'upstream failed' }),
          },
    );
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['start', '--api', server.url, '--spot', SPOT_ID, '--last', 'P1D', '--wait', '--interval-seconds', '3'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.EXPORT_FAILED);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /exports',
      `GET /exports/${EXPORT_ID}`,
    ]);
    expect(io.sleeps).toEqual([3000]);
    expect(io.stdoutText()).toContain('REQUESTED  polls=0');
    expect(io.stdoutText()).toContain('FAILED  polls=2');
    expect(io.stdoutText()).toContain('reason=upstream failed');
  });
});
