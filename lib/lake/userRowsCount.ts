import { COMMENT_ROWS_TABLE_NAME } from './commentRowsTable';

/**
 * How many rows of one user the table holds for one spot: the question an erasure asks the table
 * at its end, on Athena and on DuckDB alike. The spot and the user are parameters (`?`, in that
 * order), never written into the text.
 */
export const USER_ROWS_COUNT_SQL = `SELECT count(*) AS user_rows FROM ${COMMENT_ROWS_TABLE_NAME} WHERE spot = ? AND user_id = ?`;

/** What an erasure's record says it asked: the engine, the query text and the values it was given. */
export function userRowsCountDescription(engine: string, spotId: string, userId: string): string {
  return `${engine}: ${USER_ROWS_COUNT_SQL} with spot = ${sqlStringLiteral(spotId)}, user_id = ${sqlStringLiteral(userId)}`;
}

/** `value` as an SQL string literal (quotes doubled): how Athena takes a string execution parameter. */
export function sqlStringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
