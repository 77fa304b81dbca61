import { describe, expect, it } from 'vitest';
import { WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import {
  advanceWindow,
  planWindowExport,
  recordWindowOutcome,
  recordWindowOutcomeLater,
  windowOutcomeOf,
} from '../../../../../lib/exports/coverage/coverageWindows';
import { ArchiveStatus } from '../../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { REQUEST_REJECTED_REASON_PREFIX } from '../../../../../lib/exports/record/failureReasons';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const FROM = '2026-10-31T00:00:00Z';
const UNTIL = '2026-11-01T00:00:00Z';
const DAY = { fromMs: Date.parse(FROM), untilMs: Date.parse(UNTIL) };
const SCHEDULE = { kind: 'schedule' as const, schedule: 'daily' };
const COOLDOWN_SECONDS = 600;

/** The export a window names, ended the way a test says. */
function endedExport(exportId: string, ending: Partial<ExportRecord>): ExportRecord {
  return exportRecordFixture({
    spotId: SPOT,
    exportId,
    request: { kind: 'dateRange', from: FROM, until: UNTIL },
    source: 'schedule',
    origin: { schedule: 'daily' },
    ...ending,
  });
}

async function plannedDay(lifecycle: InMemoryLifecycle) {
  return (await planWindowExport(lifecycle.deps, SPOT, DAY, SCHEDULE)).window;
}

describe('windowOutcomeOf', () => {
  it.each([
    [
      'archived',
      { status: ExportStatus.COMPLETED, archive: archive(ArchiveStatus.ARCHIVED) },
      true,
      { kind: 'covered', rows: 250 },
    ],
    [
      'still archiving',
      { status: ExportStatus.COMPLETED, archive: archive(ArchiveStatus.PENDING) },
      true,
      undefined,
    ],
    [
      'archive failed',
      { status: ExportStatus.COMPLETED, archive: archive(ArchiveStatus.FAILED) },
      true,
      { kind: 'failed', reason: 'the archive failed: link expired', retryable: true },
    ],
    ['completed, nothing archived', { status: ExportStatus.COMPLETED }, false, { kind: 'covered' }],
    [
      'upstream failed',
      { status: ExportStatus.FAILED, failureReason: 'the upstream reported failed' },
      true,
      { kind: 'failed', reason: 'the upstream reported failed', retryable: true },
    ],
    [
      'request refused',
      { status: ExportStatus.FAILED, failureReason: `${REQUEST_REJECTED_REASON_PREFIX}bad` },
      true,
      { kind: 'failed', reason: `${REQUEST_REJECTED_REASON_PREFIX}bad`, retryable: false },
    ],
    [
      'aborted by request',
      { status: ExportStatus.ABORTED },
      true,
      { kind: 'failed', reason: 'aborted by request', retryable: false },
    ],
    [
      'deadline abort',
      { status: ExportStatus.ABORTED, failureReason: 'the deadline passed' },
      true,
      { kind: 'failed', reason: 'the deadline passed', retryable: true },
    ],
    ['running', { status: ExportStatus.PROCESSING }, true, undefined],
  ] as const)('reads %s', (_name, ending, archiving, expected) => {
    // Act
    const outcome = windowOutcomeOf(endedExport('ex_1', ending), archiving);

    // Assess
    expect(outcome).toEqual(expected);
  });
});

function archive(status: ArchiveStatus): ExportRecord['archive'] {
  return {
    status,
    ...(status === ArchiveStatus.ARCHIVED && { rows: 250 }),
    ...(status === ArchiveStatus.FAILED && { reason: 'link expired' }),
  } as ExportRecord['archive'];
}

describe('planWindowExport', () => {
  it('records the window IN_FLIGHT and queues the export it names, once however often it is planned', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const first = await planWindowExport(lifecycle.deps, SPOT, DAY, SCHEDULE);
    const again = await planWindowExport(lifecycle.deps, SPOT, DAY, SCHEDULE);

    // Assess
    expect(first.planned).toBe(true);
    expect(first.window).toMatchObject({
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      state: WindowState.IN_FLIGHT,
    });
    expect(again).toEqual({ window: first.window, planned: false });
    const record = await lifecycle.store.getExport(SPOT, first.window.exportId);
    expect(record).toMatchObject({
      request: { kind: 'dateRange', from: FROM, until: UNTIL },
      source: 'schedule',
      origin: { schedule: 'daily' },
    });
    expect(lifecycle.metrics.filter((name) => name === 'CoverageWindowsPlanned')).toHaveLength(1);
    // The reconciler looks again once the export had time to be checked, not at the start's lease.
    expect(first.window.dueAt).toBe(
      new Date(
        lifecycle.clock.nowMs + lifecycle.deps.settings.reconcileStaleAfterSeconds * 1000,
      ).toISOString(),
    );
  });

  it('plans a GAP again only when asked to refill it, keeping the exports that tried it', async () => {
    // Prepare: a window given up on
    const lifecycle = inMemoryLifecycle({ windowRetryAttempts: 0 });
    const planned = await plannedDay(lifecycle);
    await recordWindowOutcome(lifecycle.deps, endedExport(planned.exportId, { status: ExportStatus.FAILED }));

    // Act
    const untouched = await planWindowExport(lifecycle.deps, SPOT, DAY, SCHEDULE);
    const refilled = await planWindowExport(lifecycle.deps, SPOT, DAY, SCHEDULE, { refillGap: true });

    // Assess
    expect(untouched).toMatchObject({ planned: false, window: { state: WindowState.GAP } });
    expect(refilled).toMatchObject({ planned: true, window: { state: WindowState.IN_FLIGHT } });
    expect(refilled.window.exportIds).toEqual([planned.exportId, refilled.window.exportId]);
  });
});

describe('recordWindowOutcome', () => {
  it('covers the window once its export is archived, with the rows, and no check left due', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const planned = await plannedDay(lifecycle);

    // Act
    await recordWindowOutcome(
      lifecycle.deps,
      endedExport(planned.exportId, {
        status: ExportStatus.COMPLETED,
        archive: archive(ArchiveStatus.ARCHIVED),
      }),
    );

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    expect(window).toMatchObject({ state: WindowState.COVERED, rows: 250, exportIds: [planned.exportId] });
    expect(window).not.toHaveProperty('dueAt');
  });

  it('retries a passing failure after a cooldown that doubles with each attempt, then gives up with a GAP', async () => {
    // Prepare: two retries allowed
    const lifecycle = inMemoryLifecycle({
      windowRetryAttempts: 2,
      windowRetryCooldownSeconds: COOLDOWN_SECONDS,
    });
    let window = await plannedDay(lifecycle);
    const cooldowns: number[] = [];

    // Act: every attempt fails upstream
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await recordWindowOutcome(
        lifecycle.deps,
        endedExport(window.exportId, {
          status: ExportStatus.FAILED,
          failureReason: 'the upstream reported failed',
        }),
      );
      window = (await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)) ?? window;
      if (window.state !== WindowState.RETRYING) break;
      cooldowns.push(Date.parse(window.nextAttemptAt ?? '') - lifecycle.clock.nowMs);
      lifecycle.clock.advance(Date.parse(window.nextAttemptAt ?? '') - lifecycle.clock.nowMs + 1);
      expect(await advanceWindow(lifecycle.deps, window)).toBe('retried');
      window = (await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)) ?? window;
    }

    // Assess
    expect(cooldowns).toEqual([COOLDOWN_SECONDS * 1000, 2 * COOLDOWN_SECONDS * 1000]);
    expect(window).toMatchObject({
      state: WindowState.GAP,
      attempts: 3,
      reason: 'the upstream reported failed (after 3 attempts)',
    });
    expect(window.exportIds).toHaveLength(3);
    expect(lifecycle.gaps.map((gap) => gap.reason)).toEqual([window.reason]);
    expect(lifecycle.metrics).toContain('CoverageGaps');
  });

  it('makes a refused request a GAP at once, and ignores the failure of an attempt that is not the current one', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const planned = await plannedDay(lifecycle);

    // Act
    await recordWindowOutcome(lifecycle.deps, endedExport('ex_older', { status: ExportStatus.FAILED }));
    const afterOld = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    await recordWindowOutcome(
      lifecycle.deps,
      endedExport(planned.exportId, {
        status: ExportStatus.FAILED,
        failureReason: `${REQUEST_REJECTED_REASON_PREFIX}range too long`,
      }),
    );

    // Assess
    expect(afterOld?.state).toBe(WindowState.IN_FLIGHT);
    expect(await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)).toMatchObject({
      state: WindowState.GAP,
      reason: `${REQUEST_REJECTED_REASON_PREFIX}range too long`,
    });
  });

  it('adds the window of a covered export the ledger did not plan (an API start), and none for a failed one', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const apiExport = (status: ExportStatus, from: string) =>
      exportRecordFixture({
        spotId: SPOT,
        request: { kind: 'dateRange', from, until: UNTIL },
        status,
        ...(status === ExportStatus.COMPLETED && { archive: archive(ArchiveStatus.ARCHIVED) }),
      });

    // Act
    await recordWindowOutcome(lifecycle.deps, apiExport(ExportStatus.COMPLETED, FROM));
    await recordWindowOutcome(lifecycle.deps, apiExport(ExportStatus.FAILED, '2026-10-30T00:00:00Z'));

    // Assess
    const { windows } = await lifecycle.coverage.listWindows(SPOT, {
      from: '2026-10-01T00:00:00Z',
      until: UNTIL,
      limit: 10,
    });
    expect(windows).toEqual([
      expect.objectContaining({ from: FROM, state: WindowState.COVERED, source: { kind: 'api' }, rows: 250 }),
    ]);
  });

  it('counts an outcome it could not write instead of failing the caller, when asked to write it later', async () => {
    // Prepare: a ledger that cannot be read
    const lifecycle = inMemoryLifecycle();
    lifecycle.deps.coverage.getWindow = async () => {
      throw new Error('table unavailable');
    };

    // Act
    await recordWindowOutcomeLater(
      lifecycle.deps,
      endedExport('ex_1', { status: ExportStatus.COMPLETED, archive: archive(ArchiveStatus.ARCHIVED) }),
    );

    // Assess
    expect(lifecycle.metrics).toEqual(['CoverageOutcomesDeferred']);
  });
});

describe('advanceWindow', () => {
  it('records the export of a window whose start died before recording it', async () => {
    // Prepare: a window planned, its export never written (the start crashed)
    const lifecycle = inMemoryLifecycle();
    const { window } = await lifecycle.coverage.claimWindow({
      spotId: SPOT,
      from: FROM,
      until: UNTIL,
      state: WindowState.IN_FLIGHT,
      source: SCHEDULE,
      exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001',
      exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0001'],
      attempts: 1,
      plannedAt: FROM,
      dueAt: FROM,
    });

    // Act
    const advanced = await advanceWindow(lifecycle.deps, window);

    // Assess
    expect(advanced).toBe('started');
    expect(await lifecycle.store.getExport(SPOT, window.exportId)).toMatchObject({
      request: { from: FROM, until: UNTIL },
    });
  });

  it('looks again later at a window whose export still runs, and settles one whose end was missed', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const window = await plannedDay(lifecycle);

    // Act
    const running = await advanceWindow(lifecycle.deps, window);
    const current = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    await lifecycle.store.transition(SPOT, window.exportId, {
      from: [ExportStatus.QUEUED, ExportStatus.REQUESTED],
      to: ExportStatus.ABORTED,
      changes: { completedAt: UNTIL },
    });
    const settled = await advanceWindow(lifecycle.deps, current ?? window);

    // Assess
    expect(running).toBe('waiting');
    expect(settled).toBe('settled');
    expect(await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)).toMatchObject({
      state: WindowState.GAP,
      reason: 'aborted by request',
    });
  });
});
