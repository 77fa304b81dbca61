import { describe, expect, it } from 'vitest';
import { RestatementState, WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import {
  ageMs,
  currencyOf,
  isAgeAnswered,
  isRestatementWaiting,
  nextRestatement,
  pendingAges,
  versionOf,
  WindowCurrency,
} from '../../../../../lib/exports/coverage/windowVersions';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const FROM = '2026-11-01T00:00:00Z';
const UNTIL = '2026-11-01T01:00:00Z';
const UNTIL_MS = Date.parse(UNTIL);
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function windowWith(versionsAt: number[], restate = ['P1D', 'P7D'], givenUpAges?: string[]) {
  return coverageWindowFixture({
    from: FROM,
    until: UNTIL,
    restate,
    versions: versionsAt.map((atMs, index) => ({
      exportId: `ex_01kak3f4v2qz7m9d8c5b4a00${10 + index}`,
      exportedAt: new Date(atMs).toISOString(),
    })),
    ...(givenUpAges !== undefined && { givenUpAges }),
  });
}

describe('ageMs', () => {
  it('reads fixed-length durations, and nothing else', () => {
    expect(ageMs('P1D')).toBe(DAY_MS);
    expect(ageMs('PT6H')).toBe(6 * HOUR_MS);
    expect(ageMs('P1M')).toBe(0);
  });
});

describe('versionOf', () => {
  it('dates a version by when the upstream started the export, and marks a restatement with its age', () => {
    const record = exportRecordFixture({
      requestedAt: '2026-11-02T01:00:00.000Z',
      startedAt: '2026-11-02T01:05:00.000Z',
      origin: { schedule: 'hourly', restatement: { age: 'P1D' } },
    });

    expect(versionOf(record)).toEqual({
      exportId: record.exportId,
      exportedAt: '2026-11-02T01:05:00.000Z',
      age: 'P1D',
    });
    expect(versionOf(exportRecordFixture({ requestedAt: '2026-11-02T01:00:00.000Z' })).exportedAt).toBe(
      '2026-11-02T01:00:00.000Z',
    );
  });
});

describe('isAgeAnswered and pendingAges', () => {
  it('count an age answered by any version read at that age or later', () => {
    const window = windowWith([UNTIL_MS + 60_000, UNTIL_MS + DAY_MS]);

    expect(isAgeAnswered(window, 'P1D')).toBe(true);
    expect(isAgeAnswered(window, 'P7D')).toBe(false);
    expect(pendingAges(window)).toEqual(['P7D']);
  });

  it('leave out the ages given up on', () => {
    expect(pendingAges(windowWith([UNTIL_MS], ['P7D', 'P1D'], ['P1D']))).toEqual(['P7D']);
  });
});

describe('nextRestatement', () => {
  it('is the first age to come while none is due', () => {
    expect(nextRestatement(windowWith([UNTIL_MS]), UNTIL_MS + HOUR_MS)).toEqual({
      age: 'P1D',
      dueAtMs: UNTIL_MS + DAY_MS,
    });
  });

  it('is the oldest due age when several are: one export answers them all', () => {
    expect(nextRestatement(windowWith([UNTIL_MS]), UNTIL_MS + 8 * DAY_MS)).toEqual({
      age: 'P7D',
      dueAtMs: UNTIL_MS + 7 * DAY_MS,
    });
  });

  it('is none for a window first exported when older than every age (a backfill of old hours)', () => {
    expect(nextRestatement(windowWith([UNTIL_MS + 30 * DAY_MS]), UNTIL_MS + 30 * DAY_MS)).toBeUndefined();
  });
});

describe('currencyOf', () => {
  it('is settled once every age is answered, provisional before, and nothing for a window not covered', () => {
    expect(currencyOf(windowWith([UNTIL_MS, UNTIL_MS + DAY_MS]))).toBe(WindowCurrency.PROVISIONAL);
    expect(currencyOf(windowWith([UNTIL_MS, UNTIL_MS + 7 * DAY_MS]))).toBe(WindowCurrency.SETTLED);
    expect(currencyOf(windowWith([UNTIL_MS], []))).toBe(WindowCurrency.SETTLED);
    expect(
      currencyOf(coverageWindowFixture({ from: FROM, until: UNTIL, state: WindowState.IN_FLIGHT })),
    ).toBe(undefined);
  });

  it('stays provisional after an age was given up on: its data was not read again', () => {
    expect(currencyOf(windowWith([UNTIL_MS], ['P1D'], ['P1D']))).toBe(WindowCurrency.PROVISIONAL);
  });
});

describe('isRestatementWaiting', () => {
  it('is a covered window whose restatement waits for the budget', () => {
    const waiting = coverageWindowFixture({
      from: FROM,
      until: UNTIL,
      restatement: {
        age: 'P1D',
        state: RestatementState.WAITING,
        exportIds: [],
        attempts: 0,
        dueSince: '2026-11-02T01:00:00.000Z',
      },
    });

    expect(isRestatementWaiting(waiting)).toBe(true);
    expect(isRestatementWaiting(windowWith([UNTIL_MS]))).toBe(false);
  });
});
