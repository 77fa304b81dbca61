import { describe, expect, it } from 'vitest';
import { ScheduleExpressionError } from '../../../local/errors';
import { parseScheduleExpression } from '../../../local/schedules/scheduleExpression';
import { INVALID_SCHEDULE_EXPRESSIONS, VALID_SCHEDULE_EXPRESSIONS } from '../../support/scheduleExpressions';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The next `count` runs after `fromIso`. */
function runs(expression: string, fromIso: string, count: number, timeZone?: string): (string | undefined)[] {
  const timing = parseScheduleExpression(expression, timeZone);
  if (timing.kind !== 'cron') throw new Error('not a cron expression');
  const found: (string | undefined)[] = [];
  let after = at(fromIso);
  for (let index = 0; index < count; index += 1) {
    const next = timing.cron.next(after);
    found.push(iso(next));
    if (next === undefined) break;
    after = next;
  }
  return found;
}

describe('parseScheduleExpression: rate()', () => {
  it('reads minutes, hours and days, singular for one and plural otherwise', () => {
    // Act
    const intervals = ['rate(1 minute)', 'rate(5 minutes)', 'rate(2 hours)', 'rate(1 day)'].map(
      (expression) => parseScheduleExpression(expression),
    );

    // Assess
    expect(intervals).toEqual([
      { kind: 'rate', intervalMs: 60_000 },
      { kind: 'rate', intervalMs: 300_000 },
      { kind: 'rate', intervalMs: 7_200_000 },
      { kind: 'rate', intervalMs: 86_400_000 },
    ]);
  });

  it('refuses a zero rate, a unit that disagrees with the number and unknown shapes', () => {
    // Prepare
    const bad = [
      'rate(0 minutes)',
      'rate(1 minutes)',
      'rate(5 minute)',
      'rate(5 seconds)',
      'every 5 minutes',
      'at(2026-01-01T00:00:00)',
    ];

    // Act
    const outcomes = bad.map((expression) => {
      try {
        parseScheduleExpression(expression);
        return 'accepted';
      } catch (error) {
        return error instanceof ScheduleExpressionError ? 'refused' : 'crashed';
      }
    });

    // Assess
    expect(outcomes).toEqual(bad.map(() => 'refused'));
  });
});

describe('parseScheduleExpression: cron()', () => {
  it('runs a daily expression at its time, strictly after the given instant', () => {
    // Act
    const next = runs('cron(0 2 * * ? *)', '2026-11-21T02:00:00Z', 2);

    // Assess
    expect(next).toEqual(['2026-11-22T02:00:00.000Z', '2026-11-23T02:00:00.000Z']);
  });

  it('reads steps, lists and ranges of minutes and hours', () => {
    // Act
    const quarterHours = runs('cron(0/15 * * * ? *)', '2026-11-21T10:07:00Z', 3);
    const lists = runs('cron(5,35 8-9 * * ? *)', '2026-11-21T08:40:00Z', 3);

    // Assess
    expect(quarterHours).toEqual([
      '2026-11-21T10:15:00.000Z',
      '2026-11-21T10:30:00.000Z',
      '2026-11-21T10:45:00.000Z',
    ]);
    expect(lists).toEqual([
      '2026-11-21T09:05:00.000Z',
      '2026-11-21T09:35:00.000Z',
      '2026-11-22T08:05:00.000Z',
    ]);
  });

  it('runs the AWS documentation examples', () => {
    // Act: 2026-11-21 is a Saturday.
    const daily = runs('cron(0 2 * * ? *)', '2026-11-21T00:00:00Z', 2);
    const officeHours = runs('cron(0/15 9-17 ? * MON-FRI *)', '2026-11-20T17:30:00Z', 3);
    const monthly = runs('cron(0 8 1 * ? *)', '2026-11-21T00:00:00Z', 2);

    // Assess
    expect(daily).toEqual(['2026-11-21T02:00:00.000Z', '2026-11-22T02:00:00.000Z']);
    // Friday 17:45 still runs (hour 17), then Monday morning.
    expect(officeHours).toEqual([
      '2026-11-20T17:45:00.000Z',
      '2026-11-23T09:00:00.000Z',
      '2026-11-23T09:15:00.000Z',
    ]);
    expect(monthly).toEqual(['2026-12-01T08:00:00.000Z', '2027-01-01T08:00:00.000Z']);
  });

  it('reads day names with 1 = SUN, skipping to the next weekday', () => {
    // Act: 2026-11-21 is a Saturday.
    const weekdays = runs('cron(0 12 ? * MON-FRI *)', '2026-11-21T00:00:00Z', 2);
    const sundays = runs('cron(0 12 ? * 1 *)', '2026-11-21T00:00:00Z', 1);

    // Assess
    expect(weekdays).toEqual(['2026-11-23T12:00:00.000Z', '2026-11-24T12:00:00.000Z']);
    expect(sundays).toEqual(['2026-11-22T12:00:00.000Z']);
  });

  it('reads month names and the year field, and has no run once the years are past', () => {
    // Act
    const februaries = runs('cron(0 0 1 FEB ? 2027-2028)', '2026-11-21T00:00:00Z', 3);
    const past = runs('cron(0 0 1 1 ? 2020)', '2026-11-21T00:00:00Z', 1);

    // Assess
    expect(februaries).toEqual(['2027-02-01T00:00:00.000Z', '2028-02-01T00:00:00.000Z', undefined]);
    expect(past).toEqual([undefined]);
  });

  it('reads L, LW and nW in day-of-month', () => {
    // Act: February 2028 has 29 days; 2028-02-29 is a Tuesday; 2026-08-15 is a Saturday.
    const lastDay = runs('cron(0 0 L * ? *)', '2028-02-01T00:00:00Z', 1);
    const lastWeekday = runs('cron(0 0 LW * ? *)', '2026-05-01T00:00:00Z', 1);
    const nearestWeekday = runs('cron(0 0 15W * ? *)', '2026-08-01T00:00:00Z', 1);

    // Assess
    expect(lastDay).toEqual(['2028-02-29T00:00:00.000Z']);
    // 2026-05-31 is a Sunday, so the last weekday is Friday the 29th.
    expect(lastWeekday).toEqual(['2026-05-29T00:00:00.000Z']);
    expect(nearestWeekday).toEqual(['2026-08-14T00:00:00.000Z']);
  });

  it('reads <day>#<n> and <day>L in day-of-week', () => {
    // Act
    const thirdFriday = runs('cron(0 9 ? * 6#3 *)', '2026-11-01T00:00:00Z', 1);
    const lastMonday = runs('cron(0 9 ? * MONL *)', '2026-11-01T00:00:00Z', 1);
    const lastFriday = runs('cron(0 9 ? * 6L *)', '2026-11-01T00:00:00Z', 1);
    const saturdays = runs('cron(0 9 ? * L *)', '2026-11-01T00:00:00Z', 2);

    // Assess
    expect(thirdFriday).toEqual(['2026-11-20T09:00:00.000Z']);
    expect(lastMonday).toEqual(['2026-11-30T09:00:00.000Z']);
    expect(lastFriday).toEqual(['2026-11-27T09:00:00.000Z']);
    // `L` alone is the last day of the week, Saturday.
    expect(saturdays).toEqual(['2026-11-07T09:00:00.000Z', '2026-11-14T09:00:00.000Z']);
  });

  it('follows the wall clock of the time zone', () => {
    // Act: Paris is UTC+1 in winter and UTC+2 in summer.
    const winter = runs('cron(0 2 * * ? *)', '2026-11-21T00:00:00Z', 1, 'Europe/Paris');
    const summer = runs('cron(0 2 * * ? *)', '2026-06-30T12:00:00Z', 1, 'Europe/Paris');

    // Assess
    expect(winter).toEqual(['2026-11-21T01:00:00.000Z']);
    expect(summer).toEqual(['2026-07-01T00:00:00.000Z']);
  });

  it('runs a repeated wall-clock time once when the clocks go back and skips one that does not exist', () => {
    // Act: in Paris, 2026-10-25 03:00 CEST goes back to 02:00 CET; 2026-03-29 02:00 CET jumps to 03:00 CEST.
    const fallBack = runs('cron(30 2 * * ? *)', '2026-10-24T12:00:00Z', 2, 'Europe/Paris');
    const springForward = runs('cron(30 2 * * ? *)', '2026-03-28T12:00:00Z', 1, 'Europe/Paris');

    // Assess
    expect(fallBack).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(springForward).toEqual(['2026-03-30T00:30:00.000Z']);
  });

  it('runs each wall-clock time of a repeating schedule once across clock changes', () => {
    // Act: every half hour from 01:00 to 02:59, Paris time, over both 2026 changes.
    const fallBack = runs('cron(0/30 1-2 * * ? *)', '2026-10-24T23:00:00Z', 5, 'Europe/Paris');
    const springForward = runs('cron(0/30 1-2 * * ? *)', '2026-03-28T23:00:00Z', 3, 'Europe/Paris');
    // New York goes back at 02:00 EDT to 01:00 EST on 2026-11-01.
    const newYork = runs('cron(30 1 * * ? *)', '2026-10-31T12:00:00Z', 2, 'America/New_York');

    // Assess: 01:30, 02:00, 02:30 CEST, no second 02:00 and 02:30 (CET), then 01:00 and 01:30 CET the day after.
    expect(fallBack).toEqual([
      '2026-10-24T23:30:00.000Z',
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T00:00:00.000Z',
      '2026-10-26T00:30:00.000Z',
    ]);
    // 01:00 and 01:30 CET; 02:00 and 02:30 do not exist that night: the next is 01:00 CEST the day after.
    expect(springForward).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T23:00:00.000Z',
    ]);
    expect(newYork).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('refuses an unknown time zone, and reads one given in any case', () => {
    // Act
    const unknown = () => parseScheduleExpression('cron(0 2 * * ? *)', 'Mars/Olympus_Mons');
    const lowerCase = runs('cron(0 2 * * ? *)', '2026-11-21T00:00:00Z', 1, 'europe/paris');

    // Assess
    expect(unknown).toThrow(ScheduleExpressionError);
    expect(unknown).toThrow(/unknown time zone Mars\/Olympus_Mons/);
    expect(lowerCase).toEqual(['2026-11-21T01:00:00.000Z']);
  });
});

// The same table the stack configuration's tests run: what the stack refuses, the local scheduler refuses.
describe('parseScheduleExpression: the EventBridge expressions shared with the stack', () => {
  it.each(VALID_SCHEDULE_EXPRESSIONS)('runs %s', (expression) => {
    // Prepare
    const afterMs = at('2026-11-21T00:00:00Z');

    // Act
    const timing = parseScheduleExpression(expression);
    const next = timing.kind === 'cron' ? timing.cron.next(afterMs) : afterMs + timing.intervalMs;

    // Assess: no run once its years are past, else a later one.
    if (next !== undefined) expect(next).toBeGreaterThan(afterMs);
    else expect(expression).toMatch(/ (1970|2026-2030)\)$/);
  });

  it.each(INVALID_SCHEDULE_EXPRESSIONS)('refuses $expression, saying why', ({ expression, reason }) => {
    // Act
    const parse = () => parseScheduleExpression(expression);

    // Assess
    expect(parse).toThrow(ScheduleExpressionError);
    expect(parse).toThrow(reason);
  });
});
