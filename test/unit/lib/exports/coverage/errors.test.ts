import { describe, expect, it } from 'vitest';
import { CoverageTooDenseError } from '../../../../../lib/exports/coverage/errors';

describe('CoverageTooDenseError', () => {
  it('names the spot, the instant and how many windows were read; a 500, not passing trouble', () => {
    // Act
    const error = new CoverageTooDenseError('sp_abc', '2026-11-01T00:00:00Z', 500);

    // Assess
    expect(error.spotId).toBe('sp_abc');
    expect(error.at).toBe('2026-11-01T00:00:00Z');
    expect(error.message).toBe('More than 500 windows of spot sp_abc overlap 2026-11-01T00:00:00Z');
    expect(error.problem).toBeUndefined();
    expect(error.retryable).toBe(false);
  });
});
