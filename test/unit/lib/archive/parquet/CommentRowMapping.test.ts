import { describe, expect, it } from 'vitest';
import {
  CommentRowMapping,
  KNOWN_STRING_COLUMNS,
} from '../../../../../lib/archive/parquet/CommentRowMapping';

function fields(...values: string[]): Uint8Array[] {
  return values.map((value) => new Uint8Array(Buffer.from(value, 'utf8')));
}

function column(
  values: ReturnType<CommentRowMapping['values']>,
  name: (typeof KNOWN_STRING_COLUMNS)[number],
) {
  const value = values.strings[KNOWN_STRING_COLUMNS.indexOf(name)];
  return value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value;
}

describe('CommentRowMapping', () => {
  it('maps the known columns by name in any order, typing rank and written_at', () => {
    // Prepare
    const mapping = new CommentRowMapping(fields('\uFEFFwritten_at', 'content', 'id', 'rank'));

    // Act
    const values = mapping.values(fields('2026-11-01T10:00:00Z', 'héllo', 'c1', '42'));

    // Assess
    expect(column(values, 'id')).toBe('c1');
    expect(column(values, 'content')).toBe('héllo');
    expect(column(values, 'user_id')).toBeNull();
    expect(values.rank).toBe(42n);
    expect(values.writtenAtMs).toBe(Date.UTC(2026, 10, 1, 10));
    expect(values.extraColumns).toBeNull();
    expect(values.unparsedValues).toBeNull();
  });

  it('keeps typed values that do not parse as text, and an empty one as no value', () => {
    // Prepare
    const mapping = new CommentRowMapping(fields('id', 'rank', 'written_at'));

    // Act
    const bad = mapping.values(fields('c1', 'first', 'yesterday'));
    const empty = mapping.values(fields('c2', '', ''));

    // Assess
    expect(bad.rank).toBeNull();
    expect(bad.writtenAtMs).toBeNull();
    expect(JSON.parse(bad.unparsedValues ?? '{}')).toEqual({ rank: 'first', written_at: 'yesterday' });
    expect([empty.rank, empty.writtenAtMs, empty.unparsedValues]).toEqual([null, null, null]);
  });

  it('loses no value: unknown, repeated, empty-named and headerless columns go to extra_columns by name or position', () => {
    // Prepare
    const mapping = new CommentRowMapping(fields('id', 'likes', 'id', '', '__proto__'));

    // Act
    const values = mapping.values(fields('c1', '7', 'c1-again', 'blank', 'p', 'overflow'));

    // Assess
    expect(column(values, 'id')).toBe('c1');
    expect(JSON.parse(values.extraColumns ?? '{}')).toEqual({
      likes: '7',
      'id#3': 'c1-again',
      '#4': 'blank',
      ['__proto__']: 'p',
      '#6': 'overflow',
    });
  });

  it('reads a field a short record lacks as null, and counts the bytes it holds', () => {
    // Prepare
    const mapping = new CommentRowMapping(fields('id', 'content'));

    // Act
    const values = mapping.values(fields('c1'));

    // Assess
    expect(column(values, 'content')).toBeNull();
    expect(values.size).toBe(2);
  });

  it('replaces invalid UTF-8 in the content, which a STRING column must hold', () => {
    // Prepare
    const mapping = new CommentRowMapping(fields('content'));

    // Act
    const values = mapping.values([new Uint8Array([0x61, 0xff, 0x62])]);

    // Assess
    expect(column(values, 'content')).toBe('a\uFFFDb');
  });
});
