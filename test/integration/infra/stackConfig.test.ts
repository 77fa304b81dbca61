import { describe, expect, it } from 'vitest';
import { scheduledExportEventOf } from '../../../infra/scheduledExportEventOf';
import { parseStackConfig, StackConfigError } from '../../../infra/stackConfig';
import { DEFAULT_SECRET_NAME_PREFIX } from '../../../lib/config';
import {
  INVALID_SCHEDULE_EXPRESSIONS,
  SCHEDULE_TIME_ZONES,
  VALID_SCHEDULE_EXPRESSIONS,
} from '../../support/scheduleExpressions';

function problemsOf(raw: unknown): string[] {
  try {
    parseStackConfig(raw);
  } catch (error) {
    if (error instanceof StackConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be rejected');
}

const validSchedule = { expression: 'cron(0 2 * * ? *)', window: 'P1D' };

describe('parseStackConfig', () => {
  it('applies the defaults when no configuration is given', () => {
    // Act
    const config = parseStackConfig(undefined);

    // Assess
    expect(config.spots).toEqual([]);
    expect(config.auth).toEqual({ mode: 'iam' });
    expect(config.secretNamePrefix).toBe(DEFAULT_SECRET_NAME_PREFIX);
    expect(config.polling).toEqual({
      exportDeadlineSeconds: 21_600,
      defaultFirstPollDelaySeconds: 30,
      statusPollIntervalSeconds: 10,
      statusPollMaxDelaySeconds: 300,
      statusFreshnessSeconds: 10,
      reconcileStaleAfterSeconds: 900,
      reconcileRate: 'rate(5 minutes)',
    });
    expect(config.alarmEmail).toEqual([]);
  });

  it('reads the JSON text that `cdk -c openwebExports=...` passes like the object cdk.json holds', () => {
    // Prepare
    const raw = {
      spots: [{ spotId: 'sp_abc', schedules: [validSchedule] }],
      polling: { exportDeadlineSeconds: 3600 },
    };

    // Act
    const fromText = parseStackConfig(JSON.stringify(raw));
    const fromObject = parseStackConfig(raw);

    // Assess
    expect(fromText).toEqual(fromObject);
    expect(fromText.spots[0]?.schedules[0]).toEqual({ ...validSchedule, name: 'schedule-0' });
    expect(fromText.polling.exportDeadlineSeconds).toBe(3600);
    expect(fromText.polling.statusPollIntervalSeconds).toBe(10);
  });

  it('accepts a JWT authorizer with issuer, audience and scopes', () => {
    // Act
    const config = parseStackConfig({
      auth: {
        mode: 'jwt',
        issuer: 'https://issuer.example.com',
        audience: ['exports'],
        scopes: ['exports/write'],
      },
    });

    // Assess
    expect(config.auth).toEqual({
      mode: 'jwt',
      issuer: 'https://issuer.example.com',
      audience: ['exports'],
      scopes: ['exports/write'],
    });
  });

  it('turns a single alarm email into a list', () => {
    // Act
    const config = parseStackConfig({ alarmEmail: 'ops@example.com' });

    // Assess
    expect(config.alarmEmail).toEqual(['ops@example.com']);
  });

  it('names the bad key when a spot id is malformed', () => {
    // Act
    const problems = problemsOf({ spots: [{ spotId: 'abc' }] });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^openwebExports\.spots\.0\.spotId: must look like sp_/),
    ]);
  });

  it.each([
    ['a calendar month', 'P1M'],
    ['a year', 'P1Y'],
    ['plain text', '1 day'],
    ['an empty duration', 'P'],
  ])('rejects a schedule window given as %s', (_label, window) => {
    // Act
    const problems = problemsOf({ spots: [{ spotId: 'sp_abc', schedules: [{ ...validSchedule, window }] }] });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^openwebExports\.spots\.0\.schedules\.0\.window: must be an ISO-8601 duration/),
    ]);
  });

  it('accepts a first window longer than one export may cover: its runs cut it into windows', () => {
    // Act
    const config = parseStackConfig({
      spots: [{ spotId: 'sp_abc', schedules: [{ ...validSchedule, window: 'P90D', maxWindowHours: 24 }] }],
    });

    // Assess
    expect(config.spots[0]?.schedules[0]).toMatchObject({ window: 'P90D', maxWindowHours: 24 });
  });

  it("takes a schedule's restatement ages and puts them in its runs' event", () => {
    // Act
    const config = parseStackConfig({
      spots: [{ spotId: 'sp_abc', schedules: [{ ...validSchedule, restate: ['P1D', 'P7D'] }] }],
    });
    const schedule = config.spots[0]?.schedules[0] as NonNullable<(typeof config.spots)[0]['schedules'][0]>;

    // Assess
    expect(schedule.restate).toEqual(['P1D', 'P7D']);
    expect(scheduledExportEventOf('sp_abc', schedule, '<aws.scheduler.scheduled-time>').restate).toEqual([
      'P1D',
      'P7D',
    ]);
  });

  it('names schedules by position unless named, and refuses one name twice for a spot', () => {
    // Act
    const named = parseStackConfig({
      spots: [{ spotId: 'sp_abc', schedules: [validSchedule, { ...validSchedule, name: 'nightly' }] }],
    });
    const problems = problemsOf({
      spots: [
        {
          spotId: 'sp_abc',
          schedules: [
            { ...validSchedule, name: 'nightly' },
            { ...validSchedule, name: 'nightly' },
          ],
        },
      ],
    });

    // Assess
    expect(named.spots[0]?.schedules.map((schedule) => schedule.name)).toEqual(['schedule-0', 'nightly']);
    expect(problems).toEqual([expect.stringContaining('nightly is used twice')]);
  });

  it.each([
    ['an empty window', { window: 'PT0S' }, 'window: must be longer than zero'],
    ['a window size beyond the upstream', { maxWindowHours: 731 }, 'maxWindowHours: must be at most 730'],
    ['a fractional window size', { maxWindowHours: 2.5 }, 'maxWindowHours: must be a whole number of hours'],
    ['a lag that is not a duration', { lag: '15 minutes' }, 'lag: must be an ISO-8601 duration'],
    ['a schedule name with a slash', { name: 'a/b' }, 'name: must be 1-64 of letters'],
    ['restatement ages that are not a list', { restate: 'P1D' }, 'restate: must be a list'],
    ['a restatement age in months', { restate: ['P1M'] }, 'restate: "P1M" must be an ISO 8601 duration'],
    [
      'a restatement age below the lag',
      { lag: 'PT2H', restate: ['PT1H'] },
      "restate: PT1H must be at least the schedule's lag",
    ],
    [
      'five restatement ages',
      { restate: ['P1D', 'P2D', 'P3D', 'P4D', 'P5D'] },
      'restate: must list at most 4 ages',
    ],
  ])('rejects %s', (_, change, message) => {
    // Act
    const problems = problemsOf({
      spots: [{ spotId: 'sp_abc', schedules: [{ ...validSchedule, ...change }] }],
    });

    // Assess
    expect(problems).toEqual([expect.stringContaining(message)]);
  });

  it('rejects an unknown time zone and a malformed schedule expression', () => {
    // Act
    const problems = problemsOf({
      spots: [
        {
          spotId: 'sp_abc',
          schedules: [{ expression: 'every day', window: 'P1D', timeZone: 'Mars/Olympus_Mons' }],
        },
      ],
    });

    // Assess
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^openwebExports\.spots\.0\.schedules\.0\.expression: must be an EventBridge/),
        expect.stringMatching(/^openwebExports\.spots\.0\.schedules\.0\.timeZone: must be an IANA time zone/),
      ]),
    );
  });

  it.each([
    [0, 'must be at least 1'],
    [1_441, 'must be at most 1440'],
    [2.5, 'must be a whole number of minutes'],
  ])('rejects a flexible window of %s minutes', (minutes, message) => {
    // Act
    const problems = problemsOf({
      spots: [
        {
          spotId: 'sp_abc',
          schedules: [{ expression: 'rate(1 day)', window: 'P1D', flexibleWindowMinutes: minutes }],
        },
      ],
    });

    // Assess
    expect(problems).toEqual([
      `openwebExports.spots.0.schedules.0.flexibleWindowMinutes: ${message}${minutes === 0 ? ' (leave it out for none)' : minutes === 1_441 ? " (EventBridge Scheduler's limit)" : ''}`,
    ]);
  });

  it('takes the fleet-wide auth rate, 1 by default, and refuses one that is not > 0', () => {
    // Act
    const defaults = parseStackConfig(undefined);
    const faster = parseStackConfig({ upstreamAuthRequestsPerSecond: 2 });
    const problems = problemsOf({ upstreamAuthRequestsPerSecond: 0 });

    // Assess
    expect(defaults.upstreamAuthRequestsPerSecond).toBe(1);
    expect(faster.upstreamAuthRequestsPerSecond).toBe(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/upstreamAuthRequestsPerSecond: must be greater than 0/),
      ]),
    );
  });

  it('leaves source-mapped stack traces off by default and takes only a boolean', () => {
    // Act
    const defaults = parseStackConfig(undefined);
    const on = parseStackConfig({ sourceMapStackTraces: true });
    const problems = problemsOf({ sourceMapStackTraces: 'yes' });

    // Assess
    expect(defaults.sourceMapStackTraces).toBe(false);
    expect(on.sourceMapStackTraces).toBe(true);
    expect(problems).toEqual(['openwebExports.sourceMapStackTraces: must be true or false']);
  });

  it('rejects unknown keys, so a typo is not silently ignored, and names the key probably meant', () => {
    // Act
    const problems = problemsOf({ spot: [], nothingLikeAnyKey: 1 });

    // Assess
    expect(problems).toEqual([
      'openwebExports: unknown key "spot" (did you mean "spots"?), "nothingLikeAnyKey"',
    ]);
  });

  it('names the key probably meant at every level of the configuration', () => {
    // Act
    const problems = problemsOf({
      polling: { exportDeadlineSecond: 3600 },
      api: { throttlingRateLimt: 10 },
      archive: { ExpireAfterDays: 400 },
      auth: { mode: 'jwt', issuer: 'https://issuer.example.com', audience: ['a'], spotclaim: 'spots' },
      spots: [
        { spotId: 'sp_abc', schedule: [] },
        { spotId: 'sp_def', schedules: [{ ...validSchedule, timezone: 'UTC' }] },
      ],
    });

    // Assess
    expect(problems).toEqual([
      'openwebExports.spots.0: unknown key "schedule" (did you mean "schedules"?)',
      'openwebExports.spots.1.schedules.0: unknown key "timezone" (did you mean "timeZone"?)',
      'openwebExports.auth: unknown key "spotclaim" (did you mean "spotClaim"?)',
      'openwebExports.polling: unknown key "exportDeadlineSecond" (did you mean "exportDeadlineSeconds"?)',
      'openwebExports.api: unknown key "throttlingRateLimt" (did you mean "throttlingRateLimit"?)',
      'openwebExports.archive: unknown key "ExpireAfterDays" (did you mean "expireAfterDays"?)',
    ]);
  });

  it('requires issuer and audience in JWT mode', () => {
    // Act
    const problems = problemsOf({ auth: { mode: 'jwt' } });

    // Assess
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^openwebExports\.auth\.issuer: /),
        expect.stringMatching(/^openwebExports\.auth\.audience: /),
      ]),
    );
  });

  it('rejects a maximum poll delay below the poll interval', () => {
    // Act
    const problems = problemsOf({
      polling: { statusPollIntervalSeconds: 60, statusPollMaxDelaySeconds: 30 },
    });

    // Assess
    expect(problems).toEqual([
      'openwebExports.polling.statusPollMaxDelaySeconds: must be at least statusPollIntervalSeconds (60)',
    ]);
  });

  it('rejects a reconcile rate that EventBridge Scheduler would refuse', () => {
    // Act
    const problems = problemsOf({ polling: { reconcileRate: 'rate(1 minutes)' } });

    // Assess
    expect(problems).toEqual([
      expect.stringMatching(/^openwebExports\.polling\.reconcileRate: must be a rate/),
    ]);
  });

  it('rejects a spot listed twice', () => {
    // Act
    const problems = problemsOf({ spots: [{ spotId: 'sp_abc' }, { spotId: 'sp_abc' }] });

    // Assess
    expect(problems).toEqual(['openwebExports.spots.1.spotId: sp_abc is listed more than once']);
  });

  it('rejects values the functions would refuse at cold start, naming the config key', () => {
    // Act
    const problems = problemsOf({
      secretNamePrefix: 'bad prefix!',
      openWebExportBaseUrl: 'ftp://example.com',
    });

    // Assess
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^openwebExports\.secretNamePrefix: may hold only/),
        expect.stringMatching(/^openwebExports\.openWebExportBaseUrl: must be an http\(s\) URL/),
      ]),
    );
  });

  it('rejects an empty secret prefix, which would open every secret to the functions', () => {
    // Act
    const problems = problemsOf({ secretNamePrefix: '' });

    // Assess
    expect(problems).toEqual(['openwebExports.secretNamePrefix: must not be empty']);
  });

  it('reports every problem at once and says which context key is wrong', () => {
    // Act
    const error = (() => {
      try {
        parseStackConfig({ spots: [{ spotId: 'x' }], logRetentionDays: 2 });
      } catch (caught) {
        return caught;
      }
    })();

    // Assess
    expect(error).toBeInstanceOf(StackConfigError);
    expect((error as StackConfigError).problems).toHaveLength(2);
    expect((error as StackConfigError).message).toMatch(/^Invalid openwebExports configuration:/);
    expect((error as StackConfigError).message).toContain(
      'openwebExports.logRetentionDays: must be one of 1, 3, 5',
    );
  });

  it('rejects context text that is not JSON', () => {
    // Act
    const problems = problemsOf('{spots: []}');

    // Assess
    expect(problems).toEqual(['openwebExports: is not valid JSON']);
  });
});

// The same table the local scheduler's tests run: what the stack accepts, the local scheduler runs.
describe('parseStackConfig: schedule expressions', () => {
  const withSchedule = (schedule: Record<string, unknown>) => ({
    spots: [{ spotId: 'sp_abc', schedules: [{ window: 'P1D', ...schedule }] }],
  });

  it('refuses cron(0 2 * * * *): Scheduler wants ? in exactly one of the day fields', () => {
    // Act
    const problems = problemsOf(withSchedule({ expression: 'cron(0 2 * * * *)' }));

    // Assess
    expect(problems).toEqual([
      'openwebExports.spots.0.schedules.0.expression: must be an EventBridge Scheduler expression, ' +
        'cron(<6 fields>) or rate(<n> <unit>): exactly one of day-of-month and day-of-week must be ?',
    ]);
  });

  it.each(VALID_SCHEDULE_EXPRESSIONS)('accepts %s', (expression) => {
    // Act
    const config = parseStackConfig(withSchedule({ expression }));

    // Assess
    expect(config.spots[0]?.schedules[0]?.expression).toBe(expression);
  });

  it.each(INVALID_SCHEDULE_EXPRESSIONS)('refuses $expression, saying why', ({ expression, reason }) => {
    // Act
    const problems = problemsOf(withSchedule({ expression }));

    // Assess
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^openwebExports\.spots\.0\.schedules\.0\.expression: must be an EventBridge Scheduler expression/,
    );
    expect(problems[0]).toMatch(reason);
  });

  it.each(SCHEDULE_TIME_ZONES)('writes the time zone $typed as $canonical', ({ typed, canonical }) => {
    // Act
    const read = () => parseStackConfig(withSchedule({ expression: 'cron(0 2 * * ? *)', timeZone: typed }));

    // Assess
    if (canonical === undefined) expect(read).toThrow(/timeZone: must be an IANA time zone/);
    else expect(read().spots[0]?.schedules[0]?.timeZone).toBe(canonical);
  });

  it('takes only rate() expressions for the reconciler', () => {
    // Act
    const cron = problemsOf({ polling: { reconcileRate: 'cron(0/5 * * * ? *)' } });
    const rate = parseStackConfig({ polling: { reconcileRate: 'rate(1 hour)' } });

    // Assess
    expect(cron).toEqual([
      'openwebExports.polling.reconcileRate: must be a rate expression such as rate(5 minutes) or rate(1 hour): ' +
        'expected rate(<n> <unit>)',
    ]);
    expect(rate.polling.reconcileRate).toBe('rate(1 hour)');
  });
});
