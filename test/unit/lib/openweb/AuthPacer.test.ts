import { describe, expect, it } from 'vitest';
import { AUTH_PACING_HEADROOM, authIntervalMs } from '../../../../lib/openweb/AuthPacer';

describe('authIntervalMs', () => {
  it('spaces auth requests a little more than the rate allows, rounded up to the millisecond', () => {
    // Act / Assess
    expect(authIntervalMs(1)).toBe(Math.ceil(1000 * AUTH_PACING_HEADROOM));
    expect(authIntervalMs(2)).toBe(550);
    expect(authIntervalMs(3)).toBe(367);
  });

  it('refuses a rate that is not positive', () => {
    // Act / Assess
    for (const rate of [0, -1, Number.NaN]) expect(() => authIntervalMs(rate)).toThrow(RangeError);
  });
});
