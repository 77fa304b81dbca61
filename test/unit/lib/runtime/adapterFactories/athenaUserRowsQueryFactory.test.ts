import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../lib/config';
import { athenaUserRowsQueryFactory } from '../../../../../lib/runtime/adapterFactories/athenaUserRowsQueryFactory';

describe('athenaUserRowsQueryFactory', () => {
  const client = new AthenaClient({ region: 'eu-west-1' });
  const athena = mockClient(client);

  beforeEach(() => {
    athena.reset();
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' } } });
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: { Rows: [{ Data: [{ VarCharValue: 'user_rows' }] }, { Data: [{ VarCharValue: '2' }] }] },
    });
  });

  const build = (env: Record<string, string>) =>
    athenaUserRowsQueryFactory(
      { config: loadConfig(env), clients: { athena: client }, now: Date.now },
      { workGroupName: 'OpenWebExports-prod' },
    );

  it("asks Athena in the given workgroup and the stack's database (LAKE_DATABASE_NAME)", async () => {
    // Prepare
    const userRows = build({ ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'exports_lake' });

    // Act
    const count = await userRows?.count('sp_demo', 'u1');

    // Assess
    expect(count).toBe(2);
    expect(athena).toHaveReceivedCommandWith(StartQueryExecutionCommand, {
      WorkGroup: 'OpenWebExports-prod',
      QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: 'exports_lake' },
      ExecutionParameters: ["'sp_demo'", "'u1'"],
    });
    expect(userRows?.describe('sp_demo', 'u1')).toContain(
      'workgroup OpenWebExports-prod, database exports_lake',
    );
  });

  it('builds nothing (and calls nothing) when the archive writes no table', () => {
    // Act
    const userRows = build({ ARCHIVE_BUCKET_NAME: 'archive-1', ARCHIVE_WRITE_TABLE: 'false' });

    // Assess
    expect(userRows).toBeUndefined();
    expect(athena.calls()).toHaveLength(0);
  });
});
