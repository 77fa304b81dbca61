import { describe, expect, it } from 'vitest';
import { planWindows } from '../../../../../lib/exports/coverage/planWindows';

const HOUR = 3_600_000;
const h = (fromHour: number, untilHour: number) => ({ fromMs: fromHour * HOUR, untilMs: untilHour * HOUR });

describe('planWindows', () => {
  it('cuts a range longer than the upstream allows into windows of at most 730 hours, from its start', () => {
    // Act
    const windows = planWindows(h(0, 2000), [], 730);

    // Assess
    expect(windows).toEqual([h(0, 730), h(730, 1460), h(1460, 2000)]);
  });

  it('plans only the hours no window accounts for', () => {
    // Act
    const windows = planWindows(h(0, 100), [h(10, 20), h(15, 30), h(90, 120)], 24);

    // Assess
    expect(windows).toEqual([h(0, 10), h(30, 54), h(54, 78), h(78, 90)]);
  });

  it('plans the same windows again after part of them were recorded: a second run finds nothing new', () => {
    // Prepare: a first run recorded only its first window before dying
    const first = planWindows(h(0, 48), [], 24);

    // Act
    const second = planWindows(h(0, 48), [first[0] as { fromMs: number; untilMs: number }], 24);
    const third = planWindows(h(0, 48), first, 24);

    // Assess
    expect(second).toEqual([first[1]]);
    expect(third).toEqual([]);
  });

  it('refuses a window length the upstream does not allow', () => {
    // Act / Assess
    expect(() => planWindows(h(0, 1), [], 731)).toThrow(RangeError);
    expect(() => planWindows(h(0, 1), [], 0)).toThrow(RangeError);
  });
});
