import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { EXPORT_ID, exportView, SPOT_ID } from './support/exportViews';
import {
  type FakeExportsApi,
  type FakeRoute,
  problemReply,
  startFakeExportsApi,
  unreachableApiUrl,
} from './support/fakeExportsApi';
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

const invalidRequest = problemReply(400, {
  type: '/problems/invalid-request',
  title: 'Invalid request',
  detail: 'The request body is not a valid export request.',
  errors: [{ field: 'body.until', message: 'the range may span at most 730 hours' }],
});

describe('API errors', () => {
  it('prints `title: detail` and the field errors on stderr and exits 5 for a problem response', async () => {
    // Prepare
    const server = await serve(() => invalidRequest);
    const io = createTestIo();

    // Act
    const code = await runCli(['start', '--api', server.url, '--spot', SPOT_ID, '--last', 'P1D'], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain('Invalid request: The request body is not a valid export request.\n');
    expect(io.stderrText()).toContain('  body.until: the range may span at most 730 hours\n');
    expect(io.stdoutText()).toBe('');
  });

  it('prints the problem document on stdout with --json', async () => {
    // Prepare
    const server = await serve(() => invalidRequest);
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['start', '--json', '--api', server.url, '--spot', SPOT_ID, '--last', 'P1D'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(JSON.parse(io.stdoutText())).toEqual({
      type: '/problems/invalid-request',
      title: 'Invalid request',
      status: 400,
      detail: 'The request body is not a valid export request.',
      errors: [{ field: 'body.until', message: 'the range may span at most 730 hours' }],
    });
  });

  it('names the active export when the spot is busy', async () => {
    // Prepare
    const server = await serve(() =>
      problemReply(409, {
        type: '/problems/spot-busy',
        title: 'Spot busy',
        detail: `Spot ${SPOT_ID} already has an export running.`,
        activeExportId: 'ex_01kak3f4v2qz7m9d8c5b4a0009',
      }),
    );
    const io = createTestIo();

    // Act
    const code = await runCli(['start', '--api', server.url, '--spot', SPOT_ID, '--last', 'P1D'], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain(`Spot busy: Spot ${SPOT_ID} already has an export running.`);
    expect(io.stderrText()).toContain(
      `npx openweb-exports watch ex_01kak3f4v2qz7m9d8c5b4a0009 --spot ${SPOT_ID}`,
    );
  });

  it('reports an error answer that is not a problem document by its HTTP status, with a hint on 403', async () => {
    // Prepare
    const server = await serve(() => ({ status: 403, body: { message: 'Forbidden' } }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain('HTTP 403: Forbidden');
    expect(io.stderrText()).toContain('pass --sigv4');
  });

  it('exits 5 when a success answer is not an export', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: { hello: 'world' } }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain('is it the openweb-exports API?');
  });

  it('exits 5 when an export answer lacks a member the API always sends', async () => {
    // Prepare
    const { archive: _archive, ...withoutArchive } = exportView();
    const server = await serve(() => ({ status: 200, body: withoutArchive }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain('is it the openweb-exports API?');
  });

  it('passes on with --json the members a newer API adds to an export', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: { ...exportView(), costUsd: 0.02 } }));
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', server.url, '--spot', SPOT_ID, '--json'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(JSON.parse(io.stdoutText())).toEqual({ ...exportView(), costUsd: 0.02 });
  });

  it('exits 6 and names the URL when the API cannot be reached', async () => {
    // Prepare
    const url = await unreachableApiUrl();
    const io = createTestIo();

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', url, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.API_UNREACHABLE);
    expect(io.stderrText()).toContain(`cannot reach the API at ${url}: `);
    expect(io.stderrText()).toContain('ECONNREFUSED');
  });

  it('exits 130 when interrupted while a request is in flight', async () => {
    // Prepare
    const interrupt = new AbortController();
    const io = createTestIo({
      signal: interrupt.signal,
      fetch: async (_input, init) => {
        interrupt.abort();
        throw init?.signal?.reason ?? new Error('aborted');
      },
    });

    // Act
    const code = await runCli(['status', EXPORT_ID, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.INTERRUPTED);
    expect(io.stderrText()).not.toContain('cannot reach');
  });
});
