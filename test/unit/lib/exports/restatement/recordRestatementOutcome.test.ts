import { describe, expect, it } from 'vitest';
import {
  type CoverageWindow,
  RestatementState,
  WindowState,
} from '../../../../../lib/exports/coverage/CoverageLedger';
import { ArchiveStatus } from '../../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { recordRestatementOutcome } from '../../../../../lib/exports/restatement/recordRestatementOutcome';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const FROM = '2026-10-30T10:00:00Z';
const UNTIL = '2026-10-30T11:00:00Z';
const FIRST = 'ex_01kak3f4v2qz7m9d8c5b4a0001';
const RESTATED = 'ex_01kak3f4v2qz7m9d8c5b4a0002';

/** A covered window whose P1D restatement runs (the clock is 2026-11-01T12:00Z, past P1D, before P7D). */
async function restating(lifecycle: InMemoryLifecycle, attempts = 1): Promise<CoverageWindow> {
  const { window } = await lifecycle.coverage.claimWindow({
    spotId: SPOT,
    from: FROM,
    until: UNTIL,
    state: WindowState.COVERED,
    source: { kind: 'schedule', schedule: 'hourly' },
    exportId: FIRST,
    exportIds: [FIRST],
    attempts: 1,
    plannedAt: UNTIL,
    rows: 250,
    restate: ['P1D', 'P7D'],
    versions: [{ exportId: FIRST, exportedAt: '2026-10-30T11:00:05.000Z' }],
    restatement: {
      age: 'P1D',
      state: RestatementState.IN_FLIGHT,
      exportId: RESTATED,
      exportIds: [RESTATED],
      attempts,
      dueSince: '2026-10-31T11:00:00.000Z',
    },
  });
  return window;
}

function restatementExport(ending: Partial<ExportRecord>): ExportRecord {
  return exportRecordFixture({
    spotId: SPOT,
    exportId: RESTATED,
    request: { kind: 'dateRange', from: FROM, until: UNTIL },
    source: 'schedule',
    origin: { schedule: 'hourly', restatement: { age: 'P1D' } },
    requestedAt: '2026-11-01T11:59:00.000Z',
    startedAt: '2026-11-01T11:59:30.000Z',
    ...ending,
  });
}

const archived = {
  status: ExportStatus.COMPLETED,
  archive: { status: ArchiveStatus.ARCHIVED, rows: 240, files: [], claimedAt: '2026-11-01T12:00:00.000Z' },
} as unknown as Partial<ExportRecord>;

describe('recordRestatementOutcome', () => {
  it('adds an archived restatement as the newest version, and sets the window due at its next age', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    await restating(lifecycle);

    // Act
    await recordRestatementOutcome(lifecycle.deps, restatementExport(archived));
    await recordRestatementOutcome(lifecycle.deps, restatementExport(archived));

    // Assess: once, however often it is told
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window?.state).toBe(WindowState.COVERED);
    expect(window?.versions).toEqual([
      { exportId: FIRST, exportedAt: '2026-10-30T11:00:05.000Z' },
      { exportId: RESTATED, exportedAt: '2026-11-01T11:59:30.000Z', age: 'P1D' },
    ]);
    expect(window?.rows).toBe(240);
    expect(window?.restatement?.state).toBe(RestatementState.ARCHIVED);
    expect(window?.dueAt).toBe('2026-11-06T11:00:00.000Z');
    expect(lifecycle.metrics.filter((name) => name === 'RestatementsArchived')).toHaveLength(1);
  });

  it('retries a restatement that failed for a reason that may pass, after the cooldown, the window still covered', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ windowRetryCooldownSeconds: 600, windowRetryAttempts: 2 });
    await restating(lifecycle);

    // Act
    await recordRestatementOutcome(
      lifecycle.deps,
      restatementExport({ status: ExportStatus.FAILED, failureReason: 'polling deadline passed' }),
    );

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window?.state).toBe(WindowState.COVERED);
    expect(window?.versions).toHaveLength(1);
    expect(window?.restatement).toMatchObject({
      state: RestatementState.RETRYING,
      reason: 'polling deadline passed',
      nextAttemptAt: '2026-11-01T12:10:00.000Z',
    });
    expect(window?.dueAt).toBe('2026-11-01T12:10:00.000Z');
  });

  it('gives up once the attempts are spent: the older version stays, the age is not tried again', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ windowRetryAttempts: 1 });
    await restating(lifecycle, 2);

    // Act
    await recordRestatementOutcome(
      lifecycle.deps,
      restatementExport({ status: ExportStatus.FAILED, failureReason: 'the upstream reported failed' }),
    );

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window?.state).toBe(WindowState.COVERED);
    expect(window?.versions?.map((v) => v.exportId)).toEqual([FIRST]);
    expect(window?.restatement).toMatchObject({
      state: RestatementState.GIVEN_UP,
      reason: 'the upstream reported failed (after 2 attempts)',
    });
    expect(window?.givenUpAges).toEqual(['P1D']);
    expect(window?.dueAt).toBe('2026-11-06T11:00:00.000Z');
    expect(lifecycle.gaps).toEqual([]);
    expect(lifecycle.metrics).toContain('RestatementsGivenUp');
  });

  it("ignores an older attempt's failure and an export that is no restatement", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const before = await restating(lifecycle);

    // Act
    await recordRestatementOutcome(
      lifecycle.deps,
      restatementExport({
        exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0003',
        status: ExportStatus.FAILED,
        failureReason: 'polling deadline passed',
      }),
    );
    await recordRestatementOutcome(
      lifecycle.deps,
      restatementExport({ ...archived, origin: { schedule: 'hourly' } }),
    );

    // Assess
    expect(await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)).toEqual(before);
  });
});
