import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_LAKE_DATABASE_NAME, LAKE_DATABASE_NAME_PATTERN } from '../../lib/lake/commentRowsTable';
import { lakeDatabaseNameFor } from '../../lib/lake/lakeDatabaseName';
import { DEFAULT_LOCAL_DATA_PATH, IN_MEMORY_DATA_DIR } from '../../lib/settings/localRuntimeLayout';
import { executeApiRegion } from '../ApiEndpoint';
import { CliUsageError } from '../errors';

/** Where `query` runs: Athena in a deployed stack, or DuckDB over the local runtime's files. */
export type QueryTarget =
  | { engine: 'athena'; region: string; workGroup: string; database: string }
  | {
      engine: 'duckdb';
      /** Absolute path of the local runtime's data dir. */
      dataDir: string;
      database: string;
    };

export interface QueryTargetOptions {
  local: boolean;
  dataDir: string | undefined;
  workGroup: string | undefined;
  database: string | undefined;
  region: string | undefined;
  /** `--api`, whose execute-api host names a region. */
  api: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Relative paths are resolved against it. */
  cwd: string;
  command: string;
}

/**
 * Athena when a workgroup is named (`--workgroup` or `$OPENWEB_EXPORTS_WORKGROUP`, from the stack's
 * `AthenaWorkGroupName` output) unless `--local` says otherwise, in the database named after the
 * workgroup as the stack names its own unless `--database` names another; DuckDB over the local runtime's
 * archive otherwise, the way the other commands talk to `npm start` unless pointed elsewhere. The
 * local files are in `--data-dir`, else `$LOCAL_DATA_DIR`, else the project's `.local-data`:
 * where `npm start` keeps them.
 */
export function resolveQueryTarget(options: QueryTargetOptions): QueryTarget {
  const { env, command } = options;
  if (options.local && options.workGroup !== undefined) {
    throw new CliUsageError('--local and --workgroup exclude each other: DuckDB here, or Athena', command);
  }
  const workGroup = options.local
    ? undefined
    : (options.workGroup ?? nonEmpty(env.OPENWEB_EXPORTS_WORKGROUP));
  // A stack names its workgroup and, unless configured otherwise, its database after itself.
  const database =
    options.database ??
    nonEmpty(env.OPENWEB_EXPORTS_DATABASE) ??
    (workGroup === undefined ? DEFAULT_LAKE_DATABASE_NAME : lakeDatabaseNameFor(workGroup));
  if (!LAKE_DATABASE_NAME_PATTERN.test(database)) {
    throw new CliUsageError(`--database '${database}' must be a catalog name of a-z, 0-9 and _`, command);
  }
  if (workGroup === undefined) return { engine: 'duckdb', dataDir: localDataDir(options), database };
  if (options.dataDir !== undefined) {
    throw new CliUsageError('--data-dir is for local queries: drop --workgroup, or pass --local', command);
  }
  const apiText = options.api ?? nonEmpty(env.OPENWEB_EXPORTS_API);
  const region =
    nonEmpty(options.region) ??
    (apiText === undefined ? undefined : regionOfApi(apiText)) ??
    nonEmpty(env.AWS_REGION) ??
    nonEmpty(env.AWS_DEFAULT_REGION);
  if (region === undefined) {
    throw new CliUsageError(`Athena needs a region: pass --region or set AWS_REGION`, command);
  }
  return { engine: 'athena', region, workGroup, database };
}

function localDataDir(options: QueryTargetOptions): string {
  const fromEnvironment = nonEmpty(options.env.LOCAL_DATA_DIR);
  if (options.dataDir === undefined && fromEnvironment?.toLowerCase() === IN_MEMORY_DATA_DIR) {
    throw new CliUsageError(
      `LOCAL_DATA_DIR=${IN_MEMORY_DATA_DIR} keeps the local archive in a temporary folder: pass --data-dir, ` +
        'or run npm start with a data dir',
      options.command,
    );
  }
  const text = options.dataDir ?? fromEnvironment;
  if (text === undefined) return DEFAULT_LOCAL_DATA_PATH;
  return isAbsolute(text) ? text : resolve(options.cwd, text);
}

function regionOfApi(text: string): string | undefined {
  try {
    return executeApiRegion(new URL(text).hostname);
  } catch {
    return undefined;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
