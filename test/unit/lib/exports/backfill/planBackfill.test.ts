import { describe, expect, it } from 'vitest';
import { planBackfill } from '../../../../../lib/exports/backfill/planBackfill';
import {
  type CoverageWindow,
  WindowState as State,
  type WindowState,
} from '../../../../../lib/exports/coverage/CoverageLedger';
import { wholeSecondInstant } from '../../../../../lib/exports/time/intervals';

const HOUR = 3_600_000;
const h = (fromHour: number, untilHour: number) => ({ fromMs: fromHour * HOUR, untilMs: untilHour * HOUR });

function ledgerWindow(fromHour: number, untilHour: number, state: WindowState): CoverageWindow {
  return {
    spotId: 'sp_demo',
    from: wholeSecondInstant(fromHour * HOUR),
    until: wholeSecondInstant(untilHour * HOUR),
    state,
    source: { kind: 'schedule', schedule: 'nightly' },
    exportId: 'ex_0000000000aaaaaaaaaaaaaaaa',
    exportIds: ['ex_0000000000aaaaaaaaaaaaaaaa'],
    attempts: 1,
    plannedAt: wholeSecondInstant(0),
    version: 1,
  };
}

describe('planBackfill', () => {
  it('cuts an empty range into windows of the length asked, from its start', () => {
    // Act
    const plan = planBackfill(h(0, 72), [], 24);

    // Assess
    expect(plan.windows).toEqual([h(0, 24), h(24, 48), h(48, 72)]);
    expect(plan.skipped).toEqual([]);
    expect(plan.refilledGaps).toEqual([]);
  });

  it('skips every hour the ledger holds (covered, in flight, retrying) and reports them merged and clipped', () => {
    // Prepare
    const known = [
      ledgerWindow(-10, 5, State.COVERED),
      ledgerWindow(30, 40, State.IN_FLIGHT),
      ledgerWindow(40, 50, State.RETRYING),
    ];

    // Act
    const plan = planBackfill(h(0, 100), known, 24);

    // Assess
    expect(plan.windows).toEqual([h(5, 29), h(29, 30), h(50, 74), h(74, 98), h(98, 100)]);
    expect(plan.skipped).toEqual([h(0, 5), h(30, 50)]);
  });

  it('exports a gap again with its own bounds, even past the range, so the ledger replaces it in place', () => {
    // Prepare
    const known = [ledgerWindow(-6, 6, State.GAP), ledgerWindow(40, 44, State.GAP)];

    // Act
    const plan = planBackfill(h(0, 48), known, 24);

    // Assess
    expect(plan.refilledGaps).toEqual([h(-6, 6), h(40, 44)]);
    expect(plan.windows).toEqual([h(-6, 6), h(6, 30), h(30, 40), h(40, 44), h(44, 48)]);
  });

  it('plans the free hours of a gap that something else now partly holds like any free hours', () => {
    // Prepare: an export of the API covered part of the gap's hours since
    const known = [ledgerWindow(0, 24, State.GAP), ledgerWindow(10, 12, State.COVERED)];

    // Act
    const plan = planBackfill(h(0, 24), known, 730);

    // Assess
    expect(plan.refilledGaps).toEqual([]);
    expect(plan.windows).toEqual([h(0, 10), h(12, 24)]);
  });

  it('plans nothing when the ledger holds the whole range', () => {
    // Act
    const plan = planBackfill(h(0, 24), [ledgerWindow(0, 24, State.COVERED)], 730);

    // Assess
    expect(plan.windows).toEqual([]);
    expect(plan.skipped).toEqual([h(0, 24)]);
  });

  it('refuses a window length the upstream does not allow', () => {
    // Act / Assess
    expect(() => planBackfill(h(0, 1), [], 731)).toThrow(RangeError);
  });
});
