import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import { runCli } from '../../../../cli/runCli';
import { COVERAGE_SPOT, coverageView } from '../support/coverageViews';
import {
  type FakeExportsApi,
  type FakeRoute,
  problemReply,
  startFakeExportsApi,
} from '../support/fakeExportsApi';
import { createTestIo } from '../support/testIo';

let api: FakeExportsApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function serve(route: FakeRoute): Promise<FakeExportsApi> {
  api = await startFakeExportsApi(route);
  return api;
}

const NO_GAPS = {
  gaps: [],
  summary: {
    hours: 26.5,
    coveredHours: 20.5,
    inFlightHours: 2,
    gapHours: 0,
    notPlannedHours: 4,
    overlapHours: 0,
    provisionalHours: 0,
    restatementsWaiting: 0,
  },
};

function failingFetch(): typeof fetch {
  return async () => {
    throw new Error('no request may be sent for a usage error');
  };
}

describe('coverage command', () => {
  it("asks for the spot's coverage, draws its timeline and exits 0 when the range has no gap", async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: coverageView(NO_GAPS) }));
    const io = createTestIo();

    // Act
    const code = await runCli(['coverage', '--spot', COVERAGE_SPOT, '--api', server.url], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe(`/spots/${COVERAGE_SPOT}/coverage`);
    expect(server.requests[0]?.headers['x-spot-id']).toBe(COVERAGE_SPOT);
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({ limit: '1000' });
    expect(io.stdoutText()).toContain('2026-11-21  ###### ..~~..');
    expect(io.stdoutText()).toContain('Gaps: none.');
  });

  it(`exits ${ExitCode.COVERAGE_GAPS} when the range has gaps, and lists them`, async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: coverageView() }));
    const io = createTestIo();

    // Act
    const code = await runCli(['coverage', '--spot', COVERAGE_SPOT, '--api', server.url], io);

    // Assess
    expect(code).toBe(ExitCode.COVERAGE_GAPS);
    expect(io.stdoutText()).toContain('Gaps (1)');
  });

  it('sends --from and --until (a date is its midnight UTC) and follows every page into one answer', async () => {
    // Prepare: the range in two pages, the covered hours meeting where the pages meet
    const whole = coverageView(NO_GAPS);
    const first = coverageView({
      ...NO_GAPS,
      page: { from: whole.range.from, until: '2026-11-21T00:00:00Z' },
      covered: [{ from: '2026-11-20T09:30:00Z', until: '2026-11-21T00:00:00Z' }],
      inFlight: [],
      summary: {
        hours: 14.5,
        coveredHours: 14.5,
        inFlightHours: 0,
        gapHours: 0,
        notPlannedHours: 0,
        overlapHours: 0,
        provisionalHours: 0,
        restatementsWaiting: 0,
      },
      nextToken: 'page2',
    });
    const second = coverageView({
      ...NO_GAPS,
      page: { from: '2026-11-21T00:00:00Z', until: whole.range.until },
      covered: [{ from: '2026-11-21T00:00:00Z', until: '2026-11-21T06:00:00Z' }],
      summary: {
        hours: 12,
        coveredHours: 6,
        inFlightHours: 2,
        gapHours: 0,
        notPlannedHours: 4,
        overlapHours: 0,
        provisionalHours: 0,
        restatementsWaiting: 0,
      },
    });
    const server = await serve((request) => ({
      status: 200,
      body: request.query.get('nextToken') === 'page2' ? second : first,
    }));
    const io = createTestIo();

    // Act
    const code = await runCli(
      [
        'coverage',
        '--spot',
        COVERAGE_SPOT,
        '--from',
        '2026-11-20',
        '--until',
        '2026-11-22T00:00:00Z',
        '--json',
        '--api',
        server.url,
      ],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(server.requests.map((request) => Object.fromEntries(request.query))).toEqual([
      { from: '2026-11-20T00:00:00Z', until: '2026-11-22T00:00:00Z', limit: '1000' },
      { from: '2026-11-20T00:00:00Z', until: '2026-11-22T00:00:00Z', limit: '1000', nextToken: 'page2' },
    ]);
    const merged = JSON.parse(io.stdoutText());
    expect(merged).not.toHaveProperty('nextToken');
    expect(merged.page).toEqual(whole.range);
    expect(merged.covered).toEqual([{ from: '2026-11-20T09:30:00Z', until: '2026-11-21T06:00:00Z' }]);
    expect(merged.summary).toEqual({
      hours: 26.5,
      coveredHours: 20.5,
      inFlightHours: 2,
      gapHours: 0,
      notPlannedHours: 4,
      overlapHours: 0,
      provisionalHours: 0,
      restatementsWaiting: 0,
    });
    expect(merged.inFlight).toHaveLength(1);
  });

  it.each([
    [['--from', 'yesterday'], "--from 'yesterday' must be a UTC time like 2026-01-31T00:00:00Z"],
    [['--until', '2026-11-20T00:00:00.000Z'], "--until '2026-11-20T00:00:00.000Z' must be a UTC time"],
    [
      ['--from', '2026-11-21', '--until', '2026-11-20'],
      '--from 2026-11-21T00:00:00Z must be before --until 2026-11-20T00:00:00Z',
    ],
    [['--from', '2025-01-01', '--until', '2026-11-20'], 'the range may span at most 366 days'],
    [['--from', '2099-01-01'], '--from 2099-01-01T00:00:00Z must be before now'],
    [['extra'], "unexpected argument 'extra'"],
  ])('refuses %j before sending anything, with the usage line', async (args, message) => {
    // Prepare
    const io = createTestIo({ fetch: failingFetch() });

    // Act
    const code = await runCli(['coverage', '--spot', COVERAGE_SPOT, ...args], io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain(message);
    expect(io.stderrText()).toContain(
      'Usage: npx openweb-exports coverage --spot <id> [--from <time>] [--until <time>]',
    );
  });

  it('reports a problem the API answers with, and exits 5', async () => {
    // Prepare
    const server = await serve(() =>
      problemReply(400, {
        type: '/problems/invalid-request',
        title: 'Invalid request',
        detail: 'The request has invalid fields; see errors.',
        errors: [{ field: 'query.from', message: 'must be before until, which is now when not given' }],
      }),
    );
    const io = createTestIo();

    // Act
    const code = await runCli(['coverage', '--spot', COVERAGE_SPOT, '--api', server.url], io);

    // Assess
    expect(code).toBe(ExitCode.API_ERROR);
    expect(io.stderrText()).toContain('Invalid request');
  });
});
