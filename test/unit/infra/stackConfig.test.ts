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

describe('the customer-managed KMS keys: secretsKmsKeyArn and archive.kmsKeyArn', () => {
  const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
  const MULTI_REGION_KEY_ID = 'mrk-1234abcd12ab34cd56ef1234567890ab';

  it.each([KEY_ID, MULTI_REGION_KEY_ID])('take a key ARN whose id is %s', (keyId) => {
    // Prepare
    const keyArn = `arn:aws:kms:eu-west-1:123456789012:key/${keyId}`;

    // Act
    const config = parseStackConfig({ secretsKmsKeyArn: keyArn, archive: { kmsKeyArn: keyArn } });

    // Assess
    expect([config.secretsKmsKeyArn, config.archive.kmsKeyArn]).toEqual([keyArn, keyArn]);
  });

  it('are unset by default', () => {
    // Act
    const config = parseStackConfig({});

    // Assess
    expect([config.secretsKmsKeyArn, config.archive.kmsKeyArn]).toEqual([undefined, undefined]);
  });

  it.each([
    ['an alias', 'arn:aws:kms:eu-west-1:123456789012:alias/exports'],
    ['a key id that is neither a UUID nor mrk-', 'arn:aws:kms:eu-west-1:123456789012:key/exports-key'],
    ['a short multi-Region key id', 'arn:aws:kms:eu-west-1:123456789012:key/mrk-1234'],
    ['a bare key id', KEY_ID],
  ])('refuse %s', (_case, keyArn) => {
    // Act
    const problems = problemsOf({ secretsKmsKeyArn: keyArn, archive: { kmsKeyArn: keyArn } });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^openwebExports\.secretsKmsKeyArn: must be a KMS key ARN .*mrk-/),
      expect.stringMatching(/^openwebExports\.archive\.kmsKeyArn: must be a KMS key ARN .*mrk-/),
    ]);
  });
});

describe('existingTableName', () => {
  it('names a table left behind, unset by default', () => {
    // Act
    const adopted = parseStackConfig({ existingTableName: 'OpenWebExports-ExportTable-1A2B3C' });

    // Assess
    expect(adopted.existingTableName).toBe('OpenWebExports-ExportTable-1A2B3C');
    expect(parseStackConfig({}).existingTableName).toBeUndefined();
  });

  it('refuses a name DynamoDB would refuse', () => {
    // Act
    const problems = problemsOf({ existingTableName: 'no spaces allowed' });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^openwebExports\.existingTableName: must be a DynamoDB table name/),
    ]);
  });
});

describe('workflowLogLevel', () => {
  it('is ERROR by default and takes ALL', () => {
    // Act / Assess
    expect(parseStackConfig({}).workflowLogLevel).toBe('ERROR');
    expect(parseStackConfig({ workflowLogLevel: 'ALL' }).workflowLogLevel).toBe('ALL');
  });

  it('refuses a level the state machine does not log at through this setting', () => {
    // Act
    const problems = problemsOf({ workflowLogLevel: 'FATAL' });

    // Assess
    expect(problems).toEqual(['openwebExports.workflowLogLevel: must be one of ERROR, ALL']);
  });
});
