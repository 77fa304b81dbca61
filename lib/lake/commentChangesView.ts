import { ARCHIVED_WINDOW_EXPORTS_SQL, laterContainingExport } from './archivedExportsSql';
import { COMMENT_ROWS_TABLE_NAME, type LakeColumn, LakeColumnType } from './commentRowsTable';

/** The view of every change the archive saw between consecutive versions of a comment. */
export const COMMENT_CHANGES_VIEW_NAME = 'comment_changes';

/** What changed: a column of the comment, or the comment itself disappearing or coming back. */
export const CommentChange = {
  MESSAGE_STATUS: 'message_status',
  CONTENT: 'content',
  USER_NAME: 'user_name',
  POST_ID: 'post_id',
  DELETED: 'deleted',
  RESTORED: 'restored',
} as const;

export type CommentChange = (typeof CommentChange)[keyof typeof CommentChange];

/** The string columns of `comment_rows` whose changes the view shows, each its own `change`. */
export const CHANGED_COLUMNS = [
  CommentChange.MESSAGE_STATUS,
  CommentChange.CONTENT,
  CommentChange.USER_NAME,
  CommentChange.POST_ID,
] as const;

const { STRING, TIMESTAMP } = LakeColumnType;

/** The view's columns, in order. */
export const COMMENT_CHANGES_VIEW_COLUMNS: readonly LakeColumn[] = [
  { name: 'spot_id', type: STRING, description: 'The spot, as the CSV names it' },
  { name: 'id', type: STRING, description: 'The comment id' },
  {
    name: 'change',
    type: STRING,
    description: `What changed: a column (${CHANGED_COLUMNS.join(', ')}), ${CommentChange.DELETED} or ${CommentChange.RESTORED}`,
  },
  {
    name: 'before',
    type: STRING,
    description:
      'The value in the earlier version; for deleted, the message_status last seen; null for restored',
  },
  {
    name: 'after',
    type: STRING,
    description:
      'The value in the later version; null for deleted; for restored, the message_status seen again',
  },
  {
    name: 'seen_at',
    type: TIMESTAMP,
    description: 'When the export that showed the change completed (its exported_at)',
  },
  { name: 'before_export_id', type: STRING, description: 'The export of the earlier version' },
  {
    name: 'after_export_id',
    type: STRING,
    description: 'The export that showed the change (for deleted, the one that no longer held the comment)',
  },
  { name: 'written_at', type: TIMESTAMP, description: 'When the comment was written (UTC)' },
  { name: 'spot', type: STRING, description: 'The spot the exports were for (the partition)' },
];

const OUTPUT = COMMENT_CHANGES_VIEW_COLUMNS.map((column) => column.name).join(', ');

/** Versions of a comment, oldest first: the order of `exported_at`, then `export_id` (as `comments` ranks). */
const VERSION_ORDER =
  'PARTITION BY spot, spot_id, id ORDER BY exported_at ASC NULLS FIRST, export_id ASC NULLS FIRST';

const indent = (lines: string[]) => lines.map((line) => `  ${line}`);

/** The changes of one column: a row for every version whose value differs from the version before. */
function columnChanges(column: string): string[] {
  return [
    `SELECT ${OUTPUT}`,
    'FROM (',
    `  SELECT spot_id, id, CAST('${column}' AS VARCHAR) AS change,`,
    `    lag(${column}) OVER (${VERSION_ORDER}) AS before,`,
    `    ${column} AS after, exported_at AS seen_at,`,
    `    lag(export_id) OVER (${VERSION_ORDER}) AS before_export_id,`,
    '    export_id AS after_export_id, written_at, spot',
    `  FROM ${COMMENT_ROWS_TABLE_NAME}`,
    `) AS ${column}_versions`,
    'WHERE before_export_id IS NOT NULL AND before IS DISTINCT FROM after',
  ];
}

/**
 * Disappearances: for each version, the first export newer than it, of a window containing its
 * window, that came before the comment's next version (or with no next version at all), and so
 * did not hold the comment. `deleted` is that export: the comment was gone when it ran. `restored`
 * is the next version, when there is one after all: the comment was back.
 */
function disappearances(kind: typeof CommentChange.DELETED | typeof CommentChange.RESTORED): string[] {
  const deleted = kind === CommentChange.DELETED;
  const beforeNextVersion =
    '(version.next_export_id IS NULL OR later.exported_at < version.next_exported_at OR ' +
    '(later.exported_at = version.next_exported_at AND later.export_id < version.next_export_id))';
  return [
    `SELECT ${OUTPUT}`,
    'FROM (',
    `  SELECT version.spot_id, version.id, CAST('${kind}' AS VARCHAR) AS change,`,
    deleted
      ? '    version.message_status AS before, CAST(NULL AS VARCHAR) AS after,'
      : '    CAST(NULL AS VARCHAR) AS before, version.next_message_status AS after,',
    deleted
      ? '    later.exported_at AS seen_at, version.export_id AS before_export_id, later.export_id AS after_export_id,'
      : '    version.next_exported_at AS seen_at, later.export_id AS before_export_id, version.next_export_id AS after_export_id,',
    '    version.written_at, version.spot,',
    '    row_number() OVER (',
    '      PARTITION BY version.spot, version.spot_id, version.id, version.export_id',
    '      ORDER BY later.exported_at, later.export_id',
    '    ) AS first_later',
    '  FROM (',
    '    SELECT spot, spot_id, id, written_at, message_status, export_id, exported_at, window_from, window_until,',
    `      lead(export_id) OVER (${VERSION_ORDER}) AS next_export_id,`,
    `      lead(exported_at) OVER (${VERSION_ORDER}) AS next_exported_at,`,
    `      lead(message_status) OVER (${VERSION_ORDER}) AS next_message_status`,
    `    FROM ${COMMENT_ROWS_TABLE_NAME}`,
    '  ) AS version',
    '  JOIN (',
    ...indent(indent(ARCHIVED_WINDOW_EXPORTS_SQL.split('\n'))),
    '  ) AS later',
    `    ON ${laterContainingExport('later', 'version')}`,
    `    AND ${beforeNextVersion}`,
    ...(deleted ? [] : ['  WHERE version.next_export_id IS NOT NULL']),
    `) AS ${kind}_comments`,
    'WHERE first_later = 1',
  ];
}

/**
 * One row per change observed between consecutive versions of a comment (spot_id and id), in the
 * order the views rank versions (`exported_at`, then `export_id`):
 * - a changed column (`message_status`, `content`, `user_name`, `post_id`): `before` and `after`
 *   are its values in the two versions, `seen_at` the later version's `exported_at`;
 * - `deleted`: an export of a window containing the version's window, newer than the version,
 *   no longer held the comment (the same rule by which `comments` leaves it out);
 * - `restored`: a comment seen deleted was held again by a later export.
 * Each kind of change is its own branch reading only the columns it compares, so a filter on
 * `change` lets Athena skip the others' columns (`content` is most of the bytes); a filter on
 * `spot` prunes partitions. The text runs unchanged on Athena (Trino) and DuckDB.
 */
export const COMMENT_CHANGES_VIEW_SQL = [
  ...CHANGED_COLUMNS.flatMap((column) => [...columnChanges(column), 'UNION ALL']),
  ...disappearances(CommentChange.DELETED),
  'UNION ALL',
  ...disappearances(CommentChange.RESTORED),
].join('\n');
