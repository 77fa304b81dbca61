import { describe, expect, it } from 'vitest';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import {
  backfillKey,
  coverageWindowKey,
  exportKey,
  exportLinksPageKey,
  idempotencyKey,
  scheduleWatermarkKey,
  spotLockKey,
  statusIndexPartitionKey,
  upstreamTokenKey,
} from '../../../../lib/store/tableKeys';

describe('table keys', () => {
  it("keep everything of a spot in the spot's partition, each kind under its own sort key", () => {
    // Act
    const keys = [
      exportKey('sp_a', 'ex_1'),
      exportLinksPageKey('sp_a', 'ex_1', 'ls_1', 0),
      coverageWindowKey('sp_a', '2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z'),
      scheduleWatermarkKey('sp_a', 'daily'),
      backfillKey('sp_a', 'bf_1'),
      spotLockKey('sp_a'),
      idempotencyKey('sp_a', 'key-1'),
      upstreamTokenKey('sp_a'),
    ];

    // Assess
    expect(new Set(keys.map((key) => key.pk))).toEqual(new Set(['SPOT#sp_a']));
    expect(keys.map((key) => key.sk)).toEqual([
      'EXPORT#ex_1',
      'LINKS#ex_1#ls_1#000000',
      'WINDOW#2026-10-01T00:00:00Z#2026-10-02T00:00:00Z',
      'WATERMARK#daily',
      'BACKFILL#bf_1',
      'LOCK',
      'IDEMPOTENCY#key-1',
      'UPSTREAM_TOKEN',
    ]);
  });

  it("number a link set's pages so they sort in order", () => {
    // Act
    const pages = [2, 10, 1].map((index) => exportLinksPageKey('sp_a', 'ex_1', 'ls_1', index).sk);

    // Assess
    expect([...pages].sort()).toEqual([pages[2], pages[0], pages[1]]);
  });

  it("put a spot's exports of one status in a partition of the status index of their own", () => {
    // Act / Assess
    expect(statusIndexPartitionKey('sp_a', ExportStatus.QUEUED)).toBe('SPOT#sp_a#STATUS#QUEUED');
  });
});
