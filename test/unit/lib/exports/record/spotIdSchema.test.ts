import { describe, expect, it } from 'vitest';
import { SPOT_ID_MESSAGE } from '../../../../../lib/exports/record/spotId';
import { spotIdSchema } from '../../../../../lib/exports/record/spotIdSchema';

describe('spotIdSchema', () => {
  it('accepts a spot id of the documented shape', () => {
    // Act / Assess
    expect(spotIdSchema().parse('sp_abc123')).toBe('sp_abc123');
  });

  it('refuses anything else, a number included, with the one message callers are shown', () => {
    // Act
    const results = ['abc', 'sp_a b', 42, undefined].map((value) => spotIdSchema().safeParse(value));

    // Assess
    for (const result of results) {
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(SPOT_ID_MESSAGE);
    }
  });

  it('is built once, on first use', () => {
    // Act / Assess
    expect(spotIdSchema()).toBe(spotIdSchema());
  });
});
