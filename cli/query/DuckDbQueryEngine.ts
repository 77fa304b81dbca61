import {
  type DuckDBConnection,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import { COMMENT_CHANGES_VIEW_NAME, COMMENT_CHANGES_VIEW_SQL } from '../../lib/lake/commentChangesView';
import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_PARTITION_KEYS,
  COMMENT_ROWS_TABLE_NAME,
  type LakeColumn,
  LakeColumnType,
} from '../../lib/lake/commentRowsTable';
import { COMMENTS_VIEW_NAME, COMMENTS_VIEW_SQL } from '../../lib/lake/commentsView';
import { findLocalLakeFiles, type LocalLakeFiles } from '../../lib/lake/localLakeFiles';
import { QueryFailedError, QueryRefusedError } from '../errors';
import type { QueryEngine } from './QueryEngine';
import {
  ColumnKind,
  canonicalFloatText,
  canonicalTimestampText,
  type QueryColumn,
  type QueryResult,
} from './QueryResult';
import { assertReadOnlyStatement } from './readOnlyStatement';

export const DUCKDB_ENGINE_NAME = 'DuckDB';
/** How DuckDB starts the message of a refused file access. */
const PERMISSION_ERROR = 'Permission Error';

/** DuckDB's types for the catalog's column types. */
const DUCKDB_TYPES: Record<LakeColumnType, string> = {
  [LakeColumnType.STRING]: 'VARCHAR',
  [LakeColumnType.BIGINT]: 'BIGINT',
  [LakeColumnType.TIMESTAMP]: 'TIMESTAMP',
};

const INTEGER_TYPE_IDS = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);
const FLOAT_TYPE_IDS = new Set<DuckDBTypeId>([DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE]);
const TIMESTAMP_TYPE_IDS = new Set<DuckDBTypeId>([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
]);

export interface DuckDbQueryEngineOptions {
  /** The local runtime's data dir (absolute). */
  dataDir: string;
  /** The schema the table and view are in, named like the catalog database. */
  database: string;
}

/**
 * The archive's table and view on this machine: an in-memory DuckDB whose `comment_rows` is a
 * view over the local runtime's Parquet objects, read in place from the S3 stand-in's files (hive
 * partitions `spot` and `date` from their paths, typed exactly as the catalog types them), and
 * whose `comments` and `comment_changes` are the catalog's view texts themselves. All three live
 * in a schema named like the catalog database, which is also the search path: `comments` and
 * `openweb_exports.comments` both work.
 *
 * It answers questions about the archive and nothing else: once the views are made, DuckDB may
 * read the archive's own Parquet files and no other file (`allowed_paths`, external access off),
 * load no extension, and no setting can change (`lock_configuration`); a statement runs only if
 * it starts as a question (see `assertReadOnlyStatement`), and alone (DuckDB splits a PIVOT
 * without an IN list into a type definition and a SELECT: two statements, refused).
 */
export class DuckDbQueryEngine implements QueryEngine {
  readonly name = DUCKDB_ENGINE_NAME;
  readonly source: string;
  readonly notice?: string;
  readonly files: LocalLakeFiles;
  readonly #instance: DuckDBInstance;
  readonly #connection: DuckDBConnection;

  private constructor(instance: DuckDBInstance, connection: DuckDBConnection, files: LocalLakeFiles) {
    this.#instance = instance;
    this.#connection = connection;
    this.files = files;
    this.source = `${files.files.length} Parquet ${files.files.length === 1 ? 'file' : 'files'} in ${files.directory}`;
    if (files.files.length === 0) {
      this.notice =
        `No archived Parquet files in ${files.directory} yet: the tables are empty. Start the local ` +
        "runtime ('npm start'), run an export and let it archive, or pass --data-dir.";
    }
  }

  static async open(options: DuckDbQueryEngineOptions): Promise<DuckDbQueryEngine> {
    const files = await findLocalLakeFiles(options.dataDir);
    // Values with a time zone are printed in UTC, as Athena prints them.
    DuckDBTimestampTZValue.timezoneOffsetInMinutes = 0;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    // Timestamps are UTC, as in Athena; a Parquet timestamp adjusted to UTC is read as one with a zone.
    await connection.run("SET TimeZone = 'UTC'");
    // The archive's files and nothing else: no other file, no extension, no network.
    await connection.run(`SET allowed_paths = [${files.files.map(sqlString).join(', ')}]`);
    await connection.run('SET enable_external_access = false');
    const schema = options.database;
    await connection.run(`CREATE SCHEMA ${schema}`);
    await connection.run(
      `CREATE VIEW ${schema}.${COMMENT_ROWS_TABLE_NAME} AS ${commentRowsSelect(files.files)}`,
    );
    await connection.run(`SET search_path = '${schema}'`);
    await connection.run(`CREATE VIEW ${schema}.${COMMENTS_VIEW_NAME} AS ${COMMENTS_VIEW_SQL}`);
    await connection.run(`CREATE VIEW ${schema}.${COMMENT_CHANGES_VIEW_NAME} AS ${COMMENT_CHANGES_VIEW_SQL}`);
    // From here on no statement can change a setting, external access included.
    await connection.run('SET lock_configuration = true');
    return new DuckDbQueryEngine(instance, connection, files);
  }

  async run(sql: string): Promise<QueryResult> {
    assertReadOnlyStatement(sql, this.name);
    let reader: Awaited<ReturnType<DuckDBConnection['runAndReadAll']>>;
    try {
      const statements = await this.#connection.extractStatements(sql);
      // Athena runs one statement per query: so does this engine, so a query means the same on both.
      if (statements.count !== 1) {
        throw new QueryFailedError(
          this.name,
          `${statements.count === 0 ? 'no statement' : `${statements.count} statements`} to run: a query is one statement`,
        );
      }
      reader = await (await statements.prepare(0)).runAndReadAll();
    } catch (error) {
      if (error instanceof QueryFailedError) throw error;
      const message = engineMessage(error);
      if (message.startsWith(PERMISSION_ERROR)) {
        throw new QueryRefusedError(
          this.name,
          `${message.split('\n')[0]}: a query here reads only the archive's own files (${COMMENT_ROWS_TABLE_NAME}, ${COMMENTS_VIEW_NAME}, ${COMMENT_CHANGES_VIEW_NAME})`,
          { cause: error },
        );
      }
      throw new QueryFailedError(this.name, message, { cause: error });
    }
    const types = reader.columnTypes();
    const columns = reader.columnNames().map((name, index) => columnOf(name, types[index] as DuckDBType));
    const rows = reader
      .getRows()
      .map((row) => row.map((value, index) => textOf(value, types[index] as DuckDBType)));
    return { columns, rows };
  }

  async close(): Promise<void> {
    this.#connection.closeSync();
    this.#instance.closeSync();
  }
}

/** The table's columns read from the files, each cast to the catalog's type, then the partitions. */
function commentRowsSelect(files: readonly string[]): string {
  const columns = [...COMMENT_ROW_COLUMNS, ...COMMENT_ROWS_PARTITION_KEYS].map(castColumn).join(', ');
  if (files.length === 0) {
    // No file yet: an empty table with the same columns, so every query still binds.
    const empty = [...COMMENT_ROW_COLUMNS, ...COMMENT_ROWS_PARTITION_KEYS]
      .map((column) => `CAST(NULL AS ${DUCKDB_TYPES[column.type]}) AS ${identifier(column.name)}`)
      .join(', ');
    return `SELECT ${empty} LIMIT 0`;
  }
  const list = files.map(sqlString).join(', ');
  // By name, as Athena reads Parquet: a file without a column gives nulls in it.
  return (
    `SELECT ${columns} FROM read_parquet([${list}], hive_partitioning = true, ` +
    'hive_types_autocast = false, union_by_name = true)'
  );
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function castColumn(column: LakeColumn): string {
  const name = identifier(column.name);
  // A timestamp adjusted to UTC reads as one with a zone; a CAST converts it through the ICU time
  // zone rules, row by row (about 5 × slower than the read itself). From its microseconds since the
  // epoch it is the same UTC instant, as cheaply as it was read; files without a zone read alike.
  if (column.type === LakeColumnType.TIMESTAMP) return `make_timestamp(epoch_us(${name})) AS ${name}`;
  return `CAST(${name} AS ${DUCKDB_TYPES[column.type]}) AS ${name}`;
}

function identifier(name: string): string {
  return `"${name}"`;
}

function columnOf(name: string, type: DuckDBType): QueryColumn {
  return { name, type: String(type), kind: kindOf(type.typeId) };
}

function kindOf(id: DuckDBTypeId): ColumnKind {
  if (INTEGER_TYPE_IDS.has(id)) return ColumnKind.INTEGER;
  if (FLOAT_TYPE_IDS.has(id)) return ColumnKind.FLOAT;
  if (id === DuckDBTypeId.DECIMAL) return ColumnKind.DECIMAL;
  if (id === DuckDBTypeId.BOOLEAN) return ColumnKind.BOOLEAN;
  return ColumnKind.TEXT;
}

function textOf(value: DuckDBValue, type: DuckDBType): string | null {
  if (value === null) return null;
  const id = type.typeId;
  if (FLOAT_TYPE_IDS.has(id)) return canonicalFloatText(String(value));
  if (TIMESTAMP_TYPE_IDS.has(id)) return canonicalTimestampText(String(value));
  // `…+00` (the offset is set to UTC at open) as Athena prints a UTC timestamp with time zone.
  if (id === DuckDBTypeId.TIMESTAMP_TZ) return canonicalTimestampText(String(value).replace(/\+00$/, ' UTC'));
  return String(value);
}

/** DuckDB's message without the wrapper some calls add. */
function engineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Failed to extract statements: /, '').trimEnd();
}
