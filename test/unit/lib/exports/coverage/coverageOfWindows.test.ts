import { describe, expect, it } from 'vitest';
import { RestatementState, WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { coverageOfWindows, hoursOf } from '../../../../../lib/exports/coverage/coverageOfWindows';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';

const at = (hour: number) => Date.parse('2026-11-01T00:00:00Z') + hour * 3_600_000;
const iso = (hour: number) => new Date(at(hour)).toISOString().replace('.000Z', 'Z');
/** A window from hour `from` to hour `until` of 2026-11-01 (hours past 24 run into the next days). */
const window = (from: number, until: number, state: WindowState = WindowState.COVERED) =>
  coverageWindowFixture({ from: iso(from), until: iso(until), state });
const DAY = { fromMs: at(0), untilMs: at(24) };

describe('coverageOfWindows', () => {
  it('counts each hour once, covered before in flight before gap before not planned, and the four add up', () => {
    // Prepare: covered 0-6, in flight 6-10, retrying 10-12, a gap 12-18 whose last two hours a later export covered, nothing after 20
    const windows = [
      window(0, 6),
      window(6, 10, WindowState.IN_FLIGHT),
      window(10, 12, WindowState.RETRYING),
      window(12, 18, WindowState.GAP),
      window(16, 20),
    ];

    // Act
    const coverage = coverageOfWindows(windows, DAY, DAY.fromMs);

    // Assess
    expect(coverage.summary).toEqual({
      hours: 24,
      coveredHours: 10,
      inFlightHours: 6,
      gapHours: 4,
      notPlannedHours: 4,
      overlapHours: 0,
      provisionalHours: 0,
      restatementsWaiting: 0,
    });
    const { coveredHours, inFlightHours, gapHours, notPlannedHours, hours } = coverage.summary;
    expect(coveredHours + inFlightHours + gapHours + notPlannedHours).toBe(hours);
    expect(coverage.covered).toEqual([
      { from: iso(0), until: iso(6) },
      { from: iso(16), until: iso(20) },
    ]);
    expect(coverage.gaps).toEqual([
      expect.objectContaining({
        from: iso(12),
        until: iso(18),
        reason: 'the upstream reported failed (after 4 attempts)',
        openHours: 4,
      }),
    ]);
  });

  it('merges covered windows that touch, and shows where windows that export data overlap', () => {
    // Prepare: back-to-back windows, an export of 3-5 over them, and a gap under the covered hours
    const windows = [
      window(0, 4),
      window(4, 8),
      window(3, 5),
      window(6, 9, WindowState.IN_FLIGHT),
      window(1, 2, WindowState.GAP),
    ];

    // Act
    const coverage = coverageOfWindows(windows, DAY, DAY.fromMs);

    // Assess: the gap holds no data, so it overlaps nothing; its hours are covered, so it is not open
    expect(coverage.covered).toEqual([{ from: iso(0), until: iso(8) }]);
    expect(coverage.overlaps).toEqual([
      { from: iso(3), until: iso(5) },
      { from: iso(6), until: iso(8) },
    ]);
    expect(coverage.summary).toMatchObject({
      coveredHours: 8,
      inFlightHours: 1,
      gapHours: 0,
      overlapHours: 4,
    });
    expect(coverage.gaps).toEqual([expect.objectContaining({ from: iso(1), until: iso(2), openHours: 0 })]);
  });

  it('lists windows in flight with their exports, and a retrying one with its next attempt and reason', () => {
    // Prepare
    const inFlight = window(2, 3, WindowState.IN_FLIGHT);
    const retrying = coverageWindowFixture({
      ...window(3, 4, WindowState.RETRYING),
      exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0001', 'ex_01kak3f4v2qz7m9d8c5b4a0002'],
      exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0002',
      attempts: 2,
    });

    // Act
    const coverage = coverageOfWindows([inFlight, retrying], DAY, DAY.fromMs);

    // Assess
    expect(coverage.inFlight).toEqual([
      {
        from: iso(2),
        until: iso(3),
        state: 'IN_FLIGHT',
        exportId: inFlight.exportId,
        exportIds: [inFlight.exportId],
        attempts: 1,
        source: { kind: 'schedule', schedule: 'daily' },
        plannedAt: inFlight.plannedAt,
      },
      {
        from: iso(3),
        until: iso(4),
        state: 'RETRYING',
        exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0002',
        exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0001', 'ex_01kak3f4v2qz7m9d8c5b4a0002'],
        attempts: 2,
        source: { kind: 'schedule', schedule: 'daily' },
        plannedAt: retrying.plannedAt,
        nextAttemptAt: '2026-11-01T02:00:00.000Z',
        reason: 'the upstream reported failed',
      },
    ]);
  });

  it('clips windows to the part asked about, and lists each on the page its start (or the range start) falls in', () => {
    // Prepare: the range starts at hour 0, the page covers hours 12-24 of it
    const part = { fromMs: at(12), untilMs: at(24) };
    const windows = [
      window(-6, 14, WindowState.GAP),
      window(10, 13, WindowState.GAP),
      window(20, 30, WindowState.GAP),
    ];

    // Act
    const fromRangeStart = coverageOfWindows(windows, part, at(0));
    const fromPageStart = coverageOfWindows(windows, part, at(12));

    // Assess: hours within the page only; the first two windows started on an earlier page
    expect(fromRangeStart.summary).toMatchObject({ hours: 12, gapHours: 6, notPlannedHours: 6 });
    expect(fromRangeStart.gaps.map((gap) => gap.from)).toEqual([iso(20)]);
    expect(fromRangeStart.gaps[0]?.openHours).toBe(4);
    // A range that starts at the page: both windows reaching into it from before are listed here.
    expect(fromPageStart.gaps.map((gap) => gap.from)).toEqual([iso(-6), iso(10), iso(20)]);
  });

  it('answers a stretch with no window as every hour not planned', () => {
    // Act
    const coverage = coverageOfWindows([], DAY, DAY.fromMs);

    // Assess
    expect(coverage).toEqual({
      covered: [],
      provisional: [],
      coveredWindows: [],
      overlaps: [],
      gaps: [],
      inFlight: [],
      summary: {
        hours: 24,
        coveredHours: 0,
        inFlightHours: 0,
        gapHours: 0,
        notPlannedHours: 24,
        overlapHours: 0,
        provisionalHours: 0,
        restatementsWaiting: 0,
      },
    });
  });

  it('lists covered windows with their versions, and the covered hours no settled window holds as provisional', () => {
    // Prepare: 00-06 settled (no restatement age left), 06-12 waiting for its P1D restatement
    const settled = {
      ...window(0, 6),
      restate: ['P1D'],
      versions: [{ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0101', exportedAt: '2026-11-02T06:00:00.000Z' }],
    };
    const provisional = {
      ...window(6, 12),
      restate: ['P1D'],
      versions: [{ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0102', exportedAt: iso(12) }],
      restatement: {
        age: 'P1D',
        state: RestatementState.WAITING,
        exportIds: [],
        attempts: 0,
        dueSince: '2026-11-02T12:00:00.000Z',
        nextAttemptAt: '2026-11-03T00:00:00.000Z',
      },
    };

    // Act
    const coverage = coverageOfWindows([settled, provisional], DAY, DAY.fromMs, DAY.untilMs);

    // Assess
    expect(coverage.provisional).toEqual([{ from: iso(6), until: iso(12) }]);
    expect(coverage.summary).toMatchObject({ coveredHours: 12, provisionalHours: 6, restatementsWaiting: 1 });
    expect(coverage.coveredWindows.map((w) => [w.from, w.currency, w.versions.length])).toEqual([
      [iso(0), 'settled', 1],
      [iso(6), 'provisional', 1],
    ]);
    expect(coverage.coveredWindows[1]?.nextRestatementAt).toBe('2026-11-03T00:00:00.000Z');
  });
});

describe('hoursOf', () => {
  it('gives hours to the thousandth', () => {
    expect(hoursOf(3_600_000)).toBe(1);
    expect(hoursOf(90 * 60_000)).toBe(1.5);
    expect(hoursOf(1000)).toBe(0);
    expect(hoursOf(3600)).toBe(0.001);
  });
});
