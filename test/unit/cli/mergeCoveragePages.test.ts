import { describe, expect, it } from 'vitest';
import { mergeCoveragePages } from '../../../cli/mergeCoveragePages';
import { coverageView } from './support/coverageViews';

const ZERO = {
  hours: 0,
  coveredHours: 0,
  inFlightHours: 0,
  gapHours: 0,
  notPlannedHours: 0,
  overlapHours: 0,
  provisionalHours: 0,
  restatementsWaiting: 0,
};

describe('mergeCoveragePages', () => {
  it('joins intervals where the pages meet, adds the hours to the thousandth and keeps the last watermarks', () => {
    // Prepare
    const first = coverageView({
      page: { from: '2026-11-20T00:00:00Z', until: '2026-11-20T12:00:00Z' },
      overlaps: [{ from: '2026-11-20T11:00:00Z', until: '2026-11-20T12:00:00Z' }],
      summary: { ...ZERO, hours: 12, overlapHours: 1.001 },
      watermarks: [],
      nextToken: 'next',
    });
    const second = coverageView({
      page: { from: '2026-11-20T12:00:00Z', until: '2026-11-21T00:00:00Z' },
      overlaps: [{ from: '2026-11-20T12:00:00Z', until: '2026-11-20T12:30:00Z' }],
      summary: { ...ZERO, hours: 12, overlapHours: 0.502 },
    });

    // Act
    const merged = mergeCoveragePages([first, second]);

    // Assess
    expect(merged.page).toEqual({ from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' });
    expect(merged.overlaps).toEqual([{ from: '2026-11-20T11:00:00Z', until: '2026-11-20T12:30:00Z' }]);
    expect(merged.summary).toMatchObject({ hours: 24, overlapHours: 1.503 });
    expect(merged.gaps).toHaveLength(2);
    expect(merged.watermarks).toEqual(second.watermarks);
    expect(merged).not.toHaveProperty('nextToken');
  });

  it('keeps the token of a last page that was not the end of the range', () => {
    // Act
    const merged = mergeCoveragePages([coverageView({ nextToken: 'more' })]);

    // Assess
    expect(merged.nextToken).toBe('more');
  });
});
