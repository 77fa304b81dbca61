import { afterEach, describe, expect, it } from 'vitest';
import { formatErasure } from '../../../../cli/commands/eraseCommand';
import { ExitCode } from '../../../../cli/ExitCode';
import { runCli } from '../../../../cli/runCli';
import { erasureIdOf } from '../../../../lib/exports/erasure/ErasureRecord';
import type { ErasureView } from '../../../../lib/http/erasureViewSchema';
import { type FakeExportsApi, startFakeExportsApi } from '../support/fakeExportsApi';
import { createTestIo } from '../support/testIo';

const ERASURE_ID = erasureIdOf('sp_demo', 'u_1');

function view(overrides: Partial<ErasureView> = {}): ErasureView {
  return {
    erasureId: ERASURE_ID,
    spotId: 'sp_demo',
    userId: 'u_1',
    status: 'RUNNING',
    requestedAt: '2026-11-10T12:00:00.000Z',
    updatedAt: '2026-11-10T12:00:00.000Z',
    exportsDone: 0,
    filesRead: 0,
    filesRewritten: 0,
    rowsRemoved: 0,
    files: [],
    ...overrides,
  };
}

const completed = view({
  status: 'COMPLETED',
  updatedAt: '2026-11-10T12:01:00.000Z',
  completedAt: '2026-11-10T12:01:00.000Z',
  exportsDone: 1,
  filesRead: 2,
  filesRewritten: 1,
  rowsRemoved: 3,
  files: [
    {
      exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001',
      name: 'c.csv',
      key: 'k/1.r1.csv.gz',
      previousKey: 'k/1.csv.gz',
      rowsRemoved: 3,
      rows: 7,
      sha256: 'a'.repeat(64),
      state: 'CLEANED',
    },
  ],
  verification: {
    checkedAt: '2026-11-10T12:01:00.000Z',
    checks: ['select count(*) … : 0'],
    filesChecked: 2,
    rowsFound: 0,
    versionsLeft: 0,
  },
});

let api: FakeExportsApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** POST answers the first view; each GET the next (then the last again). */
async function serve(sequence: readonly ErasureView[]): Promise<FakeExportsApi> {
  let served = 0;
  api = await startFakeExportsApi((request) => {
    if (request.method === 'POST') return { status: 202, body: sequence[0] };
    served = Math.min(served + 1, sequence.length - 1);
    return { status: 200, body: sequence[served] };
  });
  return api;
}

describe('erase command', () => {
  it('posts the user to the spot, prints the erasure and exits 0 without --wait', async () => {
    // Prepare
    const server = await serve([view()]);
    const io = createTestIo();

    // Act
    const code = await runCli(['erase', '--api', server.url, '--spot', 'sp_demo', '--user', 'u_1'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /spots/sp_demo/erasures',
    ]);
    expect(server.requests[0]?.body).toEqual({ userId: 'u_1' });
    expect(io.stdoutText()).toContain(`Erasure ${ERASURE_ID} of user u_1 on sp_demo: RUNNING`);
  });

  it('with --wait --json follows the erasure to COMPLETED, a JSON view per change, and exits 0', async () => {
    // Prepare
    const server = await serve([view(), view(), completed]);
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'erase',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--user',
        'u_1',
        '--wait',
        '--json',
        '--interval-seconds',
        '1',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const lines = io
      .stdoutText()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ErasureView);
    expect(lines.map((line) => line.status)).toEqual(['RUNNING', 'COMPLETED']);
    expect(server.requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  });

  it('exits 13 with the reason on stderr when the erasure FAILED', async () => {
    // Prepare
    const server = await serve([view({ status: 'FAILED', reason: 'the check at the end found 1 rows' })]);
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['erase', 'status', ERASURE_ID, '--api', server.url, '--spot', 'sp_demo', '--wait'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.ERASURE_FAILED);
    expect(io.stderrText()).toContain(`Erasure ${ERASURE_ID} FAILED: the check at the end found 1 rows`);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /spots/sp_demo/erasures/${ERASURE_ID}`,
    ]);
  });

  it('refuses a missing or malformed user, a malformed id and --user on status before calling the API', async () => {
    // Prepare
    const server = await serve([view()]);
    const runs = [
      ['erase', '--spot', 'sp_demo'],
      ['erase', '--spot', 'sp_demo', '--user', 'a,b'],
      ['erase', 'status', 'er_nope', '--spot', 'sp_demo'],
      ['erase', 'status', ERASURE_ID, '--spot', 'sp_demo', '--user', 'u_1'],
      ['erase', 'abort', ERASURE_ID, '--spot', 'sp_demo'],
    ];

    // Act
    const codes = [];
    for (const args of runs) codes.push(await runCli([...args, '--api', server.url], createTestIo()));

    // Assess
    expect(codes).toEqual(runs.map(() => ExitCode.USAGE));
    expect(server.requests).toEqual([]);
  });

  it('says what was removed and what the check at the end found', () => {
    const text = formatErasure(completed);
    expect(text).toContain('1 export(s) swept, 2 file(s) read, 1 rewritten, 3 row(s) removed');
    expect(text).toContain('k/1.r1.csv.gz: 3 removed, 7 left');
    expect(text).toContain('checked: select count(*) … : 0');
  });
});
