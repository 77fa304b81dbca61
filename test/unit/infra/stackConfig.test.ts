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
