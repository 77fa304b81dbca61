import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { UserRowsQuery } from '../lib/exports/erasure/ports';
import { COMMENT_ROWS_TABLE_NAME } from '../lib/lake/commentRowsTable';
import { TableQueryFailedError } from '../lib/lake/errors';
import { findLakeFilesInBucket } from '../lib/lake/localLakeFiles';
import { USER_ROWS_COUNT_SQL, userRowsCountDescription } from '../lib/lake/userRowsCount';

export const DUCKDB_USER_ROWS_ENGINE = 'DuckDB';

export interface DuckDbUserRowsQueryOptions {
  /** The folder of the S3 stand-in's archive bucket (LocalS3.bucketDirectory). */
  bucketDirectory: string;
}

/**
 * The table's answer on this machine: how many rows of a user `comment_rows` holds for a spot,
 * asked of DuckDB over the archive's Parquet objects as they are now (listed again at every
 * question, as the CLI's `query` lists them at its start: a file rewritten or added since counts),
 * the spot from the key's `spot=` partition as Athena reads it. The spot and the user are bound
 * parameters. DuckDB reads those files and no other, and loads nothing.
 */
export class DuckDbUserRowsQuery implements UserRowsQuery {
  readonly #bucketDirectory: string;

  constructor(options: DuckDbUserRowsQueryOptions) {
    this.#bucketDirectory = options.bucketDirectory;
  }

  describe(spotId: string, userId: string): string {
    return userRowsCountDescription(DUCKDB_USER_ROWS_ENGINE, spotId, userId);
  }

  /** @throws TableQueryFailedError when DuckDB cannot read a file or answer */
  async count(spotId: string, userId: string): Promise<number> {
    const { files } = await findLakeFilesInBucket(this.#bucketDirectory);
    let instance: DuckDBInstance | undefined;
    let connection: DuckDBConnection | undefined;
    try {
      instance = await DuckDBInstance.create(':memory:');
      connection = await instance.connect();
      await connection.run(`SET allowed_paths = [${files.map(sqlString).join(', ')}]`);
      await connection.run('SET enable_external_access = false');
      await connection.run(`CREATE VIEW ${COMMENT_ROWS_TABLE_NAME} AS ${userColumnsOf(files)}`);
      const statement = await connection.prepare(USER_ROWS_COUNT_SQL);
      statement.bindVarchar(1, spotId);
      statement.bindVarchar(2, userId);
      const value = (await statement.runAndReadAll()).getRows()[0]?.[0];
      if (typeof value !== 'bigint' && typeof value !== 'number')
        throw new TableQueryFailedError(DUCKDB_USER_ROWS_ENGINE, `no count in the answer (${String(value)})`);
      return Number(value);
    } catch (error) {
      if (error instanceof TableQueryFailedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new TableQueryFailedError(DUCKDB_USER_ROWS_ENGINE, message.split('\n')[0] ?? message, {
        cause: error,
      });
    } finally {
      connection?.closeSync();
      instance?.closeSync();
    }
  }
}

/** The two columns the question reads, typed as the catalog types them; no file: an empty table. */
function userColumnsOf(files: readonly string[]): string {
  if (files.length === 0)
    return 'SELECT CAST(NULL AS VARCHAR) AS user_id, CAST(NULL AS VARCHAR) AS spot LIMIT 0';
  // By name, as Athena reads Parquet: a file without the column gives nulls in it.
  return (
    'SELECT CAST(user_id AS VARCHAR) AS user_id, CAST(spot AS VARCHAR) AS spot ' +
    `FROM read_parquet([${files.map(sqlString).join(', ')}], hive_partitioning = true, ` +
    'hive_types_autocast = false, union_by_name = true)'
  );
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
