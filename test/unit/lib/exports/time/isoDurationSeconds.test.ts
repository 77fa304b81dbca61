import { describe, expect, it } from 'vitest';
import { isoDurationSeconds } from '../../../../../lib/exports/time/isoDurationSeconds';

describe('isoDurationSeconds', () => {
  it.each([
    ['P1D', 86_400],
    ['PT6H', 21_600],
    ['PT30M', 1_800],
    ['P1DT12H', 129_600],
    ['PT1H30M', 5_400],
    ['P1W', 604_800],
    ['PT45S', 45],
    ['P0D', 0],
  ])('reads %s as %i seconds', (text, seconds) => {
    // Act / Assess
    expect(isoDurationSeconds(text)).toBe(seconds);
  });

  it.each(['', 'P', 'PT', 'P1M', 'P1Y', 'PT1.5H', '1D', 'P-1D', 'P1DT', 'p1d', 'PT6H ', 'P1H'])(
    'refuses %j',
    (text) => {
      // Act / Assess
      expect(isoDurationSeconds(text)).toBeUndefined();
    },
  );
});
