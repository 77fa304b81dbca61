import { describe, expect, it } from 'vitest';
import { BackfillState } from '../../../../../lib/exports/backfill/BackfillRecord';
import {
  BACKFILL_RECORDING_GRACE_SECONDS,
  backfillFingerprint,
  createBackfill,
  finishInterruptedBackfills,
} from '../../../../../lib/exports/backfill/createBackfill';
import { BackfillTooLargeError } from '../../../../../lib/exports/backfill/errors';
import { WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { windowsBetween } from '../../../../../lib/exports/coverage/runSchedule';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { IdempotencyKeyReusedError } from '../../../../../lib/exports/record/errors';
import { captureError } from '../../../../support/captureError';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const HOUR_MS = 3_600_000;
const FROM = '2026-10-01T00:00:00Z';
const iso = (hours: number) =>
  new Date(Date.parse(FROM) + hours * HOUR_MS).toISOString().replace('.000Z', 'Z');
const THREE_DAYS = { spotId: SPOT, from: FROM, until: iso(72), windowHours: 24 };

describe('createBackfill', () => {
  it('plans the range into windows, records each in the ledger and queues their exports behind the scheduled runs', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const { record, replayed } = await createBackfill(lifecycle.deps, THREE_DAYS);

    // Assess
    expect(replayed).toBe(false);
    expect(record).toMatchObject({ state: BackfillState.ACTIVE, recording: false, skipped: [] });
    expect(record.windows).toEqual([
      { from: iso(0), until: iso(24) },
      { from: iso(24), until: iso(48) },
      { from: iso(48), until: iso(72) },
    ]);
    const windows = await windowsBetween(lifecycle.coverage, SPOT, Date.parse(FROM), Date.parse(iso(72)));
    expect(windows.map((window) => window.source)).toEqual(
      Array.from({ length: 3 }, () => ({ kind: 'backfill', backfillId: record.backfillId })),
    );
    const exports = await Promise.all(
      windows.map((window) => lifecycle.store.getExport(SPOT, window.exportId)),
    );
    expect(exports.map((exported) => exported?.status)).toEqual([
      ExportStatus.REQUESTED,
      ExportStatus.QUEUED,
      ExportStatus.QUEUED,
    ]);
    expect(lifecycle.metrics).toContain('BackfillsCreated');
  });

  it('skips what the ledger holds already and plans a gap again', async () => {
    // Prepare: the first day covered, the second a gap
    const lifecycle = inMemoryLifecycle();
    await lifecycle.coverage.claimWindow(
      coverageWindowFixture({ spotId: SPOT, from: iso(0), until: iso(24) }),
    );
    await lifecycle.coverage.claimWindow(
      coverageWindowFixture({ spotId: SPOT, from: iso(24), until: iso(48), state: WindowState.GAP }),
    );

    // Act
    const { record } = await createBackfill(lifecycle.deps, THREE_DAYS);

    // Assess
    expect(record.skipped).toEqual([{ from: iso(0), until: iso(24) }]);
    expect(record.windows).toEqual([
      { from: iso(24), until: iso(48) },
      { from: iso(48), until: iso(72) },
    ]);
    expect(await lifecycle.coverage.getWindow(SPOT, iso(24), iso(48))).toMatchObject({
      state: WindowState.IN_FLIGHT,
      source: { kind: 'backfill', backfillId: record.backfillId },
    });
  });

  it('answers a repeat of the same key with the first backfill, and refuses the key for another range', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const first = await createBackfill(lifecycle.deps, { ...THREE_DAYS, idempotencyKey: 'bf-key' });

    // Act
    const again = await createBackfill(lifecycle.deps, { ...THREE_DAYS, idempotencyKey: 'bf-key' });
    const other = await captureError(
      createBackfill(lifecycle.deps, { ...THREE_DAYS, until: iso(96), idempotencyKey: 'bf-key' }),
    );

    // Assess
    expect(again).toEqual({ record: first.record, replayed: true });
    expect(other).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(lifecycle.workflows.started.size).toBe(1);
  });

  it('refuses a plan of more windows than a backfill may hold, before recording anything', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();

    // Act
    const error = await captureError(
      createBackfill(lifecycle.deps, { spotId: SPOT, from: FROM, until: iso(1001), windowHours: 1 }),
    );

    // Assess
    expect(error).toBeInstanceOf(BackfillTooLargeError);
    expect(await lifecycle.backfills.findRecording(iso(100_000), 10)).toEqual([]);
    expect(lifecycle.workflows.started.size).toBe(0);
  });

  it('stops recording when its time is up, and the reconciler records the rest once the creation is old enough', async () => {
    // Prepare: a request whose recording time is already over
    const lifecycle = inMemoryLifecycle();
    const { record } = await createBackfill(lifecycle.deps, {
      ...THREE_DAYS,
      recordUntilMs: lifecycle.clock.nowMs,
    });

    // Act
    const tooSoon = await finishInterruptedBackfills(lifecycle.deps, 10, Number.POSITIVE_INFINITY);
    lifecycle.clock.advance((BACKFILL_RECORDING_GRACE_SECONDS + 1) * 1000);
    const finished = await finishInterruptedBackfills(lifecycle.deps, 10, Number.POSITIVE_INFINITY);

    // Assess
    expect(record.recording).toBe(true);
    expect(tooSoon).toBe(0);
    expect(finished).toBe(1);
    expect((await lifecycle.backfills.get(SPOT, record.backfillId))?.recording).toBe(false);
    expect(
      await windowsBetween(lifecycle.coverage, SPOT, Date.parse(FROM), Date.parse(iso(72))),
    ).toHaveLength(3);
  });
});

describe('backfillFingerprint', () => {
  it('is the same for the same request and differs when any part of it differs', () => {
    // Act
    const fingerprint = backfillFingerprint(THREE_DAYS);

    // Assess
    expect(backfillFingerprint({ ...THREE_DAYS })).toBe(fingerprint);
    expect(
      new Set([
        fingerprint,
        backfillFingerprint({ ...THREE_DAYS, spotId: 'sp_other' }),
        backfillFingerprint({ ...THREE_DAYS, from: iso(1) }),
        backfillFingerprint({ ...THREE_DAYS, until: iso(73) }),
        backfillFingerprint({ ...THREE_DAYS, windowHours: 12 }),
      ]).size,
    ).toBe(5);
  });
});
