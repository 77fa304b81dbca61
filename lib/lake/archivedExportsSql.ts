import { COMMENT_ROWS_TABLE_NAME } from './commentRowsTable';

/**
 * The archived exports of date-range windows, as the rows tell them: one row per export with its
 * spot, window and completion time (every row of an export carries the same lineage). A
 * conversation export (no window) or a row without a completion time is never a later export
 * of any window. The SQL text of a subquery, the same on Athena (Trino) and DuckDB.
 */
export const ARCHIVED_WINDOW_EXPORTS_SQL = [
  'SELECT DISTINCT spot, export_id, window_from, window_until, exported_at',
  `FROM ${COMMENT_ROWS_TABLE_NAME}`,
  'WHERE window_from IS NOT NULL AND window_until IS NOT NULL AND exported_at IS NOT NULL',
].join('\n');

/**
 * The condition that `later` (a row of ARCHIVED_WINDOW_EXPORTS_SQL) is an export of the same spot
 * whose window contains the window of `version`'s export and that is newer than it: completed
 * after it, or at the same instant with a greater export id (the order the views rank versions
 * by). Such an export read again every hour the version's export read: a comment it does not
 * hold was no longer at the source when it ran.
 */
export function laterContainingExport(later: string, version: string): string {
  return [
    `${later}.spot = ${version}.spot`,
    `${later}.window_from <= ${version}.window_from`,
    `${later}.window_until >= ${version}.window_until`,
    `(${later}.exported_at > ${version}.exported_at OR (${later}.exported_at = ${version}.exported_at AND ${later}.export_id > ${version}.export_id))`,
  ].join(' AND ');
}
