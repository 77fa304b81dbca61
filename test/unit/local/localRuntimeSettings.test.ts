import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../lib/settings/Setting';
import { SETTINGS, SIMULATED_TIME_SCALE } from '../../../lib/settings/settingsTable';
import { LocalRuntimeConfigError } from '../../../local/errors';
import { parseLocalRuntimeSettings } from '../../../local/localRuntimeSettings';

const context = { cwd: '/work/here', projectRoot: '/project' };

function problemsOf(
  env: NodeJS.ProcessEnv,
  extra: Partial<typeof context> & { cdkJsonStackConfig?: unknown } = {},
) {
  try {
    parseLocalRuntimeSettings(env, { ...context, ...extra });
    return [];
  } catch (error) {
    if (!(error instanceof LocalRuntimeConfigError)) throw error;
    return error.problems;
  }
}

describe('parseLocalRuntimeSettings', () => {
  it('defaults to the simulator, demo keys, port 3000, the project data dir and WARN logs', () => {
    // Act
    const settings = parseLocalRuntimeSettings({}, context);

    // Assess
    expect(settings).toMatchObject({
      apiPort: 3000,
      upstream: { kind: 'simulator', port: 4010 },
      secretsFile: '/project/local/demo-spots.json',
      timeScale: SIMULATED_TIME_SCALE,
      dataDir: '/project/.local-data',
      logLevel: 'WARN',
    });
    expect(settings.stackConfig.spots).toEqual([]);
  });

  it('reads every variable, resolving relative paths against the working directory', () => {
    // Act
    const settings = parseLocalRuntimeSettings(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_TIME_SCALE: '0.001',
        LOCAL_DATA_DIR: 'data',
        LOCAL_SECRETS_FILE: 'keys.json',
        LOG_LEVEL: 'debug',
      },
      context,
    );

    // Assess
    expect(settings).toMatchObject({
      apiPort: 0,
      upstream: { kind: 'simulator', port: 0 },
      timeScale: 0.001,
      dataDir: '/work/here/data',
      secretsFile: '/work/here/keys.json',
      logLevel: 'DEBUG',
    });
  });

  it('keeps everything in memory with LOCAL_DATA_DIR=memory, and treats empty values as unset', () => {
    // Act
    const memory = parseLocalRuntimeSettings({ LOCAL_DATA_DIR: 'memory' }, context);
    const empty = parseLocalRuntimeSettings({ PORT: '', LOCAL_DATA_DIR: ' ' }, context);

    // Assess
    expect(memory.dataDir).toBeUndefined();
    expect(empty).toMatchObject({ apiPort: 3000, dataDir: '/project/.local-data' });
  });

  it('prefers POWERTOOLS_LOG_LEVEL over LOG_LEVEL, as Powertools does', () => {
    // Act
    const settings = parseLocalRuntimeSettings(
      { POWERTOOLS_LOG_LEVEL: 'error', LOG_LEVEL: 'debug' },
      context,
    );

    // Assess
    expect(settings.logLevel).toBe('ERROR');
  });

  it('uses the real upstream at real speed when its URLs are set, with the given keys', () => {
    // Act
    const settings = parseLocalRuntimeSettings(
      { OPENWEB_EXPORT_BASE_URL: 'https://exports.example.com', LOCAL_SECRETS_FILE: '/keys.json' },
      context,
    );

    // Assess
    expect(settings.upstream).toEqual({
      kind: 'openweb',
      authBaseUrl: undefined,
      exportBaseUrl: 'https://exports.example.com',
    });
    expect(settings.timeScale).toBe(1);
    expect(settings.secretsFile).toBe('/keys.json');
  });

  it('names every bad variable at once', () => {
    // Act
    const problems = problemsOf({
      PORT: '70000',
      SIMULATOR_PORT: 'abc',
      LOCAL_TIME_SCALE: '0',
      LOG_LEVEL: 'chatty',
    });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^PORT must be at most 65535/),
      expect.stringMatching(/^SIMULATOR_PORT must be a number/),
      expect.stringMatching(/^LOCAL_TIME_SCALE must be greater than 0/),
      expect.stringMatching(/^LOG_LEVEL must be one of/),
    ]);
  });

  it('refuses a time scale above real time', () => {
    // Act
    const problems = problemsOf({ LOCAL_TIME_SCALE: '2' });

    // Assess
    expect(problems).toEqual([expect.stringMatching(/^LOCAL_TIME_SCALE must be at most 1/)]);
  });

  it('gives the simulator the upstream’s auth limit and no export limit by default, or the configured ones', () => {
    // Act
    const defaults = parseLocalRuntimeSettings({}, context);
    const configured = parseLocalRuntimeSettings(
      {
        SIMULATOR_AUTH_REQUESTS_PER_SECOND: '0',
        SIMULATOR_EXPORT_REQUESTS_PER_SECOND: '20',
        SIMULATOR_EXPORT_RATE_LIMIT_SCOPE: 'spot',
        SIMULATOR_AUTH_RETRY_AFTER: 'false',
      },
      context,
    );

    // Assess
    expect(defaults.upstream).toEqual({
      kind: 'simulator',
      port: 4010,
      authRequestsPerSecond: 1,
      authRateLimitRetryAfter: true,
      comments: {
        commentsPerHour: 250,
        statusChangeShare: 0.2,
        editShare: 0.05,
        deleteShare: 0.05,
        maxChangeDelaySeconds: 172_800,
      },
      exportRequestsPerSecond: undefined,
      exportRateLimitScope: 'clientAddress',
    });
    expect(configured.upstream).toMatchObject({
      authRequestsPerSecond: 0,
      authRateLimitRetryAfter: false,
      exportRequestsPerSecond: 20,
      exportRateLimitScope: 'spot',
    });
  });

  it('archives by default, and reads LOCAL_ARCHIVE and how many comments the simulator holds and how they change', () => {
    // Act
    const defaults = parseLocalRuntimeSettings({}, context);
    const configured = parseLocalRuntimeSettings(
      {
        LOCAL_ARCHIVE: 'off',
        SIMULATOR_COMMENTS_PER_HOUR: '12500',
        SIMULATOR_STATUS_CHANGE_SHARE: '0.5',
        SIMULATOR_EDIT_SHARE: '0',
        SIMULATOR_DELETE_SHARE: '1',
        SIMULATOR_MAX_CHANGE_DELAY_SECONDS: '3600',
      },
      context,
    );

    // Assess
    expect(defaults.archive).toBe(true);
    expect(configured.archive).toBe(false);
    expect(configured.upstream).toMatchObject({
      comments: {
        commentsPerHour: 12_500,
        statusChangeShare: 0.5,
        editShare: 0,
        deleteShare: 1,
        maxChangeDelaySeconds: 3_600,
      },
    });
    expect(
      problemsOf({
        LOCAL_ARCHIVE: 'yes',
        SIMULATOR_COMMENTS_PER_HOUR: '200000',
        SIMULATOR_DELETE_SHARE: '1.5',
        SIMULATOR_MAX_CHANGE_DELAY_SECONDS: '30',
      }),
    ).toEqual([
      expect.stringMatching(/^SIMULATOR_COMMENTS_PER_HOUR must be at most 100000/),
      expect.stringMatching(/^SIMULATOR_DELETE_SHARE must be at most 1/),
      expect.stringMatching(/^SIMULATOR_MAX_CHANGE_DELAY_SECONDS must be at least 60/),
      'LOCAL_ARCHIVE must be on or off',
    ]);
  });

  it('names bad simulator rate limits', () => {
    // Act
    const problems = problemsOf({
      SIMULATOR_AUTH_REQUESTS_PER_SECOND: '-1',
      SIMULATOR_EXPORT_REQUESTS_PER_SECOND: '0.5',
      SIMULATOR_EXPORT_RATE_LIMIT_SCOPE: 'region',
    });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^SIMULATOR_AUTH_REQUESTS_PER_SECOND must be at least 0/),
      expect.stringMatching(/^SIMULATOR_EXPORT_REQUESTS_PER_SECOND must be an integer/),
      expect.stringMatching(/^SIMULATOR_EXPORT_RATE_LIMIT_SCOPE must be one of clientAddress, spot/),
    ]);
  });

  it('requires LOCAL_SECRETS_FILE with a real upstream, since the demo keys only open the simulator', () => {
    // Act
    const problems = problemsOf({ OPENWEB_AUTH_BASE_URL: 'https://auth.example.com' });

    // Assess
    expect(problems).toEqual([expect.stringMatching(/^LOCAL_SECRETS_FILE is required/)]);
  });

  it('reads the stack config from LOCAL_STACK_CONFIG, else from cdk.json', () => {
    // Prepare
    const fromCdkJson = { spots: [{ spotId: 'sp_cdk', schedules: [] }] };
    const fromEnv = {
      spots: [{ spotId: 'sp_env', schedules: [{ expression: 'rate(1 day)', window: 'P1D' }] }],
    };

    // Act
    const cdk = parseLocalRuntimeSettings({}, { ...context, cdkJsonStackConfig: fromCdkJson });
    const env = parseLocalRuntimeSettings(
      { LOCAL_STACK_CONFIG: JSON.stringify(fromEnv) },
      { ...context, cdkJsonStackConfig: fromCdkJson },
    );

    // Assess
    expect(cdk.stackConfig.spots.map((spot) => spot.spotId)).toEqual(['sp_cdk']);
    expect(env.stackConfig.spots.map((spot) => spot.spotId)).toEqual(['sp_env']);
    expect(env.rawStackConfig).toEqual(fromEnv);
  });

  it('names LOCAL_STACK_CONFIG and the bad key when the stack config is wrong', () => {
    // Act
    const notJson = problemsOf({ LOCAL_STACK_CONFIG: '{spots:' });
    const badKey = problemsOf({
      LOCAL_STACK_CONFIG: JSON.stringify({
        spots: [{ spotId: 'sp_x', schedules: [{ expression: 'daily', window: 'P1D' }] }],
      }),
    });
    const badCdkJson = problemsOf({}, { cdkJsonStackConfig: { polling: { reconcileRate: 'often' } } });

    // Assess
    expect(notJson).toEqual(['LOCAL_STACK_CONFIG is not valid JSON']);
    expect(badKey).toEqual([
      expect.stringMatching(/^LOCAL_STACK_CONFIG: openwebExports\.spots\.0\.schedules\.0\.expression: /),
    ]);
    expect(badCdkJson).toEqual([
      expect.stringMatching(/^cdk\.json context: openwebExports\.polling\.reconcileRate: /),
    ]);
  });

  it('names the key probably meant for a mistyped one in LOCAL_STACK_CONFIG or cdk.json', () => {
    // Act
    const fromEnv = problemsOf({
      LOCAL_STACK_CONFIG: JSON.stringify({ polling: { reconcileRat: 'rate(1 hour)' } }),
    });
    const fromCdkJson = problemsOf({}, { cdkJsonStackConfig: { spots: [{ spotId: 'sp_x', schedule: [] }] } });

    // Assess
    expect(fromEnv).toEqual([
      'LOCAL_STACK_CONFIG: openwebExports.polling: unknown key "reconcileRat" (did you mean "reconcileRate"?)',
    ]);
    expect(fromCdkJson).toEqual([
      'cdk.json context: openwebExports.spots.0: unknown key "schedule" (did you mean "schedules"?)',
    ]);
  });

  it.each(
    Object.values(SETTINGS as Record<string, Setting>).filter(
      (setting) => setting.scope === 'local' && !['path', 'json'].includes(setting.kind.type),
    ),
  )('reads $env as the settings table says', (setting) => {
    // Act
    const problems = problemsOf({ [setting.env as string]: 'not-a-value-of-any-setting' });

    // Assess
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${setting.env} must `))]);
  });
});
