import { describe, expect, it } from 'vitest';
import { CoverageCell, cellOf, formatCoverage, hoursText } from '../../../cli/formatCoverage';
import { COVERAGE_SPOT, coverageView } from './support/coverageViews';

const HOUR_MS = 3_600_000;
const hour = { fromMs: 0, untilMs: HOUR_MS };
const part = (fromMinute: number, untilMinute: number) => ({
  fromMs: fromMinute * 60_000,
  untilMs: untilMinute * 60_000,
});
const NO_PARTS = { covered: [], provisional: [], inFlight: [], gap: [], notPlanned: [] };

describe('formatCoverage', () => {
  it('draws a line per UTC day with a cell per hour and the hours covered that day, then the legend and the totals', () => {
    // Act
    const text = formatCoverage(coverageView());

    // Assess
    expect(text).toContain(
      [
        'Coverage of sp_demo from 2026-11-20 09:30 to 2026-11-21 12:00 UTC (26.5 h)',
        '',
        'UTC hour    00     06     12     18       covered',
        '2026-11-20            ### ###### ######   14.5 h',
        '2026-11-21  ###### XX~~..                    6 h',
        '',
        '# covered (archived)   ~ in flight or retrying   X gap (given up)   . not planned   blank: outside the range',
        'An hour shows what holds most of it, and X wherever a gap touches it.',
        '',
        'In all: 20.5 h covered, 2 h in flight, 2 h gap, 2 h not planned, of 26.5 h.',
      ].join('\n'),
    );
  });

  it('lists each gap with its reason, attempts, exports and the command that fills it', () => {
    // Act
    const text = formatCoverage(coverageView());

    // Assess
    expect(text).toContain(
      [
        'Gaps (1): windows given up on, exported again only when filled:',
        '  2026-11-21 06:00 → 2026-11-21 08:00 UTC (2 h), schedule hourly, 4 attempts',
        '    why:     the upstream reported failed (after 4 attempts)',
        '    exports: ex_01kak3f4v2qz7m9d8c5b4a0001, ex_01kak3f4v2qz7m9d8c5b4a0002',
        `    fill it: npx openweb-exports start --spot ${COVERAGE_SPOT} --from 2026-11-21T06:00:00Z --until 2026-11-21T08:00:00Z`,
      ].join('\n'),
    );
  });

  it('lists the windows in flight, a retrying one with its next attempt, then the watermarks', () => {
    // Act
    const text = formatCoverage(coverageView());

    // Assess
    expect(text).toContain(
      '  2026-11-21 08:00 → 2026-11-21 10:00 UTC (2 h)  RETRYING, schedule hourly, export ex_01kak3f4v2qz7m9d8c5b4a0003, ' +
        '1 attempt, next attempt at 2026-11-21 10:20 UTC (polling deadline passed)',
    );
    expect(text).toMatch(
      /Schedules' watermarks .*\n {2}hourly {2}2026-11-21 10:00 UTC \(moved 2026-11-21 10:00:01 UTC\)\n$/,
    );
  });

  it('says a gap another window covered since is no longer open, and gives no command for it', () => {
    // Prepare
    const [gap] = coverageView().gaps;
    const view = coverageView({ gaps: [{ ...(gap as NonNullable<typeof gap>), openHours: 0 }] });

    // Act
    const text = formatCoverage(view);

    // Assess
    expect(text).toContain('4 attempts, covered since by another window');
    expect(text).not.toContain('fill it:');
  });

  it('shows the hours exported twice, and says so when nothing is in flight or given up on', () => {
    // Prepare
    const view = coverageView({
      gaps: [],
      inFlight: [],
      overlaps: [{ from: '2026-11-20T10:00:00Z', until: '2026-11-20T11:30:00Z' }],
      summary: {
        hours: 26.5,
        coveredHours: 20.5,
        inFlightHours: 0,
        gapHours: 0,
        notPlannedHours: 6,
        overlapHours: 1.5,
        provisionalHours: 0,
        restatementsWaiting: 0,
      },
      watermarks: [],
    });

    // Act
    const text = formatCoverage(view);

    // Assess
    expect(text).toContain('of 26.5 h. 1.5 h exported by more than one window.');
    expect(text).toContain(
      'Gaps: none.\n\nIn flight: none.\n\nSchedules: none has planned windows for this spot yet.\n',
    );
  });

  it('answers a range nothing was planned in with one sentence instead of a timeline', () => {
    // Prepare
    const view = coverageView({
      covered: [],
      gaps: [],
      inFlight: [],
      watermarks: [],
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
    });

    // Act
    const text = formatCoverage(view);

    // Assess
    expect(text).toContain('Nothing is planned in this range');
    expect(text).not.toContain('UTC hour');
  });
});

describe('formatCoverage of provisional hours', () => {
  it('draws them with their own cell, explains it, and says how many restatements wait for the budget', () => {
    // Prepare: the first six covered hours are provisional
    const view = coverageView({
      provisional: [{ from: '2026-11-20T09:30:00Z', until: '2026-11-20T15:30:00Z' }],
      summary: { ...coverageView().summary, provisionalHours: 6, restatementsWaiting: 2 },
    });

    // Act
    const text = formatCoverage(view);

    // Assess
    expect(text).toContain('2026-11-20            +++ ++++## ######   14.5 h');
    expect(text).toContain('+ covered, provisional: exported again at its restatement ages, not settled yet');
    expect(text).toContain(
      "6 h of the covered are provisional. 2 restatement(s) waiting for the spot's daily budget.",
    );
  });
});

describe('cellOf', () => {
  it('marks an hour a gap touches as a gap, however little of it', () => {
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 59)], gap: [part(59, 60)] })).toBe(CoverageCell.GAP);
  });

  it('shows what holds most of the hour', () => {
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 55)], notPlanned: [part(55, 60)] })).toBe(
      CoverageCell.COVERED,
    );
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 20)], inFlight: [part(20, 60)] })).toBe(
      CoverageCell.IN_FLIGHT,
    );
  });

  it('shows a covered hour whose restatement is still to come as provisional, apart from a settled one', () => {
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 20)], provisional: [part(20, 60)] })).toBe(
      CoverageCell.PROVISIONAL,
    );
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 40)], provisional: [part(40, 60)] })).toBe(
      CoverageCell.COVERED,
    );
  });

  it('shows the less covered state on a tie', () => {
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 30)], notPlanned: [part(30, 60)] })).toBe(
      CoverageCell.NOT_PLANNED,
    );
    expect(cellOf(hour, { ...NO_PARTS, covered: [part(0, 30)], inFlight: [part(30, 60)] })).toBe(
      CoverageCell.IN_FLIGHT,
    );
  });
});

describe('hoursText', () => {
  it.each([
    [24, '24 h'],
    [14.5, '14.5 h'],
    [2.04, '2 h'],
    [0.001, '<0.1 h'],
    [0, '0 h'],
  ])('writes %d hours as %s', (hours, text) => {
    expect(hoursText(hours)).toBe(text);
  });
});
