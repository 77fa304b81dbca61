import { describe, expect, it } from 'vitest';
import { functionEnvironment } from '../../../infra/functionEnvironment';
import { parseStackConfig } from '../../../infra/stackConfig';
import { loadConfig } from '../../../lib/config';

const RESOURCES = {
  TABLE_NAME: 'exports-table',
  STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:ExportPolling',
  EVENT_BUS_NAME: 'exports-bus',
  ARCHIVE_BUCKET_NAME: 'exports-archive',
};

describe('functionEnvironment', () => {
  it('gives the lifecycle functions their variables from the stack configuration, the resources and the stack-written defaults', () => {
    // Act
    const environment = functionEnvironment('lifecycle', parseStackConfig({}), RESOURCES);

    // Assess
    expect(environment).toEqual({
      OPENWEB_AUTH_BASE_URL: 'https://api.openweb.com',
      OPENWEB_EXPORT_BASE_URL: 'https://api-exporter.openweb.com',
      SECRET_NAME_PREFIX: 'openweb-exports/spots/',
      SECRETS_CACHE_MAX_AGE_SECONDS: '300',
      UPSTREAM_AUTH_REQUESTS_PER_SECOND: '1',
      EXPORT_DEADLINE_SECONDS: '21600',
      DEFAULT_FIRST_POLL_DELAY_SECONDS: '30',
      STATUS_FRESHNESS_SECONDS: '10',
      RECONCILE_STALE_AFTER_SECONDS: '900',
      WINDOW_RETRY_ATTEMPTS: '3',
      WINDOW_RETRY_COOLDOWN_SECONDS: '600',
      RESTATEMENTS_PER_SPOT_PER_DAY: '48',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_SERVICE_NAME: 'openweb-exports',
      POWERTOOLS_METRICS_NAMESPACE: 'OpenWebExports',
      TABLE_NAME: 'exports-table',
      STATE_MACHINE_ARN: RESOURCES.STATE_MACHINE_ARN,
      EVENT_BUS_NAME: 'exports-bus',
    });
  });

  it('gives the archive functions only the archive settings and the variables every function reads', () => {
    // Act
    const environment = functionEnvironment('archive', parseStackConfig({}), RESOURCES);

    // Assess
    expect(environment).toEqual({
      OPENWEB_EXPORT_BASE_URL: 'https://api-exporter.openweb.com',
      ARCHIVE_URL_EXPIRY_SECONDS: '900',
      // Unset in the configuration: the stack writes the name it derives from its own.
      ARCHIVE_WRITE_TABLE: 'true',
      WINDOW_RETRY_ATTEMPTS: '3',
      WINDOW_RETRY_COOLDOWN_SECONDS: '600',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_SERVICE_NAME: 'openweb-exports',
      POWERTOOLS_METRICS_NAMESPACE: 'OpenWebExports',
      TABLE_NAME: 'exports-table',
      EVENT_BUS_NAME: 'exports-bus',
      ARCHIVE_BUCKET_NAME: 'exports-archive',
    });
  });

  it('writes the optional settings once configured: download hosts as a list, the JWT spot claim', () => {
    // Prepare
    const config = parseStackConfig({
      openWebDownloadHosts: ['cdn.example.com', '*.files.example.com'],
      auth: { mode: 'jwt', issuer: 'https://issuer.example.com', audience: ['a'], spotClaim: 'custom:spots' },
    });

    // Act
    const lifecycle = functionEnvironment('lifecycle', config, RESOURCES);
    const archive = functionEnvironment('archive', config, RESOURCES);

    // Assess
    for (const environment of [lifecycle, archive]) {
      expect(environment).toMatchObject({
        OPENWEB_DOWNLOAD_HOSTS: 'cdn.example.com,*.files.example.com',
        AUTH_SPOT_CLAIM: 'custom:spots',
      });
    }
  });

  it('writes the role-to-spots map as JSON for every function, and the archive expiry for the archive functions', () => {
    // Prepare
    const spotsByPrincipal = { 'arn:aws:iam::123456789012:role/exports-marketing': ['sp_marketing'] };
    const config = parseStackConfig({
      auth: { mode: 'iam', spotsByPrincipal },
      archive: { infrequentAccessAfterDays: null, expireAfterDays: 365 },
    });

    // Act
    const lifecycle = functionEnvironment('lifecycle', config, RESOURCES);
    const archive = functionEnvironment('archive', config, RESOURCES);

    // Assess
    expect(lifecycle.AUTH_SPOTS_BY_PRINCIPAL).toBe(JSON.stringify(spotsByPrincipal));
    expect(archive.AUTH_SPOTS_BY_PRINCIPAL).toBe(JSON.stringify(spotsByPrincipal));
    expect(lifecycle).not.toHaveProperty('ARCHIVE_EXPIRE_AFTER_DAYS');
    expect(archive.ARCHIVE_EXPIRE_AFTER_DAYS).toBe('365');
    const read = loadConfig({ ...RESOURCES, ...archive });
    expect(read.authorization.spotsByPrincipal).toEqual(spotsByPrincipal);
    expect(read.archive.expireAfterDays).toBe(365);
  });

  it('writes archive.writeTable off for the archive functions only, read back as off', () => {
    // Prepare
    const config = parseStackConfig({ archive: { writeTable: false } });

    // Act
    const archive = functionEnvironment('archive', config, RESOURCES);
    const lifecycle = functionEnvironment('lifecycle', config, RESOURCES);

    // Assess
    expect(archive.ARCHIVE_WRITE_TABLE).toBe('false');
    expect(lifecycle).not.toHaveProperty('ARCHIVE_WRITE_TABLE');
    expect(loadConfig({ ...RESOURCES, ...archive }).archive.writeTable).toBe(false);
  });

  it('gives one process running every function the variables of both groups', () => {
    // Prepare
    const config = parseStackConfig({});

    // Act
    const all = functionEnvironment('all', config, RESOURCES);

    // Assess
    expect(all).toEqual({
      ...functionEnvironment('lifecycle', config, RESOURCES),
      ...functionEnvironment('archive', config, RESOURCES),
    });
  });

  it('reads back, through the functions’ configuration, as the defaults the functions have without it', () => {
    // Act
    const written = loadConfig(functionEnvironment('all', parseStackConfig({}), RESOURCES));
    const unwritten = loadConfig(RESOURCES);

    // Assess
    expect(written).toEqual(unwritten);
  });
});
