import { describe, expect, it } from 'vitest';
import {
  type CoverageWindow,
  RestatementState,
  WindowState,
} from '../../../../../lib/exports/coverage/CoverageLedger';
import { QueuePriority } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { refreshWindow, restateWindow } from '../../../../../lib/exports/restatement/restateWindow';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const FROM = '2026-11-01T10:00:00Z';
const UNTIL = '2026-11-01T11:00:00Z';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FIRST_EXPORT = 'ex_01kak3f4v2qz7m9d8c5b4a0001';

/** A window covered by its first export at its end, restated at P1D and P7D. */
async function coveredWindow(lifecycle: InMemoryLifecycle, overrides: Partial<CoverageWindow> = {}) {
  const { window } = await lifecycle.coverage.claimWindow({
    spotId: SPOT,
    from: FROM,
    until: UNTIL,
    state: WindowState.COVERED,
    source: { kind: 'schedule', schedule: 'hourly' },
    exportId: FIRST_EXPORT,
    exportIds: [FIRST_EXPORT],
    attempts: 1,
    plannedAt: UNTIL,
    restate: ['P1D', 'P7D'],
    versions: [{ exportId: FIRST_EXPORT, exportedAt: '2026-11-01T11:00:05.000Z' }],
    dueAt: new Date(Date.parse(UNTIL) + DAY_MS).toISOString(),
    ...overrides,
  });
  return window;
}

function at(lifecycle: InMemoryLifecycle, ms: number): void {
  lifecycle.clock.advance(ms - lifecycle.clock.nowMs);
}

describe('restateWindow', () => {
  it('waits for the first age, and tells the reconciler when to look again', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + HOUR_MS);
    const window = await coveredWindow(lifecycle, { dueAt: '2026-11-01T11:30:00.000Z' });

    // Act
    const advanced = await restateWindow(lifecycle.deps, window);

    // Assess
    expect(advanced).toBe('nothing to do');
    expect((await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL))?.dueAt).toBe('2026-11-02T11:00:00.000Z');
    expect(await lifecycle.store.listExports(SPOT, { limit: 10 })).toMatchObject({ items: [] });
  });

  it('starts an ordinary export of the window once it is that old, marked as a restatement, queued as one', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + DAY_MS + 60_000);
    const window = await coveredWindow(lifecycle);

    // Act
    const advanced = await restateWindow(lifecycle.deps, window);

    // Assess
    const after = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    const record = await lifecycle.store.getExport(SPOT, after?.restatement?.exportId as string);
    expect(advanced).toBe('started');
    expect(after?.state).toBe(WindowState.COVERED);
    expect(after?.restatement).toMatchObject({ age: 'P1D', state: RestatementState.IN_FLIGHT, attempts: 1 });
    expect(record?.request).toEqual({ kind: 'dateRange', from: FROM, until: UNTIL });
    expect(record?.origin).toEqual({ schedule: 'hourly', restatement: { age: 'P1D' } });
    expect(record?.status).toBe(ExportStatus.REQUESTED);
    expect(lifecycle.metrics).toContain('RestatementsStarted');
  });

  it('restates once at the oldest due age when several are due', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + 8 * DAY_MS);
    const window = await coveredWindow(lifecycle);

    // Act
    await restateWindow(lifecycle.deps, window);

    // Assess
    expect((await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL))?.restatement?.age).toBe('P7D');
  });

  it('queues behind the running export of the spot, as a restatement', async () => {
    // Prepare: the spot runs another export
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + DAY_MS + 60_000);
    await lifecycle.spotLocks.acquire(SPOT, 'ex_01kak3f4v2qz7m9d8c5b4a0999', { leaseSeconds: 3600 });
    const window = await coveredWindow(lifecycle);

    // Act
    await restateWindow(lifecycle.deps, window);

    // Assess
    const after = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    const record = await lifecycle.store.getExport(SPOT, after?.restatement?.exportId as string);
    expect(record?.status).toBe(ExportStatus.QUEUED);
    expect(record?.queue?.priority).toBe(QueuePriority.RESTATEMENT);
  });

  it("lets the restatement wait for the next UTC day once the spot's budget is spent", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ restatementsPerSpotPerDay: 0 });
    at(lifecycle, Date.parse(UNTIL) + DAY_MS + 60_000);
    const window = await coveredWindow(lifecycle);

    // Act
    const advanced = await restateWindow(lifecycle.deps, window);
    const waiting = (await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)) as CoverageWindow;
    const again = await restateWindow(lifecycle.deps, waiting);

    // Assess
    expect(advanced).toBe('waiting');
    expect(again).toBe('nothing to do');
    expect(waiting.restatement).toMatchObject({
      state: RestatementState.WAITING,
      nextAttemptAt: '2026-11-03T00:00:00.000Z',
    });
    expect(waiting.dueAt).toBe('2026-11-03T00:00:00.000Z');
    expect(lifecycle.metrics.filter((name) => name === 'RestatementsWaiting')).toHaveLength(1);
  });

  it('starts nothing for a window read as it was before another run restated it (its version moved on)', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + DAY_MS + 60_000);
    const window = await coveredWindow(lifecycle);
    await restateWindow(lifecycle.deps, window);

    // Act: the same due window, as a second reconciler read it
    const advanced = await restateWindow(lifecycle.deps, window);

    // Assess
    expect(advanced).toBe('nothing to do');
    expect((await lifecycle.store.listExports(SPOT, { limit: 10 })).items).toHaveLength(1);
  });

  it('records the outcome of a restatement whose end was missed', async () => {
    // Prepare: its export ended upstream, but nothing recorded what that means for the window
    const lifecycle = inMemoryLifecycle();
    at(lifecycle, Date.parse(UNTIL) + DAY_MS + 60_000);
    await restateWindow(lifecycle.deps, await coveredWindow(lifecycle));
    const inFlight = (await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL)) as CoverageWindow;
    await lifecycle.store.transition(SPOT, inFlight.restatement?.exportId as string, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.FAILED,
      changes: { failureReason: 'the upstream reported failed' },
    });

    // Act
    const advanced = await restateWindow(lifecycle.deps, inFlight);

    // Assess
    expect(advanced).toBe('settled');
    expect((await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL))?.restatement?.state).toBe(
      RestatementState.RETRYING,
    );
  });
});

describe('refreshWindow', () => {
  it('exports a covered window again for a backfill, outside the budget, once per backfill', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ restatementsPerSpotPerDay: 0 });
    await coveredWindow(lifecycle, { restate: [] });
    const backfillId = 'bf_01kak3f4v2qz7m9d8c5b4a3e2f';

    // Act
    const first = await refreshWindow(lifecycle.deps, SPOT, { from: FROM, until: UNTIL }, backfillId);
    const again = await refreshWindow(lifecycle.deps, SPOT, { from: FROM, until: UNTIL }, backfillId);

    // Assess
    const window = await lifecycle.coverage.getWindow(SPOT, FROM, UNTIL);
    const record = await lifecycle.store.getExport(SPOT, window?.restatement?.exportId as string);
    expect([first, again]).toEqual([true, false]);
    expect(window?.restatement).toMatchObject({
      age: 'refresh',
      backfillId,
      state: RestatementState.IN_FLIGHT,
    });
    expect(record?.source).toBe('backfill');
    expect(record?.origin).toEqual({ backfillId, restatement: { age: 'refresh' } });
  });

  it('does nothing for hours that are not covered', async () => {
    const lifecycle = inMemoryLifecycle();

    expect(await refreshWindow(lifecycle.deps, SPOT, { from: FROM, until: UNTIL }, 'bf_x')).toBe(false);
  });
});
