import { describe, expect, it } from 'vitest';
import {
  parseJsonQuietly,
  readCredentialsFile,
  readSecretValue,
} from '../../../../lib/secrets/spotCredentialsSchema';

const SECRET = 'k3y-that-must-not-leak';

describe('readSecretValue', () => {
  it('reads a spot id and an API key (trimmed), keeping other fields', () => {
    // Act / Assess
    expect(readSecretValue({ spotId: 'sp_a', apiKey: ` ${SECRET} `, note: 'rotated' })).toEqual({
      ok: true,
      value: { spotId: 'sp_a', apiKey: SECRET, note: 'rotated' },
    });
  });

  it('describes what is wrong by path, never quoting the value', () => {
    // Act
    const result = readSecretValue({ spotId: `bad ${SECRET}`, apiKey: '   ' });
    const missing = readSecretValue({});

    // Assess
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues;
    expect(issues).toEqual([expect.stringMatching(/^spotId: /), 'apiKey: apiKey must be a non-empty string']);
    expect(issues.join('\n')).not.toContain(SECRET);
    expect(missing).toEqual({
      ok: false,
      issues: [expect.stringMatching(/^spotId: /), 'apiKey: apiKey must be a non-empty string'],
    });
  });

  it('refuses a value that is not a JSON object', () => {
    // Act / Assess
    for (const value of [null, [SECRET], SECRET, 42])
      expect(readSecretValue(value)).toEqual({ ok: false, issues: ['value: must be a JSON object'] });
  });
});

describe('readCredentialsFile', () => {
  it('reads a map of spot ids to their keys, and names the entry that is wrong', () => {
    // Act
    const good = readCredentialsFile({ sp_a: { apiKey: SECRET } });
    const bad = readCredentialsFile({ sp_a: { apiKey: SECRET }, sp_b: 'key', sp_c: { apiKey: '' } });

    // Assess
    expect(good).toEqual({ ok: true, value: { sp_a: { apiKey: SECRET } } });
    expect(bad).toEqual({
      ok: false,
      issues: ['sp_b: must be a JSON object', 'sp_c.apiKey: apiKey must be a non-empty string'],
    });
    expect(readCredentialsFile([])).toEqual({ ok: false, issues: ['value: must be a JSON object'] });
  });
});

describe('parseJsonQuietly', () => {
  it('parses JSON, and says only that it failed when it is not, the input kept out of sight', () => {
    // Act / Assess
    expect(parseJsonQuietly('{"apiKey":"k"}')).toEqual({ ok: true, value: { apiKey: 'k' } });
    expect(parseJsonQuietly(`{apiKey: ${SECRET}`)).toEqual({ ok: false });
  });
});
