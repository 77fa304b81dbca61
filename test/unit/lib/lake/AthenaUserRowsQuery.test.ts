import {
  AthenaClient,
  GetQueryExecutionCommand,
  type GetQueryExecutionCommandOutput,
  GetQueryResultsCommand,
  InternalServerException,
  InvalidRequestException,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AthenaUserRowsQuery,
  USER_ROWS_POLL_FIRST_DELAY_MS,
  USER_ROWS_POLL_MAX_DELAY_MS,
} from '../../../../lib/lake/AthenaUserRowsQuery';
import { TableQueryFailedError, TableQueryTimedOutError } from '../../../../lib/lake/errors';
import { captureError } from '../../../support/captureError';

const QUERY_ID = 'q-0001';

function execution(State: string, reason?: string): GetQueryExecutionCommandOutput {
  return {
    $metadata: {},
    QueryExecution: {
      QueryExecutionId: QUERY_ID,
      Status: { State: State as 'RUNNING', ...(reason !== undefined && { StateChangeReason: reason }) },
    },
  };
}

const answer = (count: string | undefined) => ({
  ResultSet: {
    Rows: [
      { Data: [{ VarCharValue: 'user_rows' }] },
      { Data: [count === undefined ? {} : { VarCharValue: count }] },
    ],
  },
});

describe('AthenaUserRowsQuery', () => {
  const client = new AthenaClient({ region: 'eu-west-1' });
  const athena = mockClient(client);
  let nowMs: number;
  let slept: number[];

  const userRows = (timeoutMs?: number) =>
    new AthenaUserRowsQuery({
      client,
      workGroup: 'OpenWebExports-prod',
      database: 'openwebexports_prod',
      now: () => nowMs,
      sleep: async (ms) => {
        slept.push(ms);
        nowMs += ms;
      },
      ...(timeoutMs !== undefined && { timeoutMs }),
    });

  beforeEach(() => {
    athena.reset();
    nowMs = 1_000_000;
    slept = [];
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: QUERY_ID });
    athena.on(StopQueryExecutionCommand).resolves({});
  });

  it('asks comment_rows in the workgroup and database, the spot and user as execution parameters', async () => {
    // Prepare
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce(execution('QUEUED'))
      .resolvesOnce(execution('RUNNING'))
      .resolves(execution('SUCCEEDED'));
    athena.on(GetQueryResultsCommand).resolves(answer('3'));

    // Act
    const count = await userRows().count('sp_demo', "o'brien");

    // Assess
    expect(count).toBe(3);
    expect(athena).toHaveReceivedCommandWith(StartQueryExecutionCommand, {
      QueryString: 'SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ?',
      ExecutionParameters: ["'sp_demo'", "'o''brien'"],
      WorkGroup: 'OpenWebExports-prod',
      QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: 'openwebexports_prod' },
    });
    const sent = athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input.QueryString;
    expect(sent).not.toContain('brien');
    expect(athena).toHaveReceivedCommandTimes(GetQueryExecutionCommand, 3);
    expect(athena).toHaveReceivedCommandWith(GetQueryResultsCommand, { QueryExecutionId: QUERY_ID });
    expect(slept).toEqual([USER_ROWS_POLL_FIRST_DELAY_MS, 2 * USER_ROWS_POLL_FIRST_DELAY_MS]);
  });

  it('answers 0 when the table holds none of the user', async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(execution('SUCCEEDED'));
    athena.on(GetQueryResultsCommand).resolves(answer('0'));

    // Act / Assess
    expect(await userRows().count('sp_demo', 'u1')).toBe(0);
    expect(slept).toEqual([]);
  });

  it('stops a query still running at the timeout and fails as timed out, its delays capped', async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(execution('RUNNING'));

    // Act
    const error = await captureError(userRows(30_000).count('sp_demo', 'u1'));

    // Assess
    expect(error).toBeInstanceOf(TableQueryTimedOutError);
    expect(error).toMatchObject({ queryId: QUERY_ID, timeoutMs: 30_000, retryable: true });
    expect(athena).toHaveReceivedCommandWith(StopQueryExecutionCommand, { QueryExecutionId: QUERY_ID });
    expect(Math.max(...slept)).toBe(USER_ROWS_POLL_MAX_DELAY_MS);
    expect(slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(30_000);
    expect(athena).toHaveReceivedCommandTimes(GetQueryResultsCommand, 0);
  });

  it("fails with Athena's reason when the query fails, and names a refused start", async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(execution('FAILED', 'TABLE_NOT_FOUND: comment_rows'));
    const failed = await captureError(userRows().count('sp_demo', 'u1'));
    athena
      .on(StartQueryExecutionCommand)
      .rejects(new InvalidRequestException({ message: 'workgroup is disabled', $metadata: {} }));

    // Act
    const refused = await captureError(userRows().count('sp_demo', 'u1'));

    // Assess
    expect(failed).toBeInstanceOf(TableQueryFailedError);
    expect(failed.message).toBe(
      'Athena did not answer the query: query q-0001 FAILED: TABLE_NOT_FOUND: comment_rows',
    );
    expect(refused).toBeInstanceOf(TableQueryFailedError);
    expect(refused).toMatchObject({ retryable: false });
    expect(refused.message).toContain('InvalidRequestException: workgroup is disabled');
  });

  it('fails as retryable when Athena faults, and fails on an answer without a count', async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(execution('SUCCEEDED'));
    athena.on(GetQueryResultsCommand).resolves(answer(undefined));
    const empty = await captureError(userRows().count('sp_demo', 'u1'));
    athena
      .on(GetQueryResultsCommand)
      .rejects(new InternalServerException({ message: 'internal error', $metadata: {} }));

    // Act
    const faulted = await captureError(userRows().count('sp_demo', 'u1'));

    // Assess
    expect(empty).toBeInstanceOf(TableQueryFailedError);
    expect(empty.message).toContain('query q-0001 answered no count');
    expect(faulted).toMatchObject({ name: 'TableQueryFailedError', retryable: true });
  });

  it('describes the query with its workgroup, database and values', () => {
    // Act / Assess
    expect(userRows().describe('sp_demo', 'u1')).toBe(
      "Athena (workgroup OpenWebExports-prod, database openwebexports_prod): SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = 'sp_demo', user_id = 'u1'",
    );
  });
});
