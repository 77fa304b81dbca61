import type { SpotCoverage } from '../../../../lib/exports/coverage/spotCoverageSchema';

export const COVERAGE_SPOT = 'sp_demo';

/**
 * Two days of a spot as the API answers: covered from 09:30 on the 20th to 06:00 on the 21st,
 * a gap 06:00-08:00 the export gave up on, a retrying window 08:00-10:00, nothing planned after.
 */
export function coverageView(overrides: Partial<SpotCoverage> = {}): SpotCoverage {
  return {
    spotId: COVERAGE_SPOT,
    range: { from: '2026-11-20T09:30:00Z', until: '2026-11-21T12:00:00Z' },
    page: { from: '2026-11-20T09:30:00Z', until: '2026-11-21T12:00:00Z' },
    covered: [{ from: '2026-11-20T09:30:00Z', until: '2026-11-21T06:00:00Z' }],
    provisional: [],
    coveredWindows: [],
    overlaps: [],
    gaps: [
      {
        from: '2026-11-21T06:00:00Z',
        until: '2026-11-21T08:00:00Z',
        reason: 'the upstream reported failed (after 4 attempts)',
        attempts: 4,
        exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0001', 'ex_01kak3f4v2qz7m9d8c5b4a0002'],
        source: { kind: 'schedule', schedule: 'hourly' },
        plannedAt: '2026-11-21T08:00:01.000Z',
        openHours: 2,
      },
    ],
    inFlight: [
      {
        from: '2026-11-21T08:00:00Z',
        until: '2026-11-21T10:00:00Z',
        state: 'RETRYING',
        exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0003',
        exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0003'],
        attempts: 1,
        source: { kind: 'schedule', schedule: 'hourly' },
        plannedAt: '2026-11-21T10:00:01.000Z',
        nextAttemptAt: '2026-11-21T10:20:00.000Z',
        reason: 'polling deadline passed',
      },
    ],
    summary: {
      hours: 26.5,
      coveredHours: 20.5,
      inFlightHours: 2,
      gapHours: 2,
      notPlannedHours: 2,
      overlapHours: 0,
      provisionalHours: 0,
      restatementsWaiting: 0,
    },
    watermarks: [
      { schedule: 'hourly', until: '2026-11-21T10:00:00Z', updatedAt: '2026-11-21T10:00:01.250Z' },
    ],
    ...overrides,
  };
}
