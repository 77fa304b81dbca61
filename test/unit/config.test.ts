import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_OPENWEB_AUTH_BASE_URL,
  DEFAULT_OPENWEB_EXPORT_BASE_URL,
  DEFAULT_SECRET_NAME_PREFIX,
  loadConfig,
} from '../../lib/config';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    // Act
    const config = loadConfig({});

    // Assess
    expect(config.openWeb).toEqual({
      authBaseUrl: DEFAULT_OPENWEB_AUTH_BASE_URL,
      exportBaseUrl: DEFAULT_OPENWEB_EXPORT_BASE_URL,
      requestTimeoutMs: 10_000,
      maxAttempts: 4,
      retryBudgetMs: 20_000,
    });
    expect(config.credentials).toEqual({
      source: 'secretsManager',
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

  it('switches to the file credentials source when LOCAL_SECRETS_FILE is set', () => {
    // Act
    const config = loadConfig({ LOCAL_SECRETS_FILE: 'local/spots.json' });

    // Assess
    expect(config.credentials).toEqual({ source: 'file', path: 'local/spots.json' });
  });

  it('treats empty variables as unset', () => {
    // Act
    const config = loadConfig({ OPENWEB_AUTH_BASE_URL: '', LOCAL_SECRETS_FILE: '' });

    // Assess
    expect(config.openWeb.authBaseUrl).toBe(DEFAULT_OPENWEB_AUTH_BASE_URL);
    expect(config.credentials.source).toBe('secretsManager');
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
});
