import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import type { SpotStatusView } from '../../../../cli/FleetView';
import { runCli } from '../../../../cli/runCli';
import { exportList } from '../support/exportViews';
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

function spot(spotId: string, overrides: Partial<SpotStatusView> = {}): SpotStatusView {
  return {
    spotId,
    configured: true,
    coveredUntil: '2026-05-01T11:00:00Z',
    hoursBehind: 1,
    freshnessTargetHours: 4,
    stale: false,
    queued: 0,
    backfills: [],
    gaps: { count: 0, hours: 0 },
    restatements: { provisionalHours: 0, waiting: 0 },
    ...overrides,
  };
}

const STALE = spot('sp_stale', { coveredUntil: '2026-04-30T00:00:00Z', hoursBehind: 36, stale: true });
const GAPPED = spot('sp_gapped', {
  gaps: { count: 1, hours: 3, newestReason: 'the upstream refused the request' },
});
const FINE = spot('sp_fine');

describe('openweb-exports fleet', () => {
  it('prints one line per spot, worst first, with no colour off a terminal, and exits 11 when a spot is stale', async () => {
    // Prepare: two pages
    const server = await serve((request) =>
      request.query.get('nextToken') === null
        ? { status: 200, body: { items: [FINE, GAPPED], nextToken: 'next' } }
        : { status: 200, body: { items: [STALE] } },
    );
    const io = createTestIo();

    // Act
    const code = await runCli(['fleet', '--api', server.url], io);

    // Assess
    expect(code).toBe(ExitCode.FLEET_STALE);
    const lines = io.stdoutText().trim().split('\n');
    expect(lines[0]).toMatch(/^STALE {2}sp_stale +36 h behind \(target 4 h\)/);
    expect(lines[1]).toMatch(
      /^GAPS {3}sp_gapped .* 1 gap\(s\), 3 h open, newest: the upstream refused the request$/,
    );
    expect(lines[2]).toMatch(/^OK {5}sp_fine /);
    expect(lines[3]).toBe('1 stale, 1 with gaps, 1 fine (of 3).');
    expect(io.stdoutText()).not.toContain('\x1b[');
    expect(
      server.requests.every(
        (request) => request.path === '/spots' && request.headers['x-spot-id'] === undefined,
      ),
    ).toBe(true);
  });

  it('colours the health on a terminal, and exits 10 for gaps alone, 0 when all is fine', async () => {
    // Prepare
    const gapped = await serve(() => ({ status: 200, body: { items: [FINE, GAPPED] } }));
    const tty = createTestIo({ isTTY: true });

    // Act
    const withGaps = await runCli(['fleet', '--api', gapped.url], tty);
    await gapped.close();
    const fine = await serve(() => ({ status: 200, body: { items: [FINE] } }));
    const allFine = await runCli(['fleet', '--api', fine.url], createTestIo());

    // Assess
    expect(withGaps).toBe(ExitCode.COVERAGE_GAPS);
    expect(tty.stdoutText()).toContain('\x1b[33mGAPS ');
    expect(allFine).toBe(ExitCode.SUCCESS);
  });

  it('prints the items as JSON', async () => {
    // Prepare
    const server = await serve(() => ({ status: 200, body: { items: [FINE] } }));
    const io = createTestIo();

    // Act
    const code = await runCli(['fleet', '--json', '--api', server.url], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(JSON.parse(io.stdoutText())).toEqual({ items: [FINE] });
  });
});

describe('a command about one spot', () => {
  it('refuses a second --spot rather than keep the last one', async () => {
    // Prepare
    const io = createTestIo({
      fetch: async () => {
        throw new Error('no request may be sent for a usage error');
      },
    });

    // Act
    const code = await runCli(['coverage', '--spot', 'sp_a', '--spot', 'sp_b'], io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain('takes one spot, but --spot was given 2 times (sp_a, sp_b)');
  });
});

describe('coverage and list of a spot the deployment does not know', () => {
  it.each([
    [['list', '--spot', 'sp_dmeo'], exportList([])],
    [
      ['coverage', '--spot', 'sp_dmeo'],
      {
        spotId: 'sp_dmeo',
        range: { from: '2026-04-01T12:00:00Z', until: '2026-05-01T12:00:00Z' },
        page: { from: '2026-04-01T12:00:00Z', until: '2026-05-01T12:00:00Z' },
        covered: [],
        provisional: [],
        coveredWindows: [],
        overlaps: [],
        gaps: [],
        inFlight: [],
        summary: {
          hours: 720,
          coveredHours: 0,
          inFlightHours: 0,
          gapHours: 0,
          notPlannedHours: 720,
          overlapHours: 0,
          provisionalHours: 0,
          restatementsWaiting: 0,
        },
        watermarks: [],
      },
    ],
  ])(
    'says %j names an unknown spot, with the nearest known one, instead of an empty answer',
    async (argv, empty) => {
      // Prepare: the API answers the empty listing, and GET /spots refuses the spot
      const server = await serve((request) =>
        request.path === '/spots'
          ? problemReply(404, {
              type: '/problems/spot-not-found',
              title: 'Spot not found',
              status: 404,
              detail: 'Spot sp_dmeo is unknown (did you mean sp_demo?)',
              suggestion: 'sp_demo',
            })
          : { status: 200, body: empty },
      );
      const io = createTestIo();

      // Act
      const code = await runCli([...argv, '--api', server.url], io);

      // Assess
      expect(code).toBe(ExitCode.API_ERROR);
      expect(io.stderrText()).toContain('Spot not found: Spot sp_dmeo is unknown (did you mean sp_demo?)');
      expect(io.stdoutText()).toBe('');
      expect(server.requests.at(-1)?.query.get('spotId')).toBe('sp_dmeo');
    },
  );
});
