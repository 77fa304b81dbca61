import { describe, expect, it } from 'vitest';
import { RestatementState, WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import {
  recordExportOutcome,
  recordExportOutcomeLater,
} from '../../../../../lib/exports/restatement/recordExportOutcome';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const FROM = '2026-10-30T10:00:00Z';
const UNTIL = '2026-10-30T11:00:00Z';
const FIRST = 'ex_01kak3f4v2qz7m9d8c5b4a0001';
const RESTATED = 'ex_01kak3f4v2qz7m9d8c5b4a0002';

async function coveredAndRestating() {
  const lifecycle = inMemoryLifecycle({ windowRetryAttempts: 0 });
  await lifecycle.coverage.claimWindow({
    spotId: SPOT,
    from: FROM,
    until: UNTIL,
    state: WindowState.COVERED,
    source: { kind: 'schedule', schedule: 'hourly' },
    exportId: FIRST,
    exportIds: [FIRST],
    attempts: 1,
    plannedAt: UNTIL,
    restate: ['P1D'],
    versions: [{ exportId: FIRST, exportedAt: '2026-10-30T11:00:05.000Z' }],
    restatement: {
      age: 'P1D',
      state: RestatementState.IN_FLIGHT,
      exportId: RESTATED,
      exportIds: [RESTATED],
      attempts: 1,
      dueSince: '2026-10-31T11:00:00.000Z',
    },
  });
  return lifecycle;
}

const failedRestatement = exportRecordFixture({
  spotId: SPOT,
  exportId: RESTATED,
  request: { kind: 'dateRange', from: FROM, until: UNTIL },
  source: 'schedule',
  origin: { schedule: 'hourly', restatement: { age: 'P1D' } },
  status: ExportStatus.FAILED,
  failureReason: 'the upstream reported failed',
});

describe('recordExportOutcome', () => {
  it("writes a restatement's failure to the window's restatement: the window stays covered, no gap", async () => {
    // Prepare
    const lifecycle = await coveredAndRestating();

    // Act
    await recordExportOutcome(lifecycle.deps, failedRestatement);

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window?.state).toBe(WindowState.COVERED);
    expect(window?.restatement?.state).toBe(RestatementState.GIVEN_UP);
    expect(lifecycle.gaps).toEqual([]);
  });

  it("writes any other export's end to its window as before", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act: an API export of a range, completed with archiving off, is recorded as a covered window
    await recordExportOutcome(
      { ...lifecycle.deps, settings: { ...lifecycle.deps.settings, archiving: false } },
      exportRecordFixture({
        spotId: SPOT,
        exportId: FIRST,
        request: { kind: 'dateRange', from: FROM, until: UNTIL },
        status: ExportStatus.COMPLETED,
      }),
    );

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window?.state).toBe(WindowState.COVERED);
    expect(window?.versions?.map((v) => v.exportId)).toEqual([FIRST]);
  });
});

describe('recordExportOutcomeLater', () => {
  it('counts a failure to write instead of throwing it', async () => {
    // Prepare
    const lifecycle = await coveredAndRestating();
    const deps = {
      ...lifecycle.deps,
      coverage: {
        ...lifecycle.deps.coverage,
        getWindow: async () => {
          throw new Error('the table is unavailable');
        },
      },
    } as unknown as typeof lifecycle.deps;

    // Act
    await recordExportOutcomeLater(deps, failedRestatement);

    // Assess
    expect(lifecycle.metrics).toContain('CoverageOutcomesDeferred');
  });
});
