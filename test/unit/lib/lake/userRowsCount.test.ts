import { describe, expect, it } from 'vitest';
import { USER_ROWS_COUNT_SQL, userRowsCountDescription } from '../../../../lib/lake/userRowsCount';

describe('userRowsCount', () => {
  it('asks comment_rows with the spot and the user as parameters, never in the text', () => {
    // Assess
    expect(USER_ROWS_COUNT_SQL).toBe(
      'SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ?',
    );
  });

  it('describes the query with its engine and the values it was given, quotes doubled', () => {
    // Act
    const description = userRowsCountDescription('DuckDB', 'sp_demo', "o'brien");

    // Assess
    expect(description).toBe(
      "DuckDB: SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = 'sp_demo', user_id = 'o''brien'",
    );
  });
});
