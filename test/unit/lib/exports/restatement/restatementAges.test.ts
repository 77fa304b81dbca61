import { describe, expect, it } from 'vitest';
import { InvalidRestatementAgesError } from '../../../../../lib/exports/restatement/errors';
import {
  checkedRestatementAges,
  MAX_RESTATEMENT_AGES,
  restatementAgesProblem,
  sortedAges,
} from '../../../../../lib/exports/restatement/restatementAges';

const HOUR_SECONDS = 3600;

describe('restatementAgesProblem', () => {
  it('accepts a few fixed-length ages at least the lag', () => {
    expect(restatementAgesProblem(['P1D', 'P7D'], HOUR_SECONDS)).toBeUndefined();
    expect(restatementAgesProblem([], 0)).toBeUndefined();
  });

  it.each([
    [['P1D', 'P2D', 'P3D', 'P4D', 'P5D'], 0, `at most ${MAX_RESTATEMENT_AGES} ages`],
    [['P1M'], 0, 'must be an ISO 8601 duration'],
    [['one day'], 0, 'must be an ISO 8601 duration'],
    [['PT0S'], 0, 'longer than zero'],
    [['PT1H'], 2 * HOUR_SECONDS, "at least the schedule's lag"],
    [['P91D'], 0, 'at most P90D'],
    [['P7D', 'P1W'], 0, 'listed twice'],
  ])('refuses %j (lag %i s): %s', (ages, lagSeconds, problem) => {
    expect(restatementAgesProblem(ages, lagSeconds)).toContain(problem);
  });
});

describe('sortedAges and checkedRestatementAges', () => {
  it('put the ages shortest first', () => {
    expect(sortedAges(['P7D', 'PT12H', 'P1D'])).toEqual(['PT12H', 'P1D', 'P7D']);
    expect(checkedRestatementAges(['P7D', 'P1D'], 0)).toEqual(['P1D', 'P7D']);
  });

  it('throw a named error for ages that cannot be used', () => {
    expect(() => checkedRestatementAges(['P1Y'], 0)).toThrow(InvalidRestatementAgesError);
  });
});
