import {
  AthenaClient,
  GetQueryExecutionCommand,
  type GetQueryExecutionCommandOutput,
  GetQueryResultsCommand,
  InvalidRequestException,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { CliInterruptedError, QueryEngineUnavailableError, QueryFailedError } from '../../../../cli/errors';
import { AthenaQueryEngine } from '../../../../cli/query/AthenaQueryEngine';
import type { QueryProgress } from '../../../../cli/query/QueryEngine';
import { captureError } from '../../../support/captureError';

const QUERY_ID = 'q-0001';

function execution(
  State: string,
  extra: { scanned?: number; reason?: string; statementType?: string } = {},
): GetQueryExecutionCommandOutput {
  return {
    $metadata: {},
    QueryExecution: {
      QueryExecutionId: QUERY_ID,
      StatementType: (extra.statementType ?? 'DML') as 'DML',
      Status: {
        State: State as 'RUNNING',
        ...(extra.reason !== undefined && { StateChangeReason: extra.reason }),
      },
      ...(extra.scanned !== undefined && { Statistics: { DataScannedInBytes: extra.scanned } }),
    },
  };
}

const row = (...values: (string | undefined)[]) => ({
  Data: values.map((value) => (value === undefined ? {} : { VarCharValue: value })),
});

const COLUMNS = {
  ColumnInfo: [
    { Name: 'day', Type: 'date' },
    { Name: 'comments', Type: 'bigint' },
    { Name: 'share', Type: 'double' },
    { Name: 'newest', Type: 'timestamp' },
  ],
};

describe('AthenaQueryEngine', () => {
  const client = new AthenaClient({ region: 'eu-west-1' });
  const athena = mockClient(client);
  let sleeps: number[];
  let said: string[];
  let clockMs: number;

  function engine() {
    return new AthenaQueryEngine({
      client,
      region: 'eu-west-1',
      workGroup: 'OpenWebExports',
      database: 'openweb_exports',
      sleep: async (milliseconds) => {
        sleeps.push(milliseconds);
        clockMs += milliseconds;
      },
      now: () => clockMs,
      say: (line) => said.push(line),
    });
  }

  beforeEach(() => {
    athena.reset();
    sleeps = [];
    said = [];
    clockMs = 0;
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: QUERY_ID });
  });

  it('starts the query in the workgroup and database, waits with backoff, and pages through every result', async () => {
    // Prepare
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce(execution('QUEUED'))
      .resolvesOnce(execution('RUNNING', { scanned: 1_000 }))
      .resolvesOnce(execution('RUNNING', { scanned: 2_000 }))
      .resolves(execution('SUCCEEDED', { scanned: 5_000 }));
    athena
      .on(GetQueryResultsCommand, { QueryExecutionId: QUERY_ID, MaxResults: 1000 })
      .resolves({
        ResultSet: {
          ResultSetMetadata: COLUMNS,
          Rows: [
            row('day', 'comments', 'share', 'newest'),
            row('2024-05-01', '1204', '5.714E1', '2024-05-01 10:00:00.123'),
          ],
        },
        NextToken: 'page-2',
      })
      .on(GetQueryResultsCommand, { QueryExecutionId: QUERY_ID, MaxResults: 1000, NextToken: 'page-2' })
      .resolves({
        ResultSet: { ResultSetMetadata: COLUMNS, Rows: [row('2024-05-02', '3', '0.5', undefined)] },
      });
    const progress: QueryProgress[] = [];

    // Act
    const result = await engine().run('SELECT 1', { onProgress: (update) => progress.push(update) });

    // Assess
    expect(athena).toHaveReceivedCommandWith(StartQueryExecutionCommand, {
      QueryString: 'SELECT 1',
      WorkGroup: 'OpenWebExports',
      QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: 'openweb_exports' },
    });
    expect(sleeps).toEqual([250, 375, 563]);
    expect(progress).toEqual([
      { state: 'QUEUED', elapsedMs: 0 },
      { state: 'RUNNING', elapsedMs: 250, scannedBytes: 1_000 },
      { state: 'RUNNING', elapsedMs: 625, scannedBytes: 2_000 },
    ]);
    expect(result).toEqual({
      columns: [
        { name: 'day', type: 'date', kind: 'text' },
        { name: 'comments', type: 'bigint', kind: 'integer' },
        { name: 'share', type: 'double', kind: 'float' },
        { name: 'newest', type: 'timestamp', kind: 'text' },
      ],
      // The header row of a SELECT is dropped; floats and timestamps print as DuckDB's do.
      rows: [
        ['2024-05-01', '1204', '57.14', '2024-05-01 10:00:00.123'],
        ['2024-05-02', '3', '0.5', null],
      ],
      scannedBytes: 5_000,
    });
  });

  it('keeps the first row of a statement that is not a SELECT (its results have no header row)', async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(execution('SUCCEEDED', { statementType: 'UTILITY' }));
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: [{ Name: 'tab_name', Type: 'string' }] },
        Rows: [row('comment_rows'), row('comments')],
      },
    });

    // Act
    const result = await engine().run('SHOW TABLES');

    // Assess
    expect(result.rows).toEqual([['comment_rows'], ['comments']]);
  });

  it("fails with Athena's reason when the query fails", async () => {
    // Prepare
    athena
      .on(GetQueryExecutionCommand)
      .resolves(
        execution('FAILED', { reason: "COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved" }),
      );

    // Act
    const error = await captureError(engine().run('SELECT nope FROM comments'));

    // Assess
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error.message).toBe(
      `query ${QUERY_ID} FAILED: COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved`,
    );
    expect(athena).not.toHaveReceivedCommand(GetQueryResultsCommand);
  });

  it('says how much a query cancelled at the workgroup scanned-bytes limit had scanned', async () => {
    // Prepare
    athena.on(GetQueryExecutionCommand).resolves(
      execution('CANCELLED', {
        reason: 'Query cancelled: it exceeded the data usage limit of the workgroup',
        scanned: 10_000_000_000,
      }),
    );

    // Act
    const error = await captureError(engine().run('SELECT * FROM comment_rows'));

    // Assess
    expect(error.message).toBe(
      `query ${QUERY_ID} CANCELLED: Query cancelled: it exceeded the data usage limit of the workgroup (10000000000 bytes scanned)`,
    );
  });

  it("passes on Athena's refusal to start a query in its own words", async () => {
    // Prepare
    athena.on(StartQueryExecutionCommand).rejects(
      new InvalidRequestException({
        message: 'WorkGroup nope is not found.',
        $metadata: { httpStatusCode: 400 },
      }),
    );

    // Act
    const error = await captureError(engine().run('SELECT 1'));

    // Assess
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error.message).toBe('InvalidRequestException: WorkGroup nope is not found.');
  });

  it('says Athena cannot be reached when the network fails', async () => {
    // Prepare
    athena.on(StartQueryExecutionCommand).rejects(
      Object.assign(new Error('getaddrinfo ENOTFOUND athena.eu-west-1.amazonaws.com'), {
        code: 'ENOTFOUND',
      }),
    );

    // Act
    const error = await captureError(engine().run('SELECT 1'));

    // Assess
    expect(error).toBeInstanceOf(QueryEngineUnavailableError);
    expect(error.message).toBe(
      'cannot reach Athena in eu-west-1: getaddrinfo ENOTFOUND athena.eu-west-1.amazonaws.com',
    );
  });

  it('stops the query in Athena on Ctrl-C, so it does not run on and bill', async () => {
    // Prepare
    const interrupt = new AbortController();
    // Ctrl-C while the query runs; had it not been stopped, it would have finished.
    athena
      .on(GetQueryExecutionCommand)
      .callsFakeOnce(() => {
        interrupt.abort();
        return execution('RUNNING');
      })
      .resolves(execution('SUCCEEDED'));
    athena.on(GetQueryResultsCommand).resolves({ ResultSet: { Rows: [] } });
    athena.on(StopQueryExecutionCommand).resolves({});

    // Act
    const error = await captureError(engine().run('SELECT 1', { signal: interrupt.signal }));

    // Assess
    expect(error).toBeInstanceOf(CliInterruptedError);
    expect(athena).toHaveReceivedCommandWith(StopQueryExecutionCommand, { QueryExecutionId: QUERY_ID });
    expect(said).toEqual([`Query ${QUERY_ID} stopped.`]);
  });
});
