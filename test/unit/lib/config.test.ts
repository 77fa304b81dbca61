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
