import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../../cli/errors';
import { type QueryTargetOptions, resolveQueryTarget } from '../../../../cli/query/QueryTarget';
import { parseLocalRuntimeSettings } from '../../../../local/localRuntimeSettings';
import { LOCAL_PROJECT_ROOT } from '../../../../local/projectRoot';

const CWD = '/home/analyst/work';

function options(overrides: Partial<QueryTargetOptions> = {}): QueryTargetOptions {
  return {
    local: false,
    dataDir: undefined,
    workGroup: undefined,
    database: undefined,
    region: undefined,
    api: undefined,
    env: {},
    cwd: CWD,
    command: 'query',
    ...overrides,
  };
}

describe('resolveQueryTarget', () => {
  it("queries the local runtime's files where npm start keeps them when nothing is said", () => {
    // Act
    const target = resolveQueryTarget(options());

    // Assess
    expect(target).toEqual({
      engine: 'duckdb',
      dataDir: join(LOCAL_PROJECT_ROOT, '.local-data'),
      database: 'openweb_exports',
    });
  });

  it('takes the data dir from --data-dir, else LOCAL_DATA_DIR, relative to the working directory', () => {
    // Act
    const fromOption = resolveQueryTarget(
      options({ dataDir: 'data', env: { LOCAL_DATA_DIR: '/elsewhere' } }),
    );
    const fromEnvironment = resolveQueryTarget(options({ env: { LOCAL_DATA_DIR: 'runtime-data' } }));

    // Assess
    expect(fromOption).toMatchObject({ engine: 'duckdb', dataDir: `${CWD}/data` });
    expect(fromEnvironment).toMatchObject({ engine: 'duckdb', dataDir: `${CWD}/runtime-data` });
  });

  it.each([[{}], [{ LOCAL_DATA_DIR: 'runtime-data' }], [{ LOCAL_DATA_DIR: '/var/openweb' }]])(
    'looks where npm start keeps its data, given the same environment %j',
    (env) => {
      // Prepare
      const runtime = parseLocalRuntimeSettings(env, { cwd: CWD, projectRoot: LOCAL_PROJECT_ROOT });

      // Act
      const target = resolveQueryTarget(options({ env }));

      // Assess
      expect(target).toMatchObject({ engine: 'duckdb', dataDir: runtime.dataDir });
    },
  );

  it('runs on Athena when a workgroup is named, in the region of --region, of the API host, or AWS_REGION', () => {
    // Act
    const named = resolveQueryTarget(
      options({ workGroup: 'wg', region: 'eu-central-1', env: { AWS_REGION: 'us-east-1' } }),
    );
    const fromApi = resolveQueryTarget(
      options({
        env: {
          OPENWEB_EXPORTS_WORKGROUP: 'OpenWebExports',
          OPENWEB_EXPORTS_API: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
          AWS_REGION: 'us-east-1',
          OPENWEB_EXPORTS_DATABASE: 'exports_lake',
        },
      }),
    );
    const fromEnvironment = resolveQueryTarget(
      options({ workGroup: 'wg', env: { AWS_DEFAULT_REGION: 'ap-south-1' } }),
    );

    // Assess
    expect(named).toEqual({
      engine: 'athena',
      region: 'eu-central-1',
      workGroup: 'wg',
      database: 'wg',
    });
    expect(fromApi).toEqual({
      engine: 'athena',
      region: 'eu-west-1',
      workGroup: 'OpenWebExports',
      database: 'exports_lake',
    });
    expect(fromEnvironment).toMatchObject({ engine: 'athena', region: 'ap-south-1' });
  });

  it('asks Athena in the database the stack names after itself, as its workgroup, unless one is named', () => {
    // Act
    const derived = resolveQueryTarget(options({ workGroup: 'OpenWebExports-staging', region: 'eu-west-1' }));
    const named = resolveQueryTarget(
      options({ workGroup: 'OpenWebExports-staging', region: 'eu-west-1', database: 'openweb_exports' }),
    );

    // Assess
    expect(derived).toMatchObject({ engine: 'athena', database: 'openwebexports_staging' });
    expect(named).toMatchObject({ engine: 'athena', database: 'openweb_exports' });
  });

  it('stays local with --local, whatever workgroup the environment names', () => {
    // Act
    const target = resolveQueryTarget(options({ local: true, env: { OPENWEB_EXPORTS_WORKGROUP: 'wg' } }));

    // Assess
    expect(target.engine).toBe('duckdb');
  });

  it.each([
    [
      { env: { LOCAL_DATA_DIR: 'memory' } },
      'LOCAL_DATA_DIR=memory keeps the local archive in a temporary folder',
    ],
    [{ workGroup: 'wg', dataDir: 'data', region: 'eu-west-1' }, '--data-dir is for local queries'],
    [{ workGroup: 'wg' }, 'Athena needs a region'],
    [
      { database: 'openweb-exports' },
      "--database 'openweb-exports' must be a catalog name of a-z, 0-9 and _",
    ],
  ])('refuses %j', (overrides, message) => {
    // Act
    const resolving = () => resolveQueryTarget(options(overrides));

    // Assess
    expect(resolving).toThrow(CliUsageError);
    expect(resolving).toThrow(message);
  });
});
