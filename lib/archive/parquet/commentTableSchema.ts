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

/**
 * The `comments` table's columns, in file order: the known CSV columns, what did not fit them,
 * and where each row came from. The partition columns `spot` and `date` are in the object keys,
 * not in the files.
 */
export const COMMENT_TABLE_COLUMNS = [
  { name: 'id', type: 'STRING' },
  { name: 'user_id', type: 'STRING' },
  { name: 'user_name', type: 'STRING' },
  { name: 'spot_id', type: 'STRING' },
  { name: 'post_id', type: 'STRING' },
  { name: 'message_status', type: 'STRING' },
  { name: 'content', type: 'STRING' },
  { name: 'rank', type: 'INT64' },
  { name: 'written_at', type: 'TIMESTAMP' },
  /** JSON object of every CSV column not known above: name → the value as it was; null when none. */
  { name: 'extra_columns', type: 'STRING' },
  /** JSON object of every typed column whose value did not parse: name → the value as it was; null when none. */
  { name: 'unparsed_values', type: 'STRING' },
  /** Lineage: the export the row came from. */
  { name: 'export_id', type: 'STRING' },
  /** The export's window (null for a conversation export). */
  { name: 'window_from', type: 'TIMESTAMP' },
  { name: 'window_until', type: 'TIMESTAMP' },
  /** When the upstream finished the export (the export's `completedAt`). */
  { name: 'exported_at', type: 'TIMESTAMP' },
  /** The CSV's name in the upstream's zip. */
  { name: 'source_file', type: 'STRING' },
] as const satisfies readonly CommentTableColumn[];

export type CommentTableColumnName = (typeof COMMENT_TABLE_COLUMNS)[number]['name'];

/** The partition columns, from the object keys (`spot=…/date=…/`), in this order. */
export const COMMENT_TABLE_PARTITION_COLUMNS = ['spot', 'date'] as const;
