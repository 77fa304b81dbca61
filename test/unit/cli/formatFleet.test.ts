import { describe, expect, it } from 'vitest';
import type { SpotStatusView } from '../../../cli/FleetView';
import { formatFleet } from '../../../cli/formatFleet';

const NOW_MS = Date.parse('2026-12-07T12:00:00Z');

function spot(spotId: string, restatements?: SpotStatusView['restatements']): SpotStatusView {
  return {
    spotId,
    configured: true,
    coveredUntil: '2026-12-07T11:00:00Z',
    hoursBehind: 1,
    freshnessTargetHours: 48,
    stale: false,
    queued: 0,
    backfills: [],
    gaps: { count: 0, hours: 0 },
    ...(restatements !== undefined && { restatements }),
  };
}

describe('formatFleet', () => {
  it("shows a spot's provisional hours and the restatements waiting for the daily budget", () => {
    // Act
    const text = formatFleet(
      [
        spot('sp_alpha', { provisionalHours: 36, waiting: 2 }),
        spot('sp_beta', { provisionalHours: 0, waiting: 0 }),
        spot('sp_gamma'),
      ],
      { colour: false, nowMs: NOW_MS },
    );

    // Assess: only what is worth reading; an API without restatements shows nothing of them
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('sp_alpha'))).toMatch(
      / · 36 h provisional, 2 restatement\(s\) waiting for the daily budget$/,
    );
    expect(lines.find((line) => line.includes('sp_beta'))).not.toMatch(/provisional|restatement/);
    expect(lines.find((line) => line.includes('sp_gamma'))).not.toMatch(/provisional|restatement/);
    expect(text).toContain('All 3 spot(s) fine.');
  });

  it('shows restatements waiting even when no hour is provisional any more', () => {
    // Act
    const text = formatFleet([spot('sp_alpha', { provisionalHours: 0, waiting: 1 })], {
      colour: false,
      nowMs: NOW_MS,
    });

    // Assess
    expect(text).toContain('0 h provisional, 1 restatement(s) waiting for the daily budget');
  });
});
