import { describe, expect, it } from 'vitest';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../../../../lib/settings/spotId';

describe('SPOT_ID_PATTERN', () => {
  it('accepts sp_ and 1 to 64 letters, digits, _ or -', () => {
    // Act / Assess
    for (const spotId of ['sp_a', 'sp_abc123', 'sp_A-b_9', `sp_${'x'.repeat(64)}`]) {
      expect(SPOT_ID_PATTERN.test(spotId)).toBe(true);
    }
  });

  it('refuses anything that could reach a secret name or a header unchecked', () => {
    // Act / Assess
    for (const spotId of [
      'sp_',
      'abc',
      'SP_abc',
      'sp_a/b',
      'sp_a b',
      'sp_a\nb',
      `sp_${'x'.repeat(65)}`,
      ' sp_a',
    ]) {
      expect(SPOT_ID_PATTERN.test(spotId)).toBe(false);
    }
    expect(SPOT_ID_MESSAGE).toContain('sp_');
  });
});
