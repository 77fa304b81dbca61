import type { CliIo } from '../CliIo';
import { AwsCredentialsUnavailableError, QueryEngineUnavailableError } from '../errors';

/** Builds the engine a query runs on; tests pass their own through `CliIo.openQueryEngine`. */
export type QueryEngineOpener = NonNullable<CliIo['openQueryEngine']>;

/**
 * Athena's client, or DuckDB over the local files. Each is loaded only when a query needs it:
 * DuckDB's native library weighs tens of MB, and the other commands never load either.
 */
export const openQueryEngine: QueryEngineOpener = async (target, io) => {
  if (target.engine === 'duckdb') {
    const { DuckDbQueryEngine } = await import('./DuckDbQueryEngine').catch((error: unknown) => {
      throw new QueryEngineUnavailableError(
        `the local query engine (DuckDB) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    return DuckDbQueryEngine.open({ dataDir: target.dataDir, database: target.database });
  }
  const [{ AthenaClient }, { AthenaQueryEngine }, { fromNodeProviderChain }] = await Promise.all([
    import('@aws-sdk/client-athena'),
    import('./AthenaQueryEngine'),
    import('@aws-sdk/credential-providers'),
  ]);
  // The default chain (env, SSO, profiles, instance roles), as for signed API requests.
  const provider = io.awsCredentials ?? fromNodeProviderChain();
  const client = new AthenaClient({
    region: target.region,
    credentials: async () => {
      try {
        return await provider();
      } catch (error) {
        throw new AwsCredentialsUnavailableError(
          `no AWS credentials for Athena (${error instanceof Error ? error.message : String(error)})`,
          { cause: error },
        );
      }
    },
  });
  return new AthenaQueryEngine({
    client,
    region: target.region,
    workGroup: target.workGroup,
    database: target.database,
    sleep: io.sleep,
    now: io.now,
    say: (line) => io.stderr.write(`${line}\n`),
  });
};
