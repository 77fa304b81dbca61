import { describe, expect, it } from 'vitest';
import {
  isValidBackfillId,
  isWindowOfBackfill,
  newBackfillId,
} from '../../../../../lib/exports/backfill/BackfillRecord';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';

describe('backfill ids', () => {
  it('are new each time, sort by creation time and are recognised by their shape', () => {
    // Act
    const earlier = newBackfillId(Date.parse('2026-11-01T00:00:00Z'));
    const later = newBackfillId(Date.parse('2026-11-01T00:00:01Z'));

    // Assess
    expect(earlier).toMatch(/^bf_/);
    expect(earlier < later).toBe(true);
    expect(newBackfillId()).not.toBe(newBackfillId());
    expect([earlier, later].every(isValidBackfillId)).toBe(true);
    for (const other of [
      undefined,
      42,
      'bf_',
      'ex_01kak3f4v2qz7m9d8c5b4a0001',
      `${earlier}x`,
      earlier.toUpperCase(),
    ])
      expect(isValidBackfillId(other)).toBe(false);
  });
});

describe('isWindowOfBackfill', () => {
  it('tells the windows a backfill planned from those of a schedule or another backfill', () => {
    // Prepare
    const bounds = { from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' };

    // Act / Assess
    expect(
      isWindowOfBackfill(
        coverageWindowFixture({ ...bounds, source: { kind: 'backfill', backfillId: 'bf_1' } }),
        'bf_1',
      ),
    ).toBe(true);
    expect(
      isWindowOfBackfill(
        coverageWindowFixture({ ...bounds, source: { kind: 'backfill', backfillId: 'bf_2' } }),
        'bf_1',
      ),
    ).toBe(false);
    expect(
      isWindowOfBackfill(
        coverageWindowFixture({ ...bounds, source: { kind: 'schedule', schedule: 'daily' } }),
        'bf_1',
      ),
    ).toBe(false);
  });
});
