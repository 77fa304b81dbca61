import { describe, expect, it } from 'vitest';
import {
  ErasedFileState,
  type ErasureRecord,
  ErasureStatus,
  erasureIdOf,
  rowsRemovedBy,
  USER_ID_PATTERN,
} from '../../../../../lib/exports/erasure/ErasureRecord';

describe('erasureIdOf', () => {
  it('gives the same user on the same spot the same id, without the user id in it', () => {
    expect(erasureIdOf('sp_a', 'u_1')).toBe(erasureIdOf('sp_a', 'u_1'));
    expect(erasureIdOf('sp_a', 'u_1')).not.toBe(erasureIdOf('sp_b', 'u_1'));
    expect(erasureIdOf('sp_a', 'u_1')).not.toBe(erasureIdOf('sp_a', 'u_2'));
    expect(erasureIdOf('sp_a', 'u_1')).toMatch(/^er_[0-9a-f]{24}$/);
    expect(erasureIdOf('sp_a', 'u_1')).not.toContain('u_1');
  });
});

describe('USER_ID_PATTERN', () => {
  it('takes the upstream ids and refuses what could break a CSV or a query', () => {
    expect(USER_ID_PATTERN.test('u_00001a')).toBe(true);
    for (const bad of ['', "u'1", 'u,1', 'u"1', 'u 1', 'x'.repeat(129)])
      expect(USER_ID_PATTERN.test(bad)).toBe(false);
  });
});

describe('rowsRemovedBy', () => {
  it('adds the rows removed from every file', () => {
    const file = {
      exportId: 'e',
      name: '1.csv',
      previousKey: 'a',
      key: 'b',
      rows: 1,
      sha256: 'x',
      state: ErasedFileState.CLEANED,
    };
    const record = {
      status: ErasureStatus.COMPLETED,
      files: [
        { ...file, rowsRemoved: 2 },
        { ...file, rowsRemoved: 3 },
      ],
    } as ErasureRecord;
    expect(rowsRemovedBy(record)).toBe(5);
  });
});
