import { describe, expect, it } from 'vitest';
import { readFunctionConfig } from '../../../../lib/settings/functionConfig';
import { SETTINGS } from '../../../../lib/settings/settingsTable';

describe('readFunctionConfig', () => {
  it('places each setting where its row says, at its default when unset', () => {
    // Act
    const { config, problems } = readFunctionConfig({});

    // Assess
    expect(problems).toEqual([]);
    expect(config.exports.windowRetryCooldownSeconds).toBe(SETTINGS.windowRetryCooldownSeconds.default);
    expect(config.exports.idempotencyTtlSeconds).toBe(SETTINGS.idempotencyTtlSeconds.default);
    expect(config.openWeb.maxAttempts).toBe(SETTINGS.upstreamMaxAttempts.default);
  });

  it('reads a set variable into its place', () => {
    // Act
    const { config, problems } = readFunctionConfig({
      WINDOW_RETRY_COOLDOWN_SECONDS: '120',
      TABLE_NAME: 'exports-table',
    });

    // Assess
    expect(problems).toEqual([]);
    expect(config.exports.windowRetryCooldownSeconds).toBe(120);
    expect(config.resources.tableName).toBe('exports-table');
  });

  it("leaves npm start's own settings unset when their variable is, rather than taking the local default", () => {
    // Act
    const { config } = readFunctionConfig({});

    // Assess
    expect(config.credentials.file).toBeUndefined();
  });

  it('names each bad variable, and only those', () => {
    // Act
    const { problems } = readFunctionConfig({ WINDOW_RETRY_COOLDOWN_SECONDS: '5', TABLE_NAME: 'x' });

    // Assess
    expect(problems).toHaveLength(2);
    expect(problems.some((problem) => problem.startsWith('WINDOW_RETRY_COOLDOWN_SECONDS'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('TABLE_NAME'))).toBe(true);
  });
});
