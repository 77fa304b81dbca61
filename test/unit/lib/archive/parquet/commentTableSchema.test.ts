import { describe, expect, it } from 'vitest';
import { commentTableObjectKey, TABLES_KEY_PREFIX } from '../../../../../lib/archive/archiveKeys';
import {
  COMMENT_TABLE_COLUMNS,
  COMMENT_TABLE_PARTITION_COLUMNS,
  KNOWN_CSV_COLUMNS,
} from '../../../../../lib/archive/parquet/commentTableSchema';
import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_KEY_PREFIX,
  COMMENT_ROWS_PARTITION_KEYS,
} from '../../../../../lib/lake/commentRowsTable';

describe("the Parquet files' schema", () => {
  it("is the catalog's comment_rows columns, in order, each in the Parquet type of its catalog type", () => {
    // Act
    const pairs = COMMENT_TABLE_COLUMNS.map((column, index) => [
      column.name,
      column.type,
      COMMENT_ROW_COLUMNS[index]?.type,
    ]);

    // Assess
    expect(COMMENT_TABLE_COLUMNS.map((column) => column.name)).toEqual(
      COMMENT_ROW_COLUMNS.map((column) => column.name),
    );
    expect(pairs).toEqual([
      ['id', 'STRING', 'string'],
      ['user_id', 'STRING', 'string'],
      ['user_name', 'STRING', 'string'],
      ['spot_id', 'STRING', 'string'],
      ['post_id', 'STRING', 'string'],
      ['message_status', 'STRING', 'string'],
      ['content', 'STRING', 'string'],
      ['rank', 'INT64', 'bigint'],
      ['written_at', 'TIMESTAMP', 'timestamp'],
      ['extra_columns', 'STRING', 'string'],
      ['unparsed_values', 'STRING', 'string'],
      ['export_id', 'STRING', 'string'],
      ['window_from', 'TIMESTAMP', 'timestamp'],
      ['window_until', 'TIMESTAMP', 'timestamp'],
      ['exported_at', 'TIMESTAMP', 'timestamp'],
      ['source_file', 'STRING', 'string'],
    ]);
    expect(COMMENT_TABLE_PARTITION_COLUMNS).toEqual(COMMENT_ROWS_PARTITION_KEYS.map((key) => key.name));
  });

  it("starts with the known CSV columns, in the CSV's order", () => {
    // Act
    const leading = COMMENT_TABLE_COLUMNS.slice(0, KNOWN_CSV_COLUMNS.length).map((column) => column.name);

    // Assess
    expect(leading).toEqual([...KNOWN_CSV_COLUMNS]);
  });

  it("keys each file in the catalog's partition of its spot and day, under the archive's tables prefix", () => {
    // Act
    const key = commentTableObjectKey('sp_demo', 'ex_1', '2026-10-30', 2);

    // Assess
    expect(key).toBe('tables/comments/spot=sp_demo/date=2026-10-30/ex_1-2.parquet');
    expect(key.startsWith(COMMENT_ROWS_KEY_PREFIX)).toBe(true);
    expect(COMMENT_ROWS_KEY_PREFIX.startsWith(TABLES_KEY_PREFIX)).toBe(true);
  });
});
