import type { QueryResult } from './QueryResult';

/** Where a query is while it runs. */
export interface QueryProgress {
  /** The engine's own word, e.g. `QUEUED` or `RUNNING`. */
  state: string;
  elapsedMs: number;
  /** Bytes read so far, where the engine says. */
  scannedBytes?: number;
}

export interface QueryRunOptions {
  /** Called while the query runs (Athena, between status checks). */
  onProgress?: (progress: QueryProgress) => void;
  /** Aborted on Ctrl-C: the engine stops the query. */
  signal?: AbortSignal;
}

/** Runs one SQL statement over the archive's `comment_rows` table and `comments` view. */
export interface QueryEngine {
  /** `Athena` or `DuckDB`: how messages name it. */
  readonly name: string;
  /** Where the data is, for the summary line: `workgroup x, database y` or the Parquet folder. */
  readonly source: string;
  /** Something to tell before the answer, e.g. that there is no data yet. */
  readonly notice?: string;
  /** @throws QueryFailedError with the engine's own message when it refuses or fails the query */
  run(sql: string, options?: QueryRunOptions): Promise<QueryResult>;
  close(): Promise<void>;
}
