import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_OPENWEB_AUTH_BASE_URL,
  DEFAULT_OPENWEB_EXPORT_BASE_URL,
  DEFAULT_SECRET_NAME_PREFIX,
  loadConfig,
} from '../../../lib/config';
import { DEFAULT_EXPORT_SETTINGS } from '../../../lib/exports/record/ExportSettings';
import { DEFAULT_DOWNLOAD_HOSTS } from '../../../lib/openweb/downloadLinkPolicy';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../lib/openweb/OpenWebClient';
import { DEFAULT_RETRY_POLICY } from '../../../lib/openweb/retryPolicy';
import { DEFAULT_MAX_CONCURRENT_REQUESTS } from '../../../lib/openweb/UpstreamGovernor';
import { DEFAULT_SECRETS_CACHE_MAX_AGE_SECONDS } from '../../../lib/secrets/SecretsManagerCredentialsProvider';

/** API Gateway gives up on an integration after 29 s. */
const API_GATEWAY_INTEGRATION_TIMEOUT_MS = 29_000;
const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:ExportPolling';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    // Act
    const config = loadConfig({});

    // Assess
    expect(config.openWeb).toEqual({
      authBaseUrl: DEFAULT_OPENWEB_AUTH_BASE_URL,
      exportBaseUrl: DEFAULT_OPENWEB_EXPORT_BASE_URL,
      requestTimeoutMs: 8_000,
      maxAttempts: 4,
      retryBudgetMs: 2_000,
      maxConcurrentRequests: 16,
      maxRequestsPerSecond: undefined,
      authRequestsPerSecond: 1,
      downloadHosts: ['*.openweb.com'],
    });
    expect(config.resources).toEqual({
      tableName: undefined,
      stateMachineArn: undefined,
      eventBusName: 'default',
    });
    expect(config.exports).toEqual({
      ...DEFAULT_EXPORT_SETTINGS,
      exportDeadlineSeconds: 21_600,
      defaultFirstPollDelaySeconds: 30,
      statusFreshnessSeconds: 10,
      reconcileStaleAfterSeconds: 900,
      idempotencyTtlSeconds: 86_400,
    });
    expect(config.credentials).toEqual({
      file: undefined,
      secretNamePrefix: DEFAULT_SECRET_NAME_PREFIX,
      cacheMaxAgeSeconds: 300,
    });
  });

  it('reads base URLs without trailing slashes and numbers from strings', () => {
    // Act
    const config = loadConfig({
      OPENWEB_AUTH_BASE_URL: 'http://127.0.0.1:4010/',
      OPENWEB_EXPORT_BASE_URL: 'http://127.0.0.1:4010',
      UPSTREAM_REQUEST_TIMEOUT_MS: '2500',
      UPSTREAM_MAX_ATTEMPTS: '2',
    });

    // Assess
    expect(config.openWeb.authBaseUrl).toBe('http://127.0.0.1:4010');
    expect(config.openWeb.requestTimeoutMs).toBe(2500);
    expect(config.openWeb.maxAttempts).toBe(2);
  });

  it('names the local credentials file when LOCAL_SECRETS_FILE is set', () => {
    // Act
    const config = loadConfig({ LOCAL_SECRETS_FILE: 'local/spots.json' });

    // Assess
    expect(config.credentials.file).toBe('local/spots.json');
  });

  it('treats empty variables as unset', () => {
    // Act
    const config = loadConfig({ OPENWEB_AUTH_BASE_URL: '', LOCAL_SECRETS_FILE: '' });

    // Assess
    expect(config.openWeb.authBaseUrl).toBe(DEFAULT_OPENWEB_AUTH_BASE_URL);
    expect(config.credentials.file).toBeUndefined();
  });

  it('names every bad variable in one error', () => {
    // Act
    let error: unknown;
    try {
      loadConfig({
        OPENWEB_AUTH_BASE_URL: 'ftp://example.com',
        UPSTREAM_MAX_ATTEMPTS: 'many',
        UPSTREAM_REQUEST_TIMEOUT_MS: '1.5',
        SECRET_NAME_PREFIX: 'bad prefix!',
      });
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('OPENWEB_AUTH_BASE_URL');
    expect(problems).toContain('UPSTREAM_MAX_ATTEMPTS');
    expect(problems).toContain('UPSTREAM_REQUEST_TIMEOUT_MS');
    expect(problems).toContain('SECRET_NAME_PREFIX');
  });

  it('reads the upstream concurrency and rate limits, a fractional rate included', () => {
    // Act
    const config = loadConfig({ UPSTREAM_MAX_CONCURRENCY: '4', UPSTREAM_MAX_REQUESTS_PER_SECOND: '2.5' });

    // Assess
    expect(config.openWeb.maxConcurrentRequests).toBe(4);
    expect(config.openWeb.maxRequestsPerSecond).toBe(2.5);
  });

  it('reads the fleet-wide auth rate, and refuses one that is not positive', () => {
    // Act
    const config = loadConfig({ UPSTREAM_AUTH_REQUESTS_PER_SECOND: '0.5' });
    const refused = () => loadConfig({ UPSTREAM_AUTH_REQUESTS_PER_SECOND: '0' });

    // Assess
    expect(config.openWeb.authRequestsPerSecond).toBe(0.5);
    expect(refused).toThrow(/UPSTREAM_AUTH_REQUESTS_PER_SECOND must be greater than 0/);
  });

  it.each([
    ['UPSTREAM_MAX_CONCURRENCY', '0'],
    ['UPSTREAM_MAX_CONCURRENCY', '2.5'],
    ['UPSTREAM_MAX_CONCURRENCY', '1001'],
    ['UPSTREAM_MAX_REQUESTS_PER_SECOND', '0'],
    ['UPSTREAM_MAX_REQUESTS_PER_SECOND', '-1'],
    ['UPSTREAM_MAX_REQUESTS_PER_SECOND', 'fast'],
    ['UPSTREAM_MAX_REQUESTS_PER_SECOND', '10001'],
  ])('refuses %s=%s, naming it', (variable, value) => {
    // Act / Assess
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(variable));
  });

  it("bounds an upstream call that must authenticate first well within API Gateway's timeout by default", () => {
    // Act
    const { openWeb } = loadConfig({});

    // Assess: the auth call and the export call each take at most the budget plus one request timeout
    const worstCaseMs = 2 * (openWeb.retryBudgetMs + openWeb.requestTimeoutMs);
    expect(worstCaseMs).toBeLessThanOrEqual(20_000);
    expect(worstCaseMs).toBeLessThan(API_GATEWAY_INTEGRATION_TIMEOUT_MS);
  });

  it('has the defaults the upstream client, its governor, the credentials cache and the export lifecycle fall back on', () => {
    // Act
    const config = loadConfig({});

    // Assess: one default per setting, whoever builds the parts.
    expect({
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
      retryBudgetMs: DEFAULT_RETRY_POLICY.totalBudgetMs,
      maxConcurrentRequests: DEFAULT_MAX_CONCURRENT_REQUESTS,
      downloadHosts: DEFAULT_DOWNLOAD_HOSTS,
      cacheMaxAgeSeconds: DEFAULT_SECRETS_CACHE_MAX_AGE_SECONDS,
      exports: DEFAULT_EXPORT_SETTINGS,
    }).toEqual({
      requestTimeoutMs: config.openWeb.requestTimeoutMs,
      maxAttempts: config.openWeb.maxAttempts,
      retryBudgetMs: config.openWeb.retryBudgetMs,
      maxConcurrentRequests: config.openWeb.maxConcurrentRequests,
      downloadHosts: config.openWeb.downloadHosts,
      cacheMaxAgeSeconds: config.credentials.cacheMaxAgeSeconds,
      exports: config.exports,
    });
  });

  it('reads the AWS resources and maps the lifecycle variables to the export settings', () => {
    // Act
    const config = loadConfig({
      TABLE_NAME: 'openweb-exports',
      STATE_MACHINE_ARN,
      EVENT_BUS_NAME: 'exports',
      EXPORT_DEADLINE_SECONDS: '7200',
      DEFAULT_FIRST_POLL_DELAY_SECONDS: '5',
      STATUS_FRESHNESS_SECONDS: '0',
      RECONCILE_STALE_AFTER_SECONDS: '600',
      IDEMPOTENCY_TTL_SECONDS: '3600',
    });

    // Assess
    expect(config.resources).toEqual({
      tableName: 'openweb-exports',
      stateMachineArn: STATE_MACHINE_ARN,
      eventBusName: 'exports',
    });
    expect(config.exports).toMatchObject({
      exportDeadlineSeconds: 7200,
      defaultFirstPollDelaySeconds: 5,
      statusFreshnessSeconds: 0,
      reconcileStaleAfterSeconds: 600,
      idempotencyTtlSeconds: 3600,
    });
  });

  it('refuses malformed resources and lifecycle values out of range', () => {
    // Act
    let error: unknown;
    try {
      loadConfig({
        TABLE_NAME: 'a table',
        STATE_MACHINE_ARN: 'arn:aws:lambda:eu-west-1:123456789012:function:f',
        EXPORT_DEADLINE_SECONDS: '10',
        IDEMPOTENCY_TTL_SECONDS: 'forever',
      });
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const variable of [
      'TABLE_NAME',
      'STATE_MACHINE_ARN',
      'EXPORT_DEADLINE_SECONDS',
      'IDEMPOTENCY_TTL_SECONDS',
    ]) {
      expect(problems).toContain(variable);
    }
  });
});
