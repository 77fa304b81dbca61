import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { DEFAULT_WATCH_RECONNECT_ATTEMPTS, reconnectDelayMs } from '../../../cli/watchExport';
import type { ExportView } from '../../../lib/http/exportViewSchema';
import { COMPLETED_LINKS, EXPORT_ID, exportView, SPOT_ID } from './support/exportViews';
import {
  type FakeExportsApi,
  type FakeReply,
  problemReply,
  startFakeExportsApi,
} from './support/fakeExportsApi';
import { createTestIo } from './support/testIo';

let api: FakeExportsApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** Answers status checks with the given replies in turn, then repeats the last. */
async function serveSequence(replies: readonly FakeReply[]): Promise<FakeExportsApi> {
  let served = 0;
  api = await startFakeExportsApi(() => {
    const reply = replies[Math.min(served, replies.length - 1)] as FakeReply;
    served += 1;
    return reply;
  });
  return api;
}

function ok(overrides: Partial<ExportView>): FakeReply {
  return { status: 200, body: exportView(overrides) };
}

const completedProgression = [
  ok({ status: 'PROCESSING', pollCount: 1, upstreamStatus: 'processing' }),
  ok({ status: 'PROCESSING', pollCount: 1, upstreamStatus: 'processing' }),
  ok({ status: 'PROCESSING', pollCount: 2, upstreamStatus: 'processing' }),
  ok({ status: 'PROCESSING', pollCount: 2, upstreamStatus: 'processing' }),
  ok({
    status: 'COMPLETED',
    pollCount: 3,
    upstreamStatus: 'completed',
    completedAt: '2026-05-01T12:01:30Z',
    links: COMPLETED_LINKS,
  }),
];

function watchArgs(url: string, ...extra: string[]): string[] {
  return ['watch', EXPORT_ID, '--api', url, '--spot', SPOT_ID, ...extra];
}

describe('watch command', () => {
  it('prints one line per change, then the links, and exits 0 when the export COMPLETED', async () => {
    // Prepare
    const server = await serveSequence(completedProgression);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests).toHaveLength(5);
    expect(server.requests.every((request) => request.path === `/exports/${EXPORT_ID}`)).toBe(true);
    expect(io.sleeps).toEqual([2000, 2000, 2000, 2000]);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      `2026-05-01T12:00:00Z  ${EXPORT_ID}  PROCESSING  polls=1  upstream=processing  elapsed=0s`,
    );
    expect(lines[1]).toBe(
      `2026-05-01T12:00:04Z  ${EXPORT_ID}  PROCESSING  polls=2  upstream=processing  elapsed=4s`,
    );
    expect(lines[2]).toBe(
      `2026-05-01T12:00:08Z  ${EXPORT_ID}  COMPLETED  polls=3  upstream=completed  elapsed=1m30s`,
    );
    expect(lines.slice(3)).toEqual(COMPLETED_LINKS);
    expect(io.stdoutText()).not.toContain('\r');
  });

  it('says why an export still waits for the upstream while its create is put off', async () => {
    // Prepare
    const waiting = (attempts: number) =>
      ok({
        status: 'REQUESTED',
        pollCount: 0,
        upstreamStatus: undefined,
        upstreamExportId: undefined,
        upstreamWait: {
          attempts,
          lastErrorKind: 'throttled',
          lastErrorAt: '2026-05-01T12:00:00Z',
          nextAttemptAt: '2026-05-01T12:00:20Z',
        },
      });
    const server = await serveSequence([waiting(1), waiting(2), ok({ status: 'COMPLETED', pollCount: 1 })]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toContain('REQUESTED');
    expect(lines[0]).toContain('waiting for upstream: throttled, next try in 20 s (1 attempt)');
    expect(lines[1]).toContain('waiting for upstream: throttled, next try in 18 s (2 attempts)');
  });

  it('polls at the requested interval', async () => {
    // Prepare
    const server = await serveSequence([ok({ status: 'PROCESSING' }), ok({ status: 'COMPLETED' })]);
    const io = createTestIo();

    // Act
    await runCli(watchArgs(server.url, '--interval-seconds', '1.5'), io);

    // Assess
    expect(io.sleeps).toEqual([1500]);
  });

  it('exits 3 and shows the reason when the export FAILED', async () => {
    // Prepare
    const server = await serveSequence([
      ok({ status: 'PROCESSING', pollCount: 1 }),
      ok({
        status: 'FAILED',
        pollCount: 2,
        upstreamStatus: 'failed',
        failureReason: 'upstream export failed',
      }),
    ]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.EXPORT_FAILED);
    expect(io.stdoutText()).toMatch(
      /FAILED {2}polls=2 {2}upstream=failed .*reason=upstream export failed\n$/,
    );
  });

  it('exits 4 when the export was ABORTED', async () => {
    // Prepare
    const server = await serveSequence([
      ok({ status: 'ABORTING', pollCount: 1 }),
      ok({ status: 'ABORTED', pollCount: 1, upstreamStatus: 'aborted' }),
    ]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.EXPORT_ABORTED);
    expect(io.stdoutText()).toContain('ABORTED  polls=1  upstream=aborted');
  });

  it('writes one JSON view per change with --json, the last one final', async () => {
    // Prepare
    const server = await serveSequence(completedProgression);
    const io = createTestIo({ isTTY: true });

    // Act
    const code = await runCli(watchArgs(server.url, '--json'), io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const views = io
      .stdoutText()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(views.map((view) => [view.status, view.pollCount])).toEqual([
      ['PROCESSING', 1],
      ['PROCESSING', 2],
      ['COMPLETED', 3],
    ]);
    expect(views.at(-1)).toMatchObject({ exportId: EXPORT_ID, links: COMPLETED_LINKS });
  });

  it('counts one poll in the singular on the final line', async () => {
    // Prepare
    const server = await serveSequence([ok({ status: 'COMPLETED', pollCount: 1, links: COMPLETED_LINKS })]);
    const io = createTestIo({ isTTY: true });

    // Act
    await runCli(watchArgs(server.url), io);

    // Assess
    expect(io.stdoutText()).toContain('(1 poll, 2 links)');
  });

  it('redraws a single status line with carriage returns on a terminal, then prints the links', async () => {
    // Prepare
    const server = await serveSequence(completedProgression);
    const io = createTestIo({ isTTY: true });

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const output = io.stdoutText();
    const [progress = '', ...after] = output.split('\n');
    // Every poll redraws the line in place, changed or not: the elapsed time moves.
    expect(progress.split('\r').filter((frame) => frame !== '')).toHaveLength(6);
    expect(progress).toContain(`\r\x1b[2K| ${EXPORT_ID}  PROCESSING  0s  1 poll  upstream processing`);
    expect(progress).toContain(`${EXPORT_ID}  PROCESSING  6s  2 polls  upstream processing`);
    expect(progress.endsWith(`\r\x1b[2K${EXPORT_ID} COMPLETED after 1m 30s (3 polls, 2 links)`)).toBe(true);
    expect(after.slice(0, 2)).toEqual(COMPLETED_LINKS);
  });

  it('keeps the redrawn line within the terminal width', async () => {
    // Prepare
    const server = await serveSequence([ok({ status: 'PROCESSING' }), ok({ status: 'COMPLETED' })]);
    const io = createTestIo({ isTTY: true, columns: 20 });

    // Act
    await runCli(watchArgs(server.url), io);

    // Assess
    const frames =
      io
        .stdoutText()
        .split('\n')[0]
        ?.split('\r\x1b[2K')
        .filter((frame) => frame !== '') ?? [];
    expect(frames[0]).toHaveLength(19);
  });

  it('stops on Ctrl-C with exit 130, leaving the export running', async () => {
    // Prepare
    const server = await serveSequence([ok({ status: 'PROCESSING', pollCount: 1 })]);
    const interrupt = new AbortController();
    const io = createTestIo({
      isTTY: true,
      signal: interrupt.signal,
      sleep: async (_milliseconds, signal) => {
        interrupt.abort();
        signal?.throwIfAborted();
      },
    });

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.INTERRUPTED);
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
    expect(io.stdoutText()).toMatch(/PROCESSING.*\n$/);
    expect(io.stderrText()).toContain(
      `the export keeps running. Abort it with: npx openweb-exports abort ${EXPORT_ID}`,
    );
  });

  it('rides out a few server errors while watching', async () => {
    // Prepare
    const unavailable = problemReply(503, { title: 'Upstream unavailable', detail: 'try again' });
    const server = await serveSequence([
      ok({ status: 'PROCESSING', pollCount: 1 }),
      unavailable,
      unavailable,
      ok({ status: 'COMPLETED', pollCount: 2 }),
    ]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests).toHaveLength(4);
  });

  it('gives up with exit 5 when the server keeps failing, backing off, and says the export keeps running', async () => {
    // Prepare
    const unavailable = problemReply(503, { title: 'Upstream unavailable', detail: 'try again' });
    const server = await serveSequence([ok({ status: 'PROCESSING', pollCount: 1 }), unavailable]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(server.requests).toHaveLength(1 + DEFAULT_WATCH_RECONNECT_ATTEMPTS + 1);
    expect(io.sleeps).toEqual([
      2000,
      ...Array.from({ length: DEFAULT_WATCH_RECONNECT_ATTEMPTS }, (_, index) => reconnectDelayMs(index + 1)),
    ]);
    expect(io.sleeps.slice(1, 7)).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect(io.stdoutText()).toContain('reconnecting (attempt 1 of 30, next in 1 s): the API answered 503');
    expect(io.stdoutText()).toContain('reconnecting (attempt 30 of 30, next in 30 s)');
    expect(io.stderrText()).toContain('Upstream unavailable: try again');
    expect(io.stderrText()).toContain(
      `Stopped watching after 30 reconnect attempts; the export keeps running. Resume watching with: npx openweb-exports watch ${EXPORT_ID} --spot ${SPOT_ID} --api ${server.url}`,
    );
  });

  it('takes --reconnect-attempts, and exits 6 when the API stays unreachable', async () => {
    // Prepare
    const server = await serveSequence([ok({ status: 'PROCESSING', pollCount: 1 })]);
    const url = server.url;
    let calls = 0;
    const io = createTestIo({
      fetch: async (input, init) => {
        calls += 1;
        if (calls > 1) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return globalThis.fetch(input, init);
      },
    });

    // Act
    const code = await runCli(watchArgs(url, '--reconnect-attempts', '2'), io);

    // Assess
    expect(code).toBe(ExitCode.API_UNREACHABLE);
    expect(calls).toBe(1 + 2 + 1);
    expect(io.stderrText()).toContain('cannot reach the API');
    expect(io.stderrText()).toContain(
      'Stopped watching after 2 reconnect attempts; the export keeps running.',
    );
  });

  it('exits 5 at once when the export does not exist', async () => {
    // Prepare
    const server = await serveSequence([
      problemReply(404, { type: '/problems/export-not-found', title: 'Export not found' }),
    ]);
    const io = createTestIo();

    // Act
    const code = await runCli(watchArgs(server.url), io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(server.requests).toHaveLength(1);
    expect(io.stderrText()).toContain('Export not found');
  });
});
