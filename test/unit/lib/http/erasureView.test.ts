import { describe, expect, it } from 'vitest';
import type { ErasureRecord } from '../../../../lib/exports/erasure/ErasureRecord';
import { erasureIdOf } from '../../../../lib/exports/erasure/ErasureRecord';
import { erasureLocation, erasureView } from '../../../../lib/http/erasureView';
import { erasureViewSchema } from '../../../../lib/http/erasureViewSchema';

const RECORD: ErasureRecord = {
  spotId: 'sp_demo',
  erasureId: erasureIdOf('sp_demo', 'u_1'),
  userId: 'u_1',
  status: 'RUNNING',
  requestedAt: '2026-11-10T12:00:00.000Z',
  updatedAt: '2026-11-10T12:01:00.000Z',
  exportsDone: ['ex_01kak3f4v2qz7m9d8c5b4a0001', 'ex_01kak3f4v2qz7m9d8c5b4a0002'],
  filesRead: 5,
  files: [1, 2].map((n) => ({
    exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001',
    name: `comments_${n}.csv`,
    previousKey: `archive/${n}.csv.gz`,
    previousParquetKey: `tables/${n}.parquet`,
    key: `archive/${n}.r1.csv.gz`,
    parquetKey: `tables/${n}.r1.parquet`,
    rowsRemoved: n,
    rows: 10 - n,
    sha256: 'b'.repeat(64),
    state: 'CLEANED' as const,
  })),
  runId: 'run-1',
  leaseUntil: '2026-11-10T12:06:00.000Z',
  version: 4,
};

describe('erasureView', () => {
  it('shows counts, each file with its rows removed, and neither the lease nor the Parquet keys', () => {
    // Act
    const view = erasureView(RECORD);

    // Assess
    expect(view).toMatchObject({ exportsDone: 2, filesRead: 5, filesRewritten: 2, rowsRemoved: 3 });
    expect(view.files.map((file) => file.rowsRemoved)).toEqual([1, 2]);
    expect(JSON.stringify(view)).not.toMatch(/run-1|leaseUntil|parquet|"version"/);
    expect(erasureViewSchema.safeParse(view).success).toBe(true);
  });

  it('carries the reason of a FAILED erasure and the completion and verification of a COMPLETED one', () => {
    // Prepare
    const verification = {
      checkedAt: '2026-11-10T12:05:00.000Z',
      checks: ['read every archived CSV file: 0 found'],
      filesChecked: 5,
      rowsFound: 0,
      versionsLeft: 0,
    };

    // Act
    const failed = erasureView({ ...RECORD, status: 'FAILED', reason: 'the check found 1 row' });
    const completed = erasureView({
      ...RECORD,
      status: 'COMPLETED',
      completedAt: '2026-11-10T12:05:00.000Z',
      verification,
    });

    // Assess
    expect(failed.reason).toBe('the check found 1 row');
    expect(failed).not.toHaveProperty('completedAt');
    expect(completed).toMatchObject({ completedAt: '2026-11-10T12:05:00.000Z', verification });
    expect(completed).not.toHaveProperty('reason');
  });

  it('locates an erasure under its spot', () => {
    expect(erasureLocation('sp_demo', 'er_0123')).toBe('/spots/sp_demo/erasures/er_0123');
  });
});
