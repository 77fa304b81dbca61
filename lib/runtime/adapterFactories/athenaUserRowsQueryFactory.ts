import { AthenaClient } from '@aws-sdk/client-athena';
import type { UserRowsQuery } from '../../exports/erasure/ports';
import { AthenaUserRowsQuery } from '../../lake/AthenaUserRowsQuery';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterContext } from '../buildDependencies';

export interface AthenaUserRowsQueryFactoryOptions {
  /** The deployment's Athena workgroup (the stack names it after itself: ExportsLake's `workGroupName`). */
  workGroupName: string;
}

/**
 * The table an erasure asks at its end, in AWS: Athena in the deployment's workgroup over its
 * catalog database (`LAKE_DATABASE_NAME`); undefined when the archive writes no table
 * (`archive.writeTable` off), so only the files are checked. The client is built on the first count.
 * Needs athena:StartQueryExecution, GetQueryExecution, GetQueryResults and StopQueryExecution on
 * the workgroup, glue:GetDatabase, GetTable and GetPartitions on the database and table, s3 reads
 * of `tables/comments/` and reads and writes of the workgroup's results prefix.
 */
export function athenaUserRowsQueryFactory(
  { config, clients, now }: Pick<AdapterContext, 'config' | 'clients' | 'now'>,
  options: AthenaUserRowsQueryFactoryOptions,
): UserRowsQuery | undefined {
  if (!config.archive.writeTable) return undefined;
  let query: AthenaUserRowsQuery | undefined;
  const athena = () =>
    (query ??= new AthenaUserRowsQuery({
      client: clients.athena ?? new AthenaClient({ requestHandler: AWS_REQUEST_HANDLER }),
      workGroup: options.workGroupName,
      database: config.archive.lakeDatabaseName,
      now,
    }));
  return {
    describe: (spotId, userId) => athena().describe(spotId, userId),
    count: (spotId, userId) => athena().count(spotId, userId),
  };
}
