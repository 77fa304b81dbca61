import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, checkScheduleExpression } from '../../../infra/scheduleExpression';
import {
  INVALID_SCHEDULE_EXPRESSIONS,
  SCHEDULE_TIME_ZONES,
  VALID_SCHEDULE_EXPRESSIONS,
} from '../../support/scheduleExpressions';

describe('checkScheduleExpression', () => {
  it.each(VALID_SCHEDULE_EXPRESSIONS)('accepts %s', (expression) => {
    // Act
    const check = checkScheduleExpression(expression);

    // Assess
    expect(check).toMatchObject({ ok: true });
  });

  it.each(INVALID_SCHEDULE_EXPRESSIONS)('refuses $expression, saying why', ({ expression, reason }) => {
    // Act
    const check = checkScheduleExpression(expression);

    // Assess
    expect(check.ok).toBe(false);
    expect(check.ok ? undefined : check.reason).toMatch(reason);
  });

  it('gives the parts: the interval of a rate, the six fields of a cron in upper case', () => {
    // Act
    const rate = checkScheduleExpression('rate(2 hours)');
    const cron = checkScheduleExpression('cron(0/15 9-17 ? * mon-fri *)');

    // Assess
    expect(rate).toEqual({
      ok: true,
      schedule: { kind: 'rate', value: 2, unit: 'hour', intervalMs: 7_200_000 },
    });
    expect(cron).toEqual({
      ok: true,
      schedule: { kind: 'cron', fields: ['0/15', '9-17', '?', '*', 'MON-FRI', '*'] },
    });
  });

  it('refuses a form that is not allowed where the expression is used', () => {
    // Act
    const check = checkScheduleExpression('cron(0 2 * * ? *)', ['rate']);

    // Assess
    expect(check).toEqual({ ok: false, reason: 'expected rate(<n> <unit>)' });
  });
});

describe('canonicalTimeZone', () => {
  it.each(SCHEDULE_TIME_ZONES)('reads $typed as $canonical', ({ typed, canonical }) => {
    // Act / Assess
    expect(canonicalTimeZone(typed)).toBe(canonical);
  });
});
