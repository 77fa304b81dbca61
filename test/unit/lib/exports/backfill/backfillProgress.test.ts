import { describe, expect, it } from 'vitest';
import { type BackfillRecord, BackfillState } from '../../../../../lib/exports/backfill/BackfillRecord';
import {
  BackfillStatus,
  BackfillWindowState,
  backfillProgress,
  estimateRemainingSeconds,
  windowKey,
} from '../../../../../lib/exports/backfill/backfillProgress';
import { type CoverageWindow, WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const BACKFILL_ID = 'bf_01kak3f4v2qz7m9d8c5b4a3e2f';
const CREATED_AT = '2026-11-01T00:00:00.000Z';
const CREATED_MS = Date.parse(CREATED_AT);
const MINUTE_MS = 60_000;
const DAYS = ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05'];
const PLAN = DAYS.map((day, index) => ({
  from: `${day}T00:00:00Z`,
  until: `${DAYS[index + 1] ?? '2026-10-06'}T00:00:00Z`,
}));

function backfill(overrides: Partial<BackfillRecord> = {}): BackfillRecord {
  return {
    spotId: 'sp_demo',
    backfillId: BACKFILL_ID,
    from: '2026-10-01T00:00:00Z',
    until: '2026-10-06T00:00:00Z',
    windowHours: 24,
    windows: PLAN,
    skipped: [],
    state: BackfillState.ACTIVE,
    recording: false,
    createdAt: CREATED_AT,
    version: 1,
    ...overrides,
  };
}

function window(
  index: number,
  state: CoverageWindow['state'],
  extra: Partial<CoverageWindow> = {},
): CoverageWindow {
  const planned = PLAN[index] as { from: string; until: string };
  return {
    spotId: 'sp_demo',
    ...planned,
    state,
    source: { kind: 'backfill', backfillId: BACKFILL_ID },
    exportId: `ex_${String(index).padStart(26, '0')}`,
    exportIds: [],
    attempts: 1,
    plannedAt: CREATED_AT,
    version: 1,
    ...extra,
  };
}

/** A date range of `hours` hours, as an export's request. */
function rangeOf(hours: number) {
  return {
    kind: 'dateRange' as const,
    from: '2026-09-01T00:00:00Z',
    until: new Date(Date.parse('2026-09-01T00:00:00Z') + hours * 60 * MINUTE_MS)
      .toISOString()
      .replace('.000Z', 'Z'),
  };
}

/** A completed export of a `hours`-hour range (a day by default) that held its spot `minutes` long. */
function completed(minutes: number, backfillId?: string, hours = 24) {
  const requestedAt = new Date(CREATED_MS).toISOString();
  return exportRecordFixture({
    status: ExportStatus.COMPLETED,
    request: rangeOf(hours),
    requestedAt,
    dequeuedAt: requestedAt,
    completedAt: new Date(CREATED_MS + minutes * MINUTE_MS).toISOString(),
    ...(backfillId !== undefined && { origin: { backfillId } }),
  });
}

/** A day's export of the backfill that took the spot at CREATED_MS and is still running. */
const runningDay = () =>
  exportRecordFixture({
    status: ExportStatus.PROCESSING,
    request: rangeOf(24),
    dequeuedAt: new Date(CREATED_MS).toISOString(),
  });

describe('backfillProgress', () => {
  it('tells each window apart: done with its rows, running, queued, retrying, a gap, and sums the rows', () => {
    // Prepare
    const windows = [
      window(0, WindowState.COVERED, { rows: 120, coveredAt: CREATED_AT }),
      window(1, WindowState.GAP, { reason: 'the upstream refused the request' }),
      window(2, WindowState.IN_FLIGHT),
      window(3, WindowState.IN_FLIGHT),
      window(4, WindowState.RETRYING, { reason: 'polling deadline passed' }),
    ];
    const ledger = new Map(windows.map((w) => [windowKey(w), w]));

    // Act
    const progress = backfillProgress({
      record: backfill(),
      ledger,
      queuedExportIds: new Set([windows[3]?.exportId as string]),
      running: [],
      recentCompleted: [],
      nowMs: CREATED_MS + 10 * MINUTE_MS,
    });

    // Assess
    expect(progress.status).toBe(BackfillStatus.RUNNING);
    expect(progress.counts).toEqual({
      total: 5,
      done: 1,
      running: 1,
      queued: 1,
      retrying: 1,
      gaps: 1,
      pending: 0,
      withdrawn: 0,
    });
    expect(progress.rowsArchived).toBe(120);
    expect(progress.elapsedSeconds).toBe(600);
    expect(progress.windows.map((w) => w.state)).toEqual([
      BackfillWindowState.DONE,
      BackfillWindowState.GAP,
      BackfillWindowState.RUNNING,
      BackfillWindowState.QUEUED,
      BackfillWindowState.RETRYING,
    ]);
    expect(progress.windows[1]?.reason).toBe('the upstream refused the request');
    // No export of the spot finished yet: nothing to learn an ETA from.
    expect(progress).not.toHaveProperty('etaSeconds');
  });

  it('counts windows not in the ledger as pending while recording, and withdrawn once aborted', () => {
    // Act
    const recording = backfillProgress({
      record: backfill({ recording: true }),
      ledger: new Map(),
      queuedExportIds: new Set(),
      running: [],
      recentCompleted: [],
      nowMs: CREATED_MS,
    });
    const aborted = backfillProgress({
      record: backfill({ state: BackfillState.ABORTED, abortedAt: '2026-11-01T00:05:00.000Z' }),
      ledger: new Map(),
      queuedExportIds: new Set(),
      running: [],
      recentCompleted: [],
      nowMs: CREATED_MS + 60 * MINUTE_MS,
    });

    // Assess
    expect(recording.status).toBe(BackfillStatus.RUNNING);
    expect(recording.counts.pending).toBe(5);
    expect(aborted.status).toBe(BackfillStatus.ABORTED);
    expect(aborted.counts.withdrawn).toBe(5);
    // An aborted backfill's time ends with its abort.
    expect(aborted.elapsedSeconds).toBe(300);
  });

  it('is COMPLETED once every window is done or a gap, its time ending with the last window', () => {
    // Prepare
    const windows = PLAN.map((_, index) =>
      window(index, WindowState.COVERED, {
        rows: 10,
        coveredAt: new Date(CREATED_MS + (index + 1) * MINUTE_MS).toISOString(),
      }),
    );

    // Act
    const progress = backfillProgress({
      record: backfill(),
      ledger: new Map(windows.map((w) => [windowKey(w), w])),
      queuedExportIds: new Set(),
      running: [],
      recentCompleted: [],
      nowMs: CREATED_MS + 600 * MINUTE_MS,
    });

    // Assess
    expect(progress.status).toBe(BackfillStatus.COMPLETED);
    expect(progress.rowsArchived).toBe(50);
    expect(progress.elapsedSeconds).toBe(300);
    expect(progress.etaSeconds).toBe(0);
  });
});

describe('estimateRemainingSeconds', () => {
  it("learns from the backfill's own finished windows first: their pace, for the hours still waiting", () => {
    // Act
    const seconds = estimateRemainingSeconds({
      backfillId: BACKFILL_ID,
      waitingWindows: 3,
      waitingHours: 72,
      running: [],
      recentCompleted: [
        completed(1),
        completed(10, BACKFILL_ID),
        completed(12, BACKFILL_ID),
        completed(30, BACKFILL_ID),
      ],
      nowMs: CREATED_MS,
    });

    // Assess: the own windows' median is 12 minutes a day; the spot's scheduled 1-minute export is left out
    expect(seconds).toBe(3 * 12 * 60);
  });

  it("falls back on the spot's recent exports, and counts what is left of the running one", () => {
    // Act: the running window took the spot 4 minutes ago
    const seconds = estimateRemainingSeconds({
      backfillId: BACKFILL_ID,
      waitingWindows: 2,
      waitingHours: 48,
      running: [runningDay()],
      recentCompleted: [completed(5), completed(6), completed(7)],
      nowMs: CREATED_MS + 4 * MINUTE_MS,
    });

    // Assess: 2 × 6 min + (6 − 4) min
    expect(seconds).toBe(14 * 60);
  });

  it('scales with the hours a window covers: a month-long window at the pace of daily exports', () => {
    // Act
    const seconds = estimateRemainingSeconds({
      backfillId: BACKFILL_ID,
      waitingWindows: 1,
      waitingHours: 730,
      running: [],
      recentCompleted: [completed(24), completed(24), completed(1, undefined, 1)],
      nowMs: CREATED_MS,
    });

    // Assess: a minute per hour of range (the median of 1, 1 and 1 min/h), for 730 hours
    expect(seconds).toBe(730 * 60);
  });

  it('moves with what is measured: a running window past its expected end sets a slower pace, never a negative one', () => {
    // Act: the spot's last day took 5 minutes; this backfill's running day has held it for 60, then 90
    const at = (minutes: number) =>
      estimateRemainingSeconds({
        backfillId: BACKFILL_ID,
        waitingWindows: 1,
        waitingHours: 24,
        running: [runningDay()],
        recentCompleted: [completed(5)],
        nowMs: CREATED_MS + minutes * MINUTE_MS,
      });
    const early = at(1);
    const overrun = at(60);
    const later = at(90);

    // Assess: 5 min for the waiting day + 4 min left; then the waiting day at the running one's own pace
    expect(early).toBe(9 * 60);
    expect(overrun).toBe(60 * 60);
    expect(later).toBe(90 * 60);
  });

  it('has no estimate for a spot that never finished an export of a date range', () => {
    // Act / Assess
    expect(
      estimateRemainingSeconds({
        backfillId: BACKFILL_ID,
        waitingWindows: 4,
        waitingHours: 96,
        running: [],
        recentCompleted: [],
        nowMs: CREATED_MS,
      }),
    ).toBeUndefined();
  });
});
