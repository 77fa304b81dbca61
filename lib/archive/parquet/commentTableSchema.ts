import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_PARTITION_KEYS,
  LakeColumnType,
} from '../../lake/commentRowsTable';

/** The columns OpenWeb's comments CSV is known to have, in the order the table keeps them. */
export const KNOWN_CSV_COLUMNS = [
  'id',
  'user_id',
  'user_name',
  'spot_id',
  'post_id',
  'message_status',
  'content',
  'rank',
  'written_at',
] as const;

export type KnownCsvColumn = (typeof KNOWN_CSV_COLUMNS)[number];

/** Known CSV columns written typed; the rest are strings. */
export const TYPED_CSV_COLUMNS = ['rank', 'written_at'] as const satisfies readonly KnownCsvColumn[];

/**
 * A column's type in the Parquet files: `STRING` is UTF-8 text (BYTE_ARRAY, logical type
 * STRING); `INT64` a signed 64-bit integer; `TIMESTAMP` milliseconds since the epoch, adjusted
 * to UTC (INT64, logical type TIMESTAMP(MILLIS, isAdjustedToUTC)). Every column may be null.
 */
export type CommentTableColumnType = 'STRING' | 'INT64' | 'TIMESTAMP';

export interface CommentTableColumn {
  name: string;
  type: CommentTableColumnType;
}

/** The Parquet type that holds each of the catalog's column types. */
const PARQUET_TYPES: Record<LakeColumnType, CommentTableColumnType> = {
  [LakeColumnType.STRING]: 'STRING',
  [LakeColumnType.BIGINT]: 'INT64',
  [LakeColumnType.TIMESTAMP]: 'TIMESTAMP',
};

/**
 * The columns of every Parquet file, in file order: the catalog's columns of `comment_rows`
 * (lib/lake/commentRowsTable.ts: the known CSV columns, what did not fit them, and where each
 * row came from), so the files and the table that reads them cannot differ. The partition
 * columns `spot` and `date` are in the object keys, not in the files.
 */
export const COMMENT_TABLE_COLUMNS: readonly CommentTableColumn[] = COMMENT_ROW_COLUMNS.map((column) => ({
  name: column.name,
  type: PARQUET_TYPES[column.type],
}));

/** The partition columns, from the object keys (`spot=…/date=…/`), in this order. */
export const COMMENT_TABLE_PARTITION_COLUMNS: readonly string[] = COMMENT_ROWS_PARTITION_KEYS.map(
  (column) => column.name,
);
