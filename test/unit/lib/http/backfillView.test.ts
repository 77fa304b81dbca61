import { describe, expect, it } from 'vitest';
import type { BackfillRecord } from '../../../../lib/exports/backfill/BackfillRecord';
import type { BackfillProgress } from '../../../../lib/exports/backfill/backfillProgress';
import { backfillLocation, backfillProgressView, backfillView } from '../../../../lib/http/backfillView';

const record: BackfillRecord = {
  spotId: 'sp_abc',
  backfillId: 'bf_01kak3f4v2qz7m9d8c5b4a0001',
  from: '2026-10-01T00:00:00.000Z',
  until: '2026-10-03T00:00:00.000Z',
  windowHours: 24,
  windows: [{ from: '2026-10-02T00:00:00.000Z', until: '2026-10-03T00:00:00.000Z' }],
  skipped: [
    { from: '2026-10-01T00:00:00.000Z', until: '2026-10-01T12:00:00.000Z' },
    { from: '2026-10-01T12:00:00.000Z', until: '2026-10-02T00:00:00.000Z' },
  ],
  state: 'ACTIVE',
  recording: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  idempotencyKey: 'key-1',
  version: 3,
};

describe('backfillView', () => {
  it('shows the plan with the hours already held, and none of the stored bookkeeping', () => {
    // Act
    const view = backfillView(record);

    // Assess
    expect(view).toEqual({
      backfillId: record.backfillId,
      spotId: 'sp_abc',
      from: record.from,
      until: record.until,
      windowHours: 24,
      createdAt: record.createdAt,
      recording: false,
      plan: { windowCount: 1, windows: record.windows, skipped: record.skipped, skippedHours: 24 },
    });
    expect(view).not.toHaveProperty('abortedAt');
  });

  it('shows when an aborted backfill was aborted', () => {
    // Act
    const view = backfillView({ ...record, state: 'ABORTED', abortedAt: '2026-11-02T00:00:00.000Z' });

    // Assess
    expect(view.abortedAt).toBe('2026-11-02T00:00:00.000Z');
  });

  it('adds where it stands, with an ETA only when one could be learned', () => {
    // Prepare
    const progress: BackfillProgress = {
      status: 'RUNNING',
      counts: { total: 1, done: 0, running: 1, queued: 0, retrying: 0, gaps: 0, pending: 0, withdrawn: 0 },
      rowsArchived: 0,
      elapsedSeconds: 60,
      windows: [],
    };

    // Act
    const withoutEta = backfillProgressView(record, progress);
    const withEta = backfillProgressView(record, { ...progress, etaSeconds: 120 });

    // Assess
    expect(withoutEta.status).toBe('RUNNING');
    expect(withoutEta.progress).toEqual({ windows: progress.counts, rowsArchived: 0, elapsedSeconds: 60 });
    expect(withEta.progress.etaSeconds).toBe(120);
    expect(withEta.plan.windowCount).toBe(1);
  });

  it('locates a backfill under its spot, escaping each segment', () => {
    // Act / Assess
    expect(backfillLocation('sp_abc', 'bf_1')).toBe('/spots/sp_abc/backfills/bf_1');
    expect(backfillLocation('a/b', 'c d')).toBe('/spots/a%2Fb/backfills/c%20d');
  });
});
