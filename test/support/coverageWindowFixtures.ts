import { type CoverageWindow, WindowState } from '../../lib/exports/coverage/CoverageLedger';

let exportCounter = 0;

/** An export id for fixtures: well formed, a new one each call. */
export function fixtureExportId(): string {
  exportCounter += 1;
  return `ex_01kak3f4v2qz7m9d8c5b4a${String(exportCounter).padStart(4, '0')}`;
}

/** A window of the ledger as a planner and an export's end would leave it, in the state asked for. */
export function coverageWindowFixture(
  window: Pick<CoverageWindow, 'from' | 'until'> & Partial<CoverageWindow>,
): CoverageWindow {
  const exportId = window.exportId ?? fixtureExportId();
  const state = window.state ?? WindowState.COVERED;
  return {
    spotId: 'sp_demo',
    state,
    source: { kind: 'schedule', schedule: 'daily' },
    exportId,
    exportIds: [exportId],
    attempts: 1,
    plannedAt: '2026-11-01T00:00:00.000Z',
    ...(state === WindowState.COVERED && { rows: 250, coveredAt: '2026-11-01T01:00:00.000Z' }),
    ...(state === WindowState.GAP && { reason: 'the upstream reported failed (after 4 attempts)' }),
    ...(state === WindowState.RETRYING && {
      reason: 'the upstream reported failed',
      nextAttemptAt: '2026-11-01T02:00:00.000Z',
    }),
    version: 1,
    ...window,
  };
}
