import { ARCHIVED_WINDOW_EXPORTS_SQL, laterContainingExport } from './archivedExportsSql';
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
 * One row per comment (spot_id and id) as the source holds it now, as far as the archive saw:
 * - the row of the newest export that holds it, by `exported_at`, then `export_id`. Overlapping
 *   windows, a window exported again (a restatement), a re-run export or a backfill after a
 *   schedule archive the same comment more than once; counts over this view count it once, in its
 *   newest state;
 * - less the comments deleted at the source: a comment is left out when an export newer than its
 *   newest row's export, of the same spot, whose window contains that export's window, does not
 *   hold it (that export read again every hour the comment could be in, and it was gone). A newer
 *   export of a window that covers only part of the comment's window says nothing about it.
 *   Rows of a conversation export (no window) are never left out this way.
 * The windows partition by `spot`, which equals `spot_id` in every row the archive writes, and the
 * later exports are joined on it: a filter on `spot` then prunes partitions through the view
 * (Athena bills the bytes it reads). The text runs unchanged on Athena (Trino) and DuckDB.
 */
export const COMMENTS_VIEW_SQL = [
  `SELECT ${COMMENTS_VIEW_COLUMNS.map((column) => `newest.${quoted(column.name)}`).join(', ')}`,
  'FROM (',
  '  SELECT *, row_number() OVER (',
  '    PARTITION BY spot, spot_id, id',
  '    ORDER BY exported_at DESC NULLS LAST, export_id DESC NULLS LAST',
  '  ) AS newest_first',
  `  FROM ${COMMENT_ROWS_TABLE_NAME}`,
  ') AS newest',
  'LEFT JOIN (',
  ...ARCHIVED_WINDOW_EXPORTS_SQL.split('\n').map((line) => `  ${line}`),
  ') AS later',
  `  ON ${laterContainingExport('later', 'newest')}`,
  'WHERE newest.newest_first = 1 AND later.export_id IS NULL',
].join('\n');
