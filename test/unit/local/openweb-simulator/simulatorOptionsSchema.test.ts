import { describe, expect, it } from 'vitest';
import { checkSimulatorOptions } from '../../../../local/openweb-simulator/simulatorOptionsSchema';

describe('checkSimulatorOptions', () => {
  it('accepts the comment options within their bounds', () => {
    // Act + Assess
    expect(() =>
      checkSimulatorOptions({
        commentsPerHour: 0,
        usersPerSpot: 1,
        statusChangeShare: 0,
        editShare: 1,
        deleteShare: 0.5,
        maxChangeDelaySeconds: 60,
      }),
    ).not.toThrow();
  });

  it.each([
    [{ commentsPerHour: 2.5 }, 'Option commentsPerHour must be an integer, got 2.5'],
    [{ commentsPerHour: -1 }, 'Option commentsPerHour must be a non-negative number, got -1'],
    [{ usersPerSpot: 0 }, 'Option usersPerSpot must be a positive integer, got 0'],
    [{ statusChangeShare: 1.5 }, 'Option statusChangeShare must be a share from 0 to 1, got 1.5'],
    [{ editShare: -0.1 }, 'Option editShare must be a share from 0 to 1, got -0.1'],
    [{ deleteShare: Number.NaN }, 'Option deleteShare must be a share from 0 to 1, got NaN'],
    [
      { maxChangeDelaySeconds: 59 },
      'Option maxChangeDelaySeconds must be at least 60 (the soonest change), got 59',
    ],
    [{ deleteShare: '0.1' }, 'Option deleteShare must be a share from 0 to 1, got 0.1'],
    [{ timeScale: '1' }, 'Option timeScale must be a non-negative number, got 1'],
    [{ exportRateLimitScope: 3 }, 'Option exportRateLimitScope must be one of clientAddress, spot, got 3'],
  ])('refuses %j, naming the option, its rule and the value', (options, message) => {
    // Act + Assess
    expect(() => checkSimulatorOptions(options)).toThrow(message);
  });
});
