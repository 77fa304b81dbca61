import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * The archived objects as local files (DuckDB reads local Parquet only), laid out by their keys,
 * and a DuckDB of its own to query them; `close` removes both.
 */
export interface LocalParquetFiles {
  /** The folder the objects' keys are relative to. */
  root: string;
  /** Rows of a query, values as JavaScript values (BIGINT as bigint), session time zone UTC. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function localParquetFiles(objects: ReadonlyMap<string, Buffer>): Promise<LocalParquetFiles> {
  const root = await mkdtemp(join(tmpdir(), 'archive-parquet-'));
  for (const [key, body] of objects) {
    if (!key.endsWith('.parquet')) continue;
    await mkdir(dirname(join(root, key)), { recursive: true });
    await writeFile(join(root, key), body);
  }
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  return {
    root,
    query: async (sql) =>
      (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[],
    close: async () => {
      connection.closeSync();
      instance.closeSync();
      await rm(root, { recursive: true, force: true });
    },
  };
}
