import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import { runCli } from '../../../../cli/runCli';
import type { BackfillView } from '../../../../lib/http/backfillViewSchema';
import { type FakeExportsApi, type ReceivedRequest, startFakeExportsApi } from '../support/fakeExportsApi';
import { createTestIo } from '../support/testIo';

const BACKFILL_ID = 'bf_01kak3f4v2qz7m9d8c5b4a3e2f';
const OTHER_BACKFILL_ID = 'bf_01kak3f4v2qz7m9d8c5b4a3e2g';
const FROM = '2026-04-28T00:00:00Z';
const UNTIL = '2026-05-01T00:00:00Z';
const WINDOWS = [
  { from: '2026-04-28T00:00:00Z', until: '2026-04-29T00:00:00Z' },
  { from: '2026-04-29T00:00:00Z', until: '2026-04-30T00:00:00Z' },
  { from: '2026-04-30T00:00:00Z', until: '2026-05-01T00:00:00Z' },
];

type Counts = BackfillView['progress']['windows'];

function view(
  counts: Partial<Counts>,
  overrides: Partial<BackfillView> = {},
  spotId = 'sp_demo',
): BackfillView {
  return {
    backfillId: spotId === 'sp_demo' ? BACKFILL_ID : OTHER_BACKFILL_ID,
    spotId,
    from: FROM,
    until: UNTIL,
    windowHours: 24,
    createdAt: '2026-05-01T12:00:00.000Z',
    recording: false,
    status: 'RUNNING',
    plan: { windowCount: 3, windows: WINDOWS, skipped: [], skippedHours: 0 },
    progress: {
      windows: {
        total: 3,
        done: 0,
        running: 0,
        queued: 0,
        retrying: 0,
        gaps: 0,
        pending: 0,
        withdrawn: 0,
        ...counts,
      },
      rowsArchived: 250 * (counts.done ?? 0),
      elapsedSeconds: 60 * (counts.done ?? 0),
      etaSeconds: 60 * (3 - (counts.done ?? 0)),
    },
    windows: [],
    ...overrides,
  };
}

const running = (done: number, spotId = 'sp_demo') =>
  view({ done, running: 1, queued: 2 - done }, {}, spotId);
const completed = view({ done: 3 }, { status: 'COMPLETED' });
const otherCompleted = view({ done: 3 }, { status: 'COMPLETED' }, 'sp_other');

let api: FakeExportsApi | undefined;
let directory: string | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

/** POST answers the first view of the spot's sequence; each GET the next (then the last again). */
async function serve(sequences: Record<string, readonly BackfillView[]>): Promise<FakeExportsApi> {
  const served = new Map<string, number>();
  api = await startFakeExportsApi((request: ReceivedRequest) => {
    const spotId = decodeURIComponent(request.path.split('/')[2] ?? '');
    const sequence = sequences[spotId] ?? [];
    if (request.path.endsWith('/abort'))
      return { status: 202, body: view({ withdrawn: 3 }, { status: 'ABORTED' }, spotId) };
    const index =
      request.method === 'POST' ? 0 : Math.min((served.get(spotId) ?? 0) + 1, sequence.length - 1);
    served.set(spotId, index);
    return { status: request.method === 'POST' ? 202 : 200, body: sequence[index] };
  });
  return api;
}

describe('backfill command', () => {
  it('posts the range to each spot, prints each plan and how to follow it, and exits 0 without --wait', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0)], sp_other: [running(0, 'sp_other')] });
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'backfill',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--spot',
        'sp_other',
        '--from',
        '2026-04-28',
        '--until',
        UNTIL,
        '--window',
        '24h',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /spots/sp_demo/backfills',
      'POST /spots/sp_other/backfills',
    ]);
    expect(server.requests[0]?.body).toEqual({ from: FROM, until: UNTIL, windowHours: 24 });
    expect(io.stdoutText()).toContain(
      `sp_demo  backfill ${BACKFILL_ID}  ${FROM} → ${UNTIL} in windows of at most 24 h`,
    );
    expect(io.stdoutText()).toContain('    2026-04-29T00:00:00Z → 2026-04-30T00:00:00Z');
    expect(io.stdoutText()).toContain(
      `Follow it with: npx openweb-exports backfill status ${OTHER_BACKFILL_ID} --spot sp_other --wait --api ${server.url}\n`,
    );
  });

  it('takes --from with an offset, plans from its UTC instant and says which one it is', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0)] });
    const io = createTestIo({ now: () => Date.parse('2026-11-25T12:34:56Z') });

    // Act
    const code = await runCli(
      [
        'backfill',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--from',
        '2026-11-20T00:00:00+02:00',
        '--window',
        '24h',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests[0]?.body).toEqual({
      from: '2026-11-19T22:00:00Z',
      until: '2026-11-25T12:00:00Z',
      windowHours: 24,
    });
    expect(io.stderrText()).toContain('--from 2026-11-20T00:00:00+02:00 is 2026-11-19T22:00:00Z (UTC)\n');
  });

  it('ends the range at the start of the current hour by default, in 730-hour windows', async () => {
    // Prepare: the test clock reads 2026-05-01T12:00:00Z
    const server = await serve({ sp_demo: [running(0)] });
    const io = createTestIo({ now: () => Date.parse('2026-05-01T12:34:56Z') });

    // Act
    await runCli(['backfill', '--api', server.url, '--spot', 'sp_demo', '--from', '2026-01-01'], io);

    // Assess
    expect(server.requests[0]?.body).toEqual({
      from: '2026-01-01T00:00:00Z',
      until: '2026-05-01T12:00:00Z',
      windowHours: 730,
    });
  });

  it('with --wait, prints a line per change and exits 0 once every window is archived', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0), running(0), running(1), running(2), completed] });
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'backfill',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--from',
        FROM,
        '--until',
        UNTIL,
        '--window',
        '1d',
        '--wait',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const lines = io
      .stdoutText()
      .split('\n')
      .filter((line) => line.includes(`${BACKFILL_ID}  RUNNING`) || line.includes('COMPLETED'));
    // The repeated first answer is not a change: four lines for four states.
    expect(lines).toHaveLength(4);
    expect(lines.at(-1)).toContain('COMPLETED  3/3 windows done, 0 gaps, 750 rows, elapsed 3m 00s');
    expect(lines[1]).toContain(
      '1/3 windows done, 1 running, 1 queued, 0 gaps, 250 rows, elapsed 1m 00s, ETA 2m 00s',
    );
  });

  it('with --json, writes the plan and then one JSON view per change', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0), running(2), completed] });
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'backfill',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--from',
        FROM,
        '--until',
        UNTIL,
        '--window',
        '24',
        '--wait',
        '--json',
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    const documents = io
      .stdoutText()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as BackfillView);
    expect(documents.map((document) => [document.status, document.progress.windows.done])).toEqual([
      ['RUNNING', 0],
      ['RUNNING', 0],
      ['RUNNING', 2],
      ['COMPLETED', 3],
    ]);
  });

  it('on a terminal, redraws one line with windows done of all spots, rows, elapsed and ETA', async () => {
    // Prepare
    const server = await serve({
      sp_demo: [running(0), running(1), completed],
      sp_other: [running(0, 'sp_other'), otherCompleted],
    });
    const io = createTestIo({ isTTY: true, columns: 200 });

    // Act
    await runCli(
      [
        'backfill',
        '--api',
        server.url,
        '--spot',
        'sp_demo',
        '--spot',
        'sp_other',
        '--from',
        FROM,
        '--until',
        UNTIL,
        '--window',
        '24h',
        '--wait',
      ],
      io,
    );

    // Assess
    const redrawn = io.stdoutText().split('\r\x1b[2K').slice(1);
    expect(redrawn[0]).toMatch(
      /^\| 2 spots, 0\/6 windows done, 2 running, 4 queued, 0 gaps, 0 rows, elapsed 0s, ETA 3m 00s/,
    );
    expect(redrawn.at(-1)).toContain('sp_other  bf_01kak3f4v2qz7m9d8c5b4a3e2g  COMPLETED  3/3 windows done');
  });

  it('exits 3 listing each gap with its reason when windows ended as gaps, and 4 when the backfill was aborted', async () => {
    // Prepare
    const withGap = view(
      { done: 2, gaps: 1 },
      {
        status: 'COMPLETED',
        windows: [
          {
            ...WINDOWS[1],
            state: 'GAP',
            reason: 'the upstream refused the request',
          } as BackfillView['windows'][number],
        ],
      },
    );
    const server = await serve({
      sp_demo: [running(0), withGap],
      sp_other: [running(0, 'sp_other'), view({ withdrawn: 3 }, { status: 'ABORTED' }, 'sp_other')],
    });
    const gapIo = createTestIo();
    const abortedIo = createTestIo();

    // Act
    const gapCode = await runCli(
      ['backfill', '--api', server.url, '--spot', 'sp_demo', '--from', FROM, '--until', UNTIL, '--wait'],
      gapIo,
    );
    const abortedCode = await runCli(
      ['backfill', '--api', server.url, '--spot', 'sp_other', '--from', FROM, '--until', UNTIL, '--wait'],
      abortedIo,
    );

    // Assess
    expect(gapCode).toBe(ExitCode.EXPORT_FAILED);
    expect(gapIo.stdoutText()).toContain(
      '  gap 2026-04-29T00:00:00Z → 2026-04-30T00:00:00Z: the upstream refused the request',
    );
    expect(abortedCode).toBe(ExitCode.EXPORT_ABORTED);
  });

  it('stops watching on Ctrl-C (exit 130) and leaves the backfill running: nothing is aborted', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0)] });
    const interrupt = new AbortController();
    const io = createTestIo({
      signal: interrupt.signal,
      sleep: async () => {
        interrupt.abort();
        throw new Error('interrupted sleep');
      },
    });

    // Act
    const code = await runCli(
      ['backfill', '--api', server.url, '--spot', 'sp_demo', '--from', FROM, '--until', UNTIL, '--wait'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.INTERRUPTED);
    expect(io.stderrText()).toContain(
      `Stopped watching; the backfill keeps running. Follow with: npx openweb-exports backfill status ${BACKFILL_ID} --spot sp_demo --wait`,
    );
    expect(server.requests.map((request) => request.method)).toEqual(['POST']);
  });

  it('backfills every spot a spots file configures (--spots-from), or a cdk.json names', async () => {
    // Prepare
    directory = mkdtempSync(join(tmpdir(), 'backfill-spots-'));
    const spotsFile = join(directory, 'spots.json');
    writeFileSync(spotsFile, JSON.stringify({ sp_demo: { apiKey: 'a' }, sp_other: { apiKey: 'b' } }));
    const cdkJson = join(directory, 'cdk.json');
    writeFileSync(
      cdkJson,
      JSON.stringify({ app: 'x', context: { openwebExports: { spots: [{ spotId: 'sp_other' }] } } }),
    );
    const server = await serve({ sp_demo: [running(0)], sp_other: [running(0, 'sp_other')] });

    // Act
    await runCli(
      ['backfill', '--api', server.url, '--spots-from', spotsFile, '--from', FROM, '--until', UNTIL],
      createTestIo(),
    );
    await runCli(
      ['backfill', '--api', server.url, '--spots-from', cdkJson, '--from', FROM, '--until', UNTIL],
      createTestIo(),
    );

    // Assess
    expect(server.requests.map((request) => request.path)).toEqual([
      '/spots/sp_demo/backfills',
      '/spots/sp_other/backfills',
      '/spots/sp_other/backfills',
    ]);
  });

  it('reads a backfill with status, and aborts it with abort', async () => {
    // Prepare
    const server = await serve({ sp_demo: [running(0), running(1)] });
    const statusIo = createTestIo();
    const abortIo = createTestIo();

    // Act
    const statusCode = await runCli(
      ['backfill', 'status', BACKFILL_ID, '--api', server.url, '--spot', 'sp_demo'],
      statusIo,
    );
    const abortCode = await runCli(
      ['backfill', 'abort', BACKFILL_ID, '--api', server.url, '--spot', 'sp_demo'],
      abortIo,
    );

    // Assess
    expect(statusCode).toBe(ExitCode.SUCCESS);
    expect(statusIo.stdoutText()).toContain(`sp_demo  ${BACKFILL_ID}  RUNNING  1/3 windows done`);
    expect(abortCode).toBe(ExitCode.SUCCESS);
    expect(abortIo.stdoutText()).toContain(
      `Backfill ${BACKFILL_ID} aborted: its unfinished windows are withdrawn.\n`,
    );
    expect(abortIo.stdoutText()).toContain('ABORTED  0/3 windows done, 0 gaps, 3 withdrawn');
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /spots/sp_demo/backfills/${BACKFILL_ID}`,
      `GET /spots/sp_demo/backfills/${BACKFILL_ID}`,
      `POST /spots/sp_demo/backfills/${BACKFILL_ID}/abort`,
    ]);
  });

  it('says a second abort found the backfill ABORTED already, and when it was aborted', async () => {
    // Prepare: the backfill as the first abort left it
    const aborted = view({ withdrawn: 3 }, { status: 'ABORTED', abortedAt: '2026-05-01T12:00:00Z' });
    const server = await serve({ sp_demo: [aborted, aborted] });
    const io = createTestIo();

    // Act
    const code = await runCli(
      ['backfill', 'abort', BACKFILL_ID, '--api', server.url, '--spot', 'sp_demo'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toMatch(
      new RegExp(
        `^Backfill ${BACKFILL_ID} was already ABORTED \\(at 2026-05-01T12:00:00Z\\); nothing more to abort\\.\n`,
      ),
    );
  });

  it.each([
    [['--spot', 'sp_demo'], '--from <time> is required'],
    [['--spot', 'sp_demo', '--from', '2026-13-01'], "--from '2026-13-01' must be a UTC time"],
    [['--spot', 'sp_demo', '--from', FROM, '--window', '731h'], "--window '731h' must be 1h to 730h"],
    [['--spot', 'sp_demo', '--from', FROM, '--until', '2026-06-01T00:00:00Z'], 'must not be in the future'],
    [
      ['--spot', 'sp_demo', '--from', '2026-01-01', '--until', UNTIL, '--window', '1h'],
      'more than the 1000 one backfill plans',
    ],
    [['--from', FROM], '--spot <id> or --spots-from <file> is required'],
    [
      ['--spot', 'sp_demo', '--from', FROM, '--interval-seconds', '5'],
      '--interval-seconds only applies with --wait',
    ],
    [['status', '--spot', 'sp_demo'], 'status needs the backfill id'],
    [['status', 'bf_nope', '--spot', 'sp_demo'], "the backfill id 'bf_nope' must look like bf_"],
    [['status', BACKFILL_ID, '--spot', 'sp_demo', '--spot', 'sp_other'], 'give --spot once'],
    [
      ['abort', BACKFILL_ID, '--spot', 'sp_demo', '--from', FROM],
      '--from only applies when starting a backfill',
    ],
    [['pause', BACKFILL_ID], "unexpected argument 'pause'"],
  ])('refuses %j before any request (exit 2)', async (args, message) => {
    // Prepare
    const server = await serve({});
    const io = createTestIo();

    // Act
    const code = await runCli(['backfill', '--api', server.url, ...args], io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain(message);
    expect(server.requests).toEqual([]);
  });
});
