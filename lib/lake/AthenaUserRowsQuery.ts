import { setTimeout as sleepFor } from 'node:timers/promises';
import {
  type AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import type { UserRowsQuery } from '../exports/erasure/ports';
import { TableQueryFailedError, TableQueryTimedOutError } from './errors';
import { sqlStringLiteral, USER_ROWS_COUNT_SQL, userRowsCountDescription } from './userRowsCount';

export const ATHENA_USER_ROWS_ENGINE = 'Athena';
/** How long a count may run before it is stopped: a count of one spot's partitions takes seconds. */
export const USER_ROWS_QUERY_TIMEOUT_MS = 120_000;
/** The first status check comes soon (small queries end in about a second), then less often. */
export const USER_ROWS_POLL_FIRST_DELAY_MS = 500;
export const USER_ROWS_POLL_MAX_DELAY_MS = 5_000;
const POLL_BACKOFF_FACTOR = 2;
/** The catalog of the account's Glue databases. */
const ATHENA_GLUE_CATALOG = 'AwsDataCatalog';
/** The header row and the count. */
const RESULT_ROWS = 2;

export interface AthenaUserRowsQueryOptions {
  client: AthenaClient;
  /** The deployment's workgroup: it sets where results go, their encryption and the scan limit. */
  workGroup: string;
  /** The deployment's catalog database (lib/lake/lakeDatabaseName.ts). */
  database: string;
  /** Epoch ms. */
  now: () => number;
  sleep?: (milliseconds: number) => Promise<void>;
  /** Defaults to USER_ROWS_QUERY_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * The table's answer in AWS: how many rows of a user `comment_rows` holds for a spot, asked of
 * Athena in the deployment's workgroup and database. The spot and the user are execution
 * parameters, never written into the query's text. Its status is checked with backoff until it
 * ends; a query still running at the timeout is stopped and the count fails as timed out.
 */
export class AthenaUserRowsQuery implements UserRowsQuery {
  readonly #options: AthenaUserRowsQueryOptions;

  constructor(options: AthenaUserRowsQueryOptions) {
    this.#options = options;
  }

  describe(spotId: string, userId: string): string {
    const { workGroup, database } = this.#options;
    return userRowsCountDescription(
      `${ATHENA_USER_ROWS_ENGINE} (workgroup ${workGroup}, database ${database})`,
      spotId,
      userId,
    );
  }

  /**
   * @throws TableQueryFailedError when Athena refuses or fails the query, or its answer holds no count
   * @throws TableQueryTimedOutError when it still runs after the timeout
   */
  async count(spotId: string, userId: string): Promise<number> {
    const { client, workGroup, database } = this.#options;
    const started = await this.#send(() =>
      client.send(
        new StartQueryExecutionCommand({
          QueryString: USER_ROWS_COUNT_SQL,
          ExecutionParameters: [sqlStringLiteral(spotId), sqlStringLiteral(userId)],
          WorkGroup: workGroup,
          QueryExecutionContext: { Catalog: ATHENA_GLUE_CATALOG, Database: database },
        }),
      ),
    );
    const queryId = started.QueryExecutionId;
    if (queryId === undefined) throw new TableQueryFailedError(ATHENA_USER_ROWS_ENGINE, 'no query id');
    await this.#waitForSuccess(queryId);
    const results = await this.#send(() =>
      client.send(new GetQueryResultsCommand({ QueryExecutionId: queryId, MaxResults: RESULT_ROWS })),
    );
    // The first row repeats the column's name; the second holds the count.
    const value = results.ResultSet?.Rows?.[1]?.Data?.[0]?.VarCharValue;
    if (value === undefined || !/^\d+$/.test(value)) {
      throw new TableQueryFailedError(
        ATHENA_USER_ROWS_ENGINE,
        `query ${queryId} answered no count (${value ?? 'no value'})`,
      );
    }
    return Number(value);
  }

  async #waitForSuccess(queryId: string): Promise<void> {
    const { client, now, sleep = (ms: number) => sleepFor(ms).then(() => undefined) } = this.#options;
    const timeoutMs = this.#options.timeoutMs ?? USER_ROWS_QUERY_TIMEOUT_MS;
    const deadlineMs = now() + timeoutMs;
    let delayMs = USER_ROWS_POLL_FIRST_DELAY_MS;
    for (;;) {
      const execution = await this.#send(() =>
        client.send(new GetQueryExecutionCommand({ QueryExecutionId: queryId })),
      );
      const status = execution.QueryExecution?.Status;
      if (status?.State === 'SUCCEEDED') return;
      if (status?.State !== 'QUEUED' && status?.State !== 'RUNNING') {
        const reason = status?.AthenaError?.ErrorMessage ?? status?.StateChangeReason ?? 'no reason given';
        throw new TableQueryFailedError(
          ATHENA_USER_ROWS_ENGINE,
          `query ${queryId} ${status?.State ?? 'ended'}: ${reason}`,
        );
      }
      if (now() + delayMs > deadlineMs) {
        // It would otherwise run, and bill, to its end.
        await client
          .send(new StopQueryExecutionCommand({ QueryExecutionId: queryId }))
          .catch(() => undefined);
        throw new TableQueryTimedOutError(ATHENA_USER_ROWS_ENGINE, queryId, timeoutMs);
      }
      await sleep(delayMs);
      delayMs = Math.min(delayMs * POLL_BACKOFF_FACTOR, USER_ROWS_POLL_MAX_DELAY_MS);
    }
  }

  /** One Athena call, its failure a TableQueryFailedError (retryable when the cause is passing). */
  async #send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new TableQueryFailedError(ATHENA_USER_ROWS_ENGINE, failure, { cause: error });
    }
  }
}
