import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_PARTITION_KEYS,
  COMMENT_ROWS_TABLE_NAME,
} from './commentRowsTable';

/** The view of one row per comment: what an analyst counts. */
export const COMMENTS_VIEW_NAME = 'comments';

/** Every column of the view, in order: the table's columns, then its partition columns. */
export const COMMENTS_VIEW_COLUMNS = [...COMMENT_ROW_COLUMNS, ...COMMENT_ROWS_PARTITION_KEYS];

// `date` is a type name in both dialects: quoted, it is always the column.
const quoted = (name: string) => (name === 'date' ? '"date"' : name);

/**
 * One row per comment (spot_id and id): the row of the newest export that holds it, by
 * `exported_at`, then `export_id`. Overlapping windows, a re-run export or a backfill after a
 * schedule archive the same comment more than once; counts over this view count it once.
 * The window also partitions by `spot`, which equals `spot_id` in every row the archive writes:
 * a filter on `spot` then prunes partitions through the view (Athena bills the bytes it reads).
 * The text runs unchanged on Athena (Trino) and DuckDB.
 */
export const COMMENTS_VIEW_SQL = [
  `SELECT ${COMMENTS_VIEW_COLUMNS.map((column) => quoted(column.name)).join(', ')}`,
  'FROM (',
  '  SELECT *, row_number() OVER (',
  '    PARTITION BY spot, spot_id, id',
  '    ORDER BY exported_at DESC NULLS LAST, export_id DESC NULLS LAST',
  '  ) AS newest_first',
  `  FROM ${COMMENT_ROWS_TABLE_NAME}`,
  ') AS ranked',
  'WHERE newest_first = 1',
].join('\n');
