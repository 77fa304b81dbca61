import { SETTINGS } from '../settings/settingsTable';
/**
 * The archive as a table: every row of every archived export, stored as Parquet beside the raw
 * files. The stack's catalog (Glue, read by Athena) and the CLI's local engine (DuckDB) both
 * describe it from these definitions, so the same SQL runs on both.
 */

/**
 * The database's name where no stack names it: the local runtime's (DuckDB's schema). A stack
 * names its own after itself (./lakeDatabaseName.ts) unless `archive.catalogDatabaseName` is set.
 */
export const DEFAULT_LAKE_DATABASE_NAME = SETTINGS.archiveCatalogDatabaseName.default;
/** Athena reads only lower-case names of letters, digits and underscores (Glue allows more). */
export const LAKE_DATABASE_NAME_PATTERN = SETTINGS.archiveCatalogDatabaseName.kind.pattern;

/** The table of every archived row: one row per CSV record of every archived export. */
export const COMMENT_ROWS_TABLE_NAME = 'comment_rows';

/** Where the table's Parquet files are kept in the archive bucket (under the archive's `tables/`). */
export const COMMENT_ROWS_KEY_PREFIX = 'tables/comments/';

/** The column types of the table, as Glue (Hive) names them. */
export const LakeColumnType = {
  STRING: 'string',
  BIGINT: 'bigint',
  TIMESTAMP: 'timestamp',
} as const;

export type LakeColumnType = (typeof LakeColumnType)[keyof typeof LakeColumnType];

export interface LakeColumn {
  name: string;
  type: LakeColumnType;
  /** What the column holds; shown in the catalog. */
  description: string;
}

const { STRING, BIGINT, TIMESTAMP } = LakeColumnType;

/**
 * The columns of every Parquet file, in file order (the partition columns are not in the files):
 * the archive's Parquet writer takes its schema from this list (lib/archive/parquet/commentTableSchema.ts).
 */
export const COMMENT_ROW_COLUMNS: readonly LakeColumn[] = [
  { name: 'id', type: STRING, description: 'The comment id' },
  { name: 'user_id', type: STRING, description: 'The author' },
  { name: 'user_name', type: STRING, description: "The author's display name" },
  { name: 'spot_id', type: STRING, description: 'The spot, as the CSV names it' },
  { name: 'post_id', type: STRING, description: 'The conversation (article) the comment is on' },
  { name: 'message_status', type: STRING, description: 'approved, pending, rejected, deleted…' },
  { name: 'content', type: STRING, description: 'The text, verbatim' },
  { name: 'rank', type: BIGINT, description: 'The comment rank' },
  { name: 'written_at', type: TIMESTAMP, description: 'When the comment was written (UTC)' },
  {
    name: 'extra_columns',
    type: STRING,
    description: 'JSON object of the CSV columns not listed here (name to verbatim value); null when none',
  },
  {
    name: 'unparsed_values',
    type: STRING,
    description: 'JSON object of typed values that did not parse (column to verbatim value); null when none',
  },
  { name: 'export_id', type: STRING, description: 'The export the row was archived from' },
  {
    name: 'window_from',
    type: TIMESTAMP,
    description: "Start of the export's window; null for a conversation",
  },
  {
    name: 'window_until',
    type: TIMESTAMP,
    description: "End of the export's window; null for a conversation",
  },
  { name: 'exported_at', type: TIMESTAMP, description: 'When the export completed' },
  { name: 'source_file', type: STRING, description: "The CSV's name in the upstream zip" },
];

/** Partition columns, from the object keys (`spot=<spotId>/date=<YYYY-MM-DD>/`), in key order. */
export const COMMENT_ROWS_PARTITION_KEYS: readonly LakeColumn[] = [
  { name: 'spot', type: STRING, description: 'The spot the export was for' },
  {
    name: 'date',
    type: STRING,
    description: "YYYY-MM-DD: the window's start day, or the day a conversation export was requested",
  },
];

/** The key prefix of one partition, `tables/comments/spot=<spotId>/date=<YYYY-MM-DD>/`. */
export function commentRowsPartitionPrefix(spotId: string, date: string): string {
  return `${COMMENT_ROWS_KEY_PREFIX}spot=${spotId}/date=${date}/`;
}
