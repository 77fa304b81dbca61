import { describe, expect, it } from 'vitest';
import {
  coveredMs,
  mergeIntervals,
  overlappingParts,
  splitInterval,
  subtractIntervals,
} from '../../../../../lib/exports/time/intervals';

const i = (fromMs: number, untilMs: number) => ({ fromMs, untilMs });

describe('timeIntervals', () => {
  it('merges overlapping and touching intervals, keeping disjoint ones apart', () => {
    // Act / Assess
    expect(mergeIntervals([i(5, 7), i(0, 2), i(2, 3), i(6, 9), i(4, 4)])).toEqual([i(0, 3), i(5, 9)]);
  });

  it('subtracts what is taken from a range, in order', () => {
    // Act / Assess
    expect(subtractIntervals(i(0, 10), [i(2, 3), i(5, 7), i(9, 12), i(-3, 1)])).toEqual([
      i(1, 2),
      i(3, 5),
      i(7, 9),
    ]);
    expect(subtractIntervals(i(0, 10), [])).toEqual([i(0, 10)]);
    expect(subtractIntervals(i(0, 10), [i(0, 10)])).toEqual([]);
  });

  it('splits from the start into pieces of at most the given length', () => {
    // Act / Assess
    expect(splitInterval(i(0, 25), 10)).toEqual([i(0, 10), i(10, 20), i(20, 25)]);
    expect(() => splitInterval(i(0, 1), 0)).toThrow(RangeError);
  });

  it('finds where two or more intervals overlap, but not where they only touch', () => {
    // Act / Assess
    expect(overlappingParts([i(0, 10), i(5, 15), i(10, 20), i(30, 40)])).toEqual([i(5, 15)]);
    expect(overlappingParts([i(0, 5), i(5, 10)])).toEqual([]);
    expect(overlappingParts([i(0, 10), i(0, 10)])).toEqual([i(0, 10)]);
  });

  it('measures the union', () => {
    // Act / Assess
    expect(coveredMs([i(0, 10), i(5, 15), i(20, 21)])).toBe(16);
  });
});
