import { describe, expect, it } from 'vitest';
import { SPOT_ID_PATTERN } from '../../../../../lib/exports/record/spotId';

describe('SPOT_ID_PATTERN', () => {
  it('matches sp_ and 1 to 64 letters, digits, _ or -', () => {
    // Act / Assess
    for (const spotId of ['sp_a', 'sp_abc123', 'sp_A-b_9', `sp_${'x'.repeat(64)}`])
      expect(SPOT_ID_PATTERN.test(spotId)).toBe(true);
  });

  it('matches nothing that could reach a secret name or a header otherwise', () => {
    // Act / Assess
    for (const other of [
      'abc',
      'sp_',
      'SP_abc',
      'sp_a b',
      'sp_a;drop',
      'sp_a/b',
      'sp_a\n',
      `sp_${'x'.repeat(65)}`,
    ])
      expect(SPOT_ID_PATTERN.test(other)).toBe(false);
  });
});
