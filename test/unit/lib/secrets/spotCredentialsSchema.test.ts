import { describe, expect, it } from 'vitest';
import {
  credentialsFileSchema,
  describeIssues,
  parseJsonQuietly,
  secretValueSchema,
} from '../../../../lib/secrets/spotCredentialsSchema';

const SECRET = 'k3y-that-must-not-leak';

describe('secretValueSchema', () => {
  it('reads a spot id and an API key, keeping other fields', () => {
    // Act / Assess
    expect(secretValueSchema().parse({ spotId: 'sp_a', apiKey: SECRET, note: 'rotated' })).toEqual({
      spotId: 'sp_a',
      apiKey: SECRET,
      note: 'rotated',
    });
  });

  it('describes what is wrong by path, never quoting the value', () => {
    // Act
    const result = secretValueSchema().safeParse({ spotId: `bad ${SECRET}`, apiKey: '   ' });

    // Assess
    expect(result.success).toBe(false);
    const issues = describeIssues(result.error as never);
    expect(issues).toEqual([expect.stringMatching(/^spotId: /), 'apiKey: apiKey must be a non-empty string']);
    expect(issues.join('\n')).not.toContain(SECRET);
  });
});

describe('credentialsFileSchema', () => {
  it('reads a map of spot ids to their keys, and names the entry that is wrong', () => {
    // Act
    const good = credentialsFileSchema().parse({ sp_a: { apiKey: SECRET } });
    const bad = credentialsFileSchema().safeParse({ sp_a: { apiKey: SECRET }, sp_b: 'key' });

    // Assess
    expect(good).toEqual({ sp_a: { apiKey: SECRET } });
    expect(describeIssues(bad.error as never)).toEqual(['sp_b: must be a JSON object']);
  });
});

describe('parseJsonQuietly', () => {
  it('parses JSON, and says only that it failed when it is not, the input kept out of sight', () => {
    // Act / Assess
    expect(parseJsonQuietly('{"apiKey":"k"}')).toEqual({ ok: true, value: { apiKey: 'k' } });
    expect(parseJsonQuietly(`{apiKey: ${SECRET}`)).toEqual({ ok: false });
  });
});
