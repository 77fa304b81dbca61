import { describe, expect, it } from 'vitest';
import {
  MAX_DOWNLOAD_URL_EXPIRY_SECONDS,
  parseStackConfig,
  StackConfigError,
} from '../../../infra/stackConfig';

function problemsOf(raw: unknown): string[] {
  try {
    parseStackConfig(raw);
  } catch (error) {
    if (error instanceof StackConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('archive.downloadUrlExpirySeconds', () => {
  it('is at most an hour: a URL never outlives the session of the role that signed it', () => {
    // Act
    const problems = problemsOf({ archive: { downloadUrlExpirySeconds: 12 * 3600 } });

    // Assess
    expect(MAX_DOWNLOAD_URL_EXPIRY_SECONDS).toBe(3600);
    expect(problems).toEqual([
      expect.stringMatching(
        /^openwebExports\.archive\.downloadUrlExpirySeconds: must be at most 3600 .*session/,
      ),
    ]);
  });

  it('accepts an hour', () => {
    // Act
    const config = parseStackConfig({ archive: { downloadUrlExpirySeconds: 3600 } });

    // Assess
    expect(config.archive.downloadUrlExpirySeconds).toBe(3600);
  });
});

describe('auth.spotsByPrincipal', () => {
  const ROLE = 'arn:aws:iam::123456789012:role/teams/exports-marketing';

  it('maps IAM roles and users to the spots they may use', () => {
    // Act
    const config = parseStackConfig({
      auth: { mode: 'iam', spotsByPrincipal: { [ROLE]: ['sp_marketing'] } },
    });

    // Assess
    expect(config.auth).toEqual({ mode: 'iam', spotsByPrincipal: { [ROLE]: ['sp_marketing'] } });
  });

  it.each([
    [
      'a role session',
      { 'arn:aws:sts::123456789012:assumed-role/exports/alice': ['sp_a'] },
      'spotsByPrincipal',
    ],
    ['a wildcard', { 'arn:aws:iam::123456789012:role/*': ['sp_a'] }, 'spotsByPrincipal'],
    ['a malformed spot id', { [ROLE]: ['marketing'] }, `spotsByPrincipal.${ROLE}.0`],
    ['no spot', { [ROLE]: [] }, `spotsByPrincipal.${ROLE}`],
  ])('refuses %s', (_case, spotsByPrincipal, path) => {
    // Act
    const problems = problemsOf({ auth: { mode: 'iam', spotsByPrincipal } });

    // Assess
    expect(problems).toEqual([expect.stringContaining(`openwebExports.auth.${path}`)]);
  });

  it('refuses a map too long for the functions’ environment (4 KB in all, Lambda’s limit)', () => {
    // Prepare: 40 roles of 10 spots each.
    const spotsByPrincipal = Object.fromEntries(
      Array.from({ length: 40 }, (_, role) => [
        `arn:aws:iam::123456789012:role/exports-team-${role}`,
        Array.from({ length: 10 }, (_, spot) => `sp_team${role}_spot${spot}`),
      ]),
    );

    // Act
    const problems = problemsOf({ auth: { mode: 'iam', spotsByPrincipal } });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(
        /^openwebExports\.auth\.spotsByPrincipal: is \d+ characters as JSON, more than 2048/,
      ),
    ]);
  });
});
