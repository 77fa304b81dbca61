import { describe, expect, it } from 'vitest';
import { InvalidRestatementAgesError } from '../../../../../lib/exports/restatement/errors';

describe('InvalidRestatementAgesError', () => {
  it('names the ages and why, and is not worth retrying', () => {
    const error = new InvalidRestatementAgesError(['P1M'], 'P1M is not a fixed-length duration');

    expect(error.name).toBe('InvalidRestatementAgesError');
    expect(error.ages).toEqual(['P1M']);
    expect(error.why).toBe('P1M is not a fixed-length duration');
    expect(error.message).toBe('Invalid restatement ages ["P1M"]: P1M is not a fixed-length duration');
    expect(error.retryable).toBe(false);
  });
});
