import { describe, expect, it } from 'vitest';
import {
  archiveManifestKey,
  archiveObjectKey,
  archivePartitionDate,
  commentTableObjectKey,
} from '../../../../lib/archive/archiveKeys';

describe('archive keys', () => {
  it("put an export's files and manifest under its spot and date, and its Parquet files under the table's", () => {
    // Act / Assess
    expect(archiveObjectKey('sp_a', 'ex_1', '2026-10-01', 2)).toBe(
      'exports/spot=sp_a/date=2026-10-01/ex_1/2.csv.gz',
    );
    expect(archiveManifestKey('sp_a', 'ex_1', '2026-10-01')).toBe(
      'exports/spot=sp_a/date=2026-10-01/ex_1/_manifest.json',
    );
    expect(commentTableObjectKey('sp_a', 'ex_1', '2026-10-01', 2)).toBe(
      'tables/comments/spot=sp_a/date=2026-10-01/ex_1-2.parquet',
    );
  });

  it('date a range export by its start, and a conversation export by when it was requested (UTC)', () => {
    // Act / Assess
    expect(
      archivePartitionDate(
        { kind: 'dateRange', from: '2026-09-30T23:00:00Z', until: '2026-10-01T01:00:00Z' },
        '2026-11-01T00:00:00.000Z',
      ),
    ).toBe('2026-09-30');
    expect(
      archivePartitionDate({ kind: 'conversation', conversationId: 'sp_a_1' }, '2026-11-01T23:59:59.000Z'),
    ).toBe('2026-11-01');
  });
});
