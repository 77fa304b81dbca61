import { describe, expect, it } from 'vitest';
import { functionEnvironment } from '../../../infra/functionEnvironment';
import { loadConfig } from '../../../lib/config';
import {
  handlerEnvironment,
  MIN_SCALED_SECONDS,
  MIN_SILENT_EXPORT_SECONDS,
  scaledExportSettings,
} from '../../../local/localDependencies';
import { parseLocalRuntimeSettings } from '../../../local/localRuntimeSettings';
import { LOCAL_TABLE_NAME } from '../../../local/localStores';

const SIMULATOR = { authBaseUrl: 'http://127.0.0.1:4010', exportBaseUrl: 'http://127.0.0.1:4010' };
const CONTEXT = { cwd: '/work/here', projectRoot: '/project' };

function settingsWith(stackConfig: unknown) {
  return parseLocalRuntimeSettings({ LOCAL_STACK_CONFIG: JSON.stringify(stackConfig) }, CONTEXT);
}

describe('handlerEnvironment', () => {
  it('gives the handlers the environment the stack writes, with this machine’s upstream, credentials and table', () => {
    // Prepare
    const settings = settingsWith({
      polling: { exportDeadlineSeconds: 3600 },
      archive: { downloadUrlExpirySeconds: 120, writeTable: false },
    });

    // Act
    const environment = handlerEnvironment({}, settings, SIMULATOR, ['sp_demo']);

    // Assess: the fleet is every spot with a key, with no freshness target unless configured
    expect(environment).toEqual({
      ...functionEnvironment('all', settings.stackConfig, {}),
      FLEET_FRESHNESS_TARGETS: JSON.stringify({ sp_demo: null }),
      OPENWEB_AUTH_BASE_URL: SIMULATOR.authBaseUrl,
      OPENWEB_EXPORT_BASE_URL: SIMULATOR.exportBaseUrl,
      LOCAL_SECRETS_FILE: '/project/local/demo-spots.json',
      TABLE_NAME: LOCAL_TABLE_NAME,
    });
    expect(loadConfig(environment).exports.exportDeadlineSeconds).toBe(3600);
    expect(loadConfig(environment).archive.urlExpirySeconds).toBe(120);
    expect(loadConfig(environment).archive.writeTable).toBe(false);
    expect(loadConfig(environment).exports.freshnessTargets).toEqual({ sp_demo: null });
  });

  it('lets a variable of npm start’s environment win over the stack configuration', () => {
    // Prepare
    const settings = settingsWith({
      upstreamAuthRequestsPerSecond: 2,
      polling: { exportDeadlineSeconds: 3600 },
    });

    // Act
    const environment = handlerEnvironment(
      { UPSTREAM_AUTH_REQUESTS_PER_SECOND: '50', EXPORT_DEADLINE_SECONDS: '7200', TABLE_NAME: 'elsewhere' },
      settings,
      SIMULATOR,
    );

    // Assess: the table stays this machine's.
    expect(environment).toMatchObject({
      UPSTREAM_AUTH_REQUESTS_PER_SECOND: '50',
      EXPORT_DEADLINE_SECONDS: '7200',
      TABLE_NAME: LOCAL_TABLE_NAME,
    });
  });

  it('passes no JWT spot claim on: the local API authorizes no caller by JWT', () => {
    // Prepare
    const settings = settingsWith({
      auth: { mode: 'jwt', issuer: 'https://issuer.example.com', audience: ['a'], spotClaim: 'spots' },
    });

    // Act
    const environment = handlerEnvironment({}, settings, SIMULATOR);

    // Assess
    expect(environment.AUTH_SPOT_CLAIM).toBeUndefined();
    expect(loadConfig(environment).authorization.spotClaim).toBeUndefined();
  });
});

describe('scaledExportSettings', () => {
  const deployed = loadConfig(handlerEnvironment({}, settingsWith({}), SIMULATOR)).exports;

  it('shortens when the reconciler takes an export for silent like the workflow polls it: in simulated time', () => {
    // Act
    const scaled = scaledExportSettings(deployed, 0.1);

    // Assess: 15 simulated minutes last 90 real seconds, as the workflow's scaled poll backoff does.
    expect(deployed.reconcileStaleAfterSeconds).toBe(900);
    expect(scaled.reconcileStaleAfterSeconds).toBeCloseTo(90);
    expect(scaled.windowRetryCooldownSeconds).toBeCloseTo(deployed.windowRetryCooldownSeconds * 0.1);
    // Real I/O keeps its real-time bounds.
    expect(scaled.statusFreshnessSeconds).toBe(deployed.statusFreshnessSeconds);
  });

  it('changes nothing at time scale 1', () => {
    // Act
    const scaled = scaledExportSettings(deployed, 1);

    // Assess
    expect(scaled).toEqual(deployed);
  });

  it('takes an export for silent no sooner than a call to a stand-in may take, however small the scale', () => {
    // Act
    const scaled = scaledExportSettings(deployed, 0.001);

    // Assess: 0.9 s scaled, but a poll waiting on a busy machine's table is not silent.
    expect(MIN_SILENT_EXPORT_SECONDS).toBe(30);
    expect(scaled.reconcileStaleAfterSeconds).toBe(MIN_SILENT_EXPORT_SECONDS);
    // Any other scaled duration keeps at least a second.
    expect(scaled.windowRetryCooldownSeconds).toBe(MIN_SCALED_SECONDS);
  });
});
