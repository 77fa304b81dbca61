import {
  type AthenaClient,
  GetQueryExecutionCommand,
  type GetQueryExecutionCommandOutput,
  GetQueryResultsCommand,
  type ResultSet,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import {
  AwsCredentialsUnavailableError,
  CliInterruptedError,
  QueryEngineUnavailableError,
  QueryFailedError,
} from '../errors';
import type { QueryEngine, QueryRunOptions } from './QueryEngine';
import {
  ColumnKind,
  canonicalFloatText,
  canonicalTimestampText,
  type QueryColumn,
  type QueryResult,
} from './QueryResult';

export const ATHENA_ENGINE_NAME = 'Athena';
/** The first status check comes soon (small queries finish in about a second), then less often. */
export const ATHENA_POLL_FIRST_DELAY_MS = 250;
export const ATHENA_POLL_MAX_DELAY_MS = 2_000;
const ATHENA_POLL_BACKOFF_FACTOR = 1.5;
/** GetQueryResults' largest page. */
export const ATHENA_RESULTS_PAGE_ROWS = 1_000;
/** The catalog of the account's Glue databases. */
const ATHENA_GLUE_CATALOG = 'AwsDataCatalog';

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'integer', 'int', 'bigint']);
const FLOAT_TYPES = new Set(['real', 'float', 'double']);
const TIMESTAMP_TYPES = new Set(['timestamp', 'timestamp with time zone']);

/** The network failures that mean Athena could not be reached, by Node's codes. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']);

export interface AthenaQueryEngineOptions {
  client: AthenaClient;
  region: string;
  workGroup: string;
  database: string;
  /** Resolves after the delay; may reject early once `signal` aborts. */
  sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  /** Where `Query … stopped` is said on Ctrl-C. */
  say?: (line: string) => void;
}

/**
 * The archive's table and view in AWS: one StartQueryExecution in the deployment's workgroup
 * (which sets the results location, their encryption and the scanned-bytes limit) and database,
 * status checks with backoff until it ends, then every page of GetQueryResults. Ctrl-C stops the
 * query in Athena too.
 */
export class AthenaQueryEngine implements QueryEngine {
  readonly name = ATHENA_ENGINE_NAME;
  readonly source: string;
  readonly #options: AthenaQueryEngineOptions;

  constructor(options: AthenaQueryEngineOptions) {
    this.#options = options;
    this.source = `workgroup ${options.workGroup}, database ${options.database} (${options.region})`;
  }

  async run(sql: string, runOptions: QueryRunOptions = {}): Promise<QueryResult> {
    const { client, workGroup, database } = this.#options;
    const started = await this.#send(() =>
      client.send(
        new StartQueryExecutionCommand({
          QueryString: sql,
          WorkGroup: workGroup,
          QueryExecutionContext: { Catalog: ATHENA_GLUE_CATALOG, Database: database },
        }),
      ),
    );
    const queryId = started.QueryExecutionId;
    if (queryId === undefined) throw new QueryFailedError(this.name, 'Athena started no query (no query id)');
    const execution = await this.#waitForEnd(queryId, runOptions);
    const status = execution.QueryExecution?.Status;
    const scannedBytes = execution.QueryExecution?.Statistics?.DataScannedInBytes;
    if (status?.State !== 'SUCCEEDED') {
      const reason = status?.AthenaError?.ErrorMessage ?? status?.StateChangeReason ?? 'no reason given';
      const scanned = scannedBytes === undefined ? '' : ` (${scannedBytes} bytes scanned)`;
      throw new QueryFailedError(
        this.name,
        `query ${queryId} ${status?.State ?? 'ended'}: ${reason}${scanned}`,
      );
    }
    const { columns, rows } = await this.#results(queryId, execution.QueryExecution?.StatementType);
    return { columns, rows, ...(scannedBytes !== undefined && { scannedBytes }) };
  }

  async close(): Promise<void> {
    this.#options.client.destroy();
  }

  async #waitForEnd(queryId: string, runOptions: QueryRunOptions): Promise<GetQueryExecutionCommandOutput> {
    const { client, sleep, now } = this.#options;
    const startedAtMs = now();
    let delayMs = ATHENA_POLL_FIRST_DELAY_MS;
    for (;;) {
      const execution = await this.#send(() =>
        client.send(new GetQueryExecutionCommand({ QueryExecutionId: queryId })),
      );
      const state = execution.QueryExecution?.Status?.State;
      if (state !== 'QUEUED' && state !== 'RUNNING') return execution;
      const scannedBytes = execution.QueryExecution?.Statistics?.DataScannedInBytes;
      runOptions.onProgress?.({
        state,
        elapsedMs: now() - startedAtMs,
        ...(scannedBytes !== undefined && { scannedBytes }),
      });
      try {
        await sleep(delayMs, runOptions.signal);
      } catch (error) {
        if (runOptions.signal?.aborted !== true) throw error;
      }
      if (runOptions.signal?.aborted === true) await this.#stop(queryId);
      delayMs = Math.min(Math.round(delayMs * ATHENA_POLL_BACKOFF_FACTOR), ATHENA_POLL_MAX_DELAY_MS);
    }
  }

  /** Ctrl-C: the query stops in Athena too (it would otherwise run, and bill, to its end). */
  async #stop(queryId: string): Promise<never> {
    await this.#options.client
      .send(new StopQueryExecutionCommand({ QueryExecutionId: queryId }))
      .then(() => this.#options.say?.(`Query ${queryId} stopped.`))
      .catch(() => this.#options.say?.(`Query ${queryId} may still be running: stopping it failed.`));
    throw new CliInterruptedError();
  }

  async #results(queryId: string, statementType: string | undefined) {
    const { client } = this.#options;
    let columns: QueryColumn[] = [];
    const rows: (string | null)[][] = [];
    let nextToken: string | undefined;
    let firstPage = true;
    do {
      const page = await this.#send(() =>
        client.send(
          new GetQueryResultsCommand({
            QueryExecutionId: queryId,
            MaxResults: ATHENA_RESULTS_PAGE_ROWS,
            ...(nextToken !== undefined && { NextToken: nextToken }),
          }),
        ),
      );
      const resultSet: ResultSet = page.ResultSet ?? {};
      if (firstPage) {
        columns = (resultSet.ResultSetMetadata?.ColumnInfo ?? []).map((info) =>
          columnOf(info.Name ?? '', info.Type ?? ''),
        );
      }
      const pageRows = (resultSet.Rows ?? []).map((row) =>
        (row.Data ?? []).map((datum, index) => textOf(datum.VarCharValue, columns[index])),
      );
      // A SELECT's first row repeats the column names; other statements' results have no such row.
      rows.push(...(firstPage && statementType === 'DML' ? pageRows.slice(1) : pageRows));
      firstPage = false;
      nextToken = page.NextToken;
    } while (nextToken !== undefined);
    return { columns, rows };
  }

  /** One Athena call, its failures in the CLI's terms. */
  async #send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.#translate(error);
    }
  }

  #translate(error: unknown): Error {
    if (error instanceof AwsCredentialsUnavailableError) return error;
    const failure = error as Error & { code?: unknown; $metadata?: unknown; cause?: { code?: unknown } };
    const code = typeof failure.code === 'string' ? failure.code : failure.cause?.code;
    if (failure.name === 'CredentialsProviderError') {
      return new AwsCredentialsUnavailableError(`no AWS credentials for Athena (${failure.message})`, {
        cause: error,
      });
    }
    if (failure.name === 'TimeoutError' || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) {
      return new QueryEngineUnavailableError(
        `cannot reach Athena in ${this.#options.region}: ${failure.message}`,
        { cause: error },
      );
    }
    // Athena's own refusals (InvalidRequestException, AccessDeniedException, …): its words.
    if (failure.$metadata !== undefined) {
      return new QueryFailedError(this.name, `${failure.name}: ${failure.message}`, { cause: error });
    }
    return failure;
  }
}

function columnOf(name: string, type: string): QueryColumn {
  const base = type.toLowerCase().replace(/\(.*$/, '');
  const kind = INTEGER_TYPES.has(base)
    ? ColumnKind.INTEGER
    : FLOAT_TYPES.has(base)
      ? ColumnKind.FLOAT
      : base === 'decimal'
        ? ColumnKind.DECIMAL
        : base === 'boolean'
          ? ColumnKind.BOOLEAN
          : ColumnKind.TEXT;
  return { name, type, kind };
}

function textOf(value: string | undefined, column: QueryColumn | undefined): string | null {
  if (value === undefined) return null;
  if (column?.kind === ColumnKind.FLOAT) return canonicalFloatText(value);
  const base = column?.type.toLowerCase().replace(/\(\d+\)/, '');
  if (base !== undefined && TIMESTAMP_TYPES.has(base)) return canonicalTimestampText(value);
  return value;
}
