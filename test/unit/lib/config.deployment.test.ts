import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../lib/config';

const ROLE = 'arn:aws:iam::123456789012:role/exports-marketing';

describe('AUTH_SPOTS_BY_PRINCIPAL', () => {
  it('reads the map of IAM roles and users to their spots', () => {
    // Act
    const config = loadConfig({ AUTH_SPOTS_BY_PRINCIPAL: JSON.stringify({ [ROLE]: ['sp_marketing'] }) });

    // Assess
    expect(config.authorization.spotsByPrincipal).toEqual({ [ROLE]: ['sp_marketing'] });
  });

  it('is unset by default: no per-spot check', () => {
    // Act / Assess
    expect(loadConfig({}).authorization.spotsByPrincipal).toBeUndefined();
  });

  it.each([
    ['not JSON', '{'],
    ['a list', '[]'],
    ['a key that is not a role or user ARN', JSON.stringify({ 'exports-marketing': ['sp_a'] })],
    ['a spot id that is not one', JSON.stringify({ [ROLE]: ['marketing'] })],
  ])('refuses %s, naming the variable', (_case, value) => {
    // Act
    const load = () => loadConfig({ AUTH_SPOTS_BY_PRINCIPAL: value });

    // Assess
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/AUTH_SPOTS_BY_PRINCIPAL must be a JSON object of IAM role or user ARNs/);
  });
});

describe('ARCHIVE_EXPIRE_AFTER_DAYS', () => {
  it('reads the days after which archived files are deleted; unset, they are kept', () => {
    // Act / Assess
    expect(loadConfig({ ARCHIVE_EXPIRE_AFTER_DAYS: '365' }).archive.expireAfterDays).toBe(365);
    expect(loadConfig({}).archive.expireAfterDays).toBeUndefined();
  });

  it.each([
    ['0', 'must be at least 1'],
    ['36501', 'must be at most 36500'],
    ['1.5', 'must be an integer'],
  ])('refuses %s, naming the variable', (value, message) => {
    // Act
    const load = () => loadConfig({ ARCHIVE_EXPIRE_AFTER_DAYS: value });

    // Assess
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(`ARCHIVE_EXPIRE_AFTER_DAYS ${message}`);
  });
});

describe('AUTH_SPOTS_BY_PRINCIPAL, at most 2048 characters as JSON', () => {
  it('refuses a longer map, as the stack does', () => {
    // Prepare: 40 roles of 10 spots each.
    const map = Object.fromEntries(
      Array.from({ length: 40 }, (_, role) => [
        `arn:aws:iam::123456789012:role/exports-team-${role}`,
        Array.from({ length: 10 }, (_, spot) => `sp_team${role}_spot${spot}`),
      ]),
    );

    // Act
    const load = () => loadConfig({ AUTH_SPOTS_BY_PRINCIPAL: JSON.stringify(map) });

    // Assess
    expect(load).toThrow(/AUTH_SPOTS_BY_PRINCIPAL is \d+ characters as JSON, more than 2048/);
  });
});
