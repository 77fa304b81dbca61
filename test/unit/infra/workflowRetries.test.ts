import { describe, expect, it } from 'vitest';
import { parseStackConfig, type StackConfigError } from '../../../infra/stackConfig';
import {
  ARCHIVE_RETRY,
  ARCHIVE_TASK_TIMEOUT_SECONDS,
  createRetry,
  executionTimeout,
  FINISHING_POLL_RETRY,
  STATUS_POLL_BACKOFF_RATE,
  STEP_FUNCTIONS_MAX_HISTORY_EVENTS,
  STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS,
  statusPollRetry,
  workflowHistoryBudget,
  worstCaseTaskSeconds,
} from '../../../infra/workflowRetries';
import { createSeededRandom } from '../../../local/openweb-simulator/seededRandom';

const defaults = {
  exportDeadlineSeconds: 21_600,
  statusPollIntervalSeconds: 10,
  statusPollMaxDelaySeconds: 300,
};

/** Total waiting of `attempts` polls as Step Functions schedules them: backoff, cap, full jitter. */
function simulatedWaitSeconds(polling: typeof defaults, attempts: number, random: () => number): number {
  let total = 0;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const backedOff = polling.statusPollIntervalSeconds * STATUS_POLL_BACKOFF_RATE ** attempt;
    total += random() * Math.min(backedOff, polling.statusPollMaxDelaySeconds);
  }
  return total;
}

describe('statusPollRetry', () => {
  it('gives the default polling enough attempts to outlast the deadline in every simulated run', () => {
    // Prepare
    const random = createSeededRandom(42);
    const attempts = statusPollRetry(defaults).maxAttempts;

    // Act
    const shortestRunSeconds = Math.min(
      ...Array.from({ length: 1_000 }, () => simulatedWaitSeconds(defaults, attempts, random)),
    );

    // Assess
    expect(shortestRunSeconds).toBeGreaterThan(defaults.exportDeadlineSeconds);
  });

  it('stays within a few hundred polls for the default six-hour deadline', () => {
    // Act
    const attempts = statusPollRetry(defaults).maxAttempts;

    // Assess
    expect(attempts).toBeGreaterThan(100);
    expect(attempts).toBeLessThan(1_000);
  });

  it('grows with the deadline', () => {
    // Act
    const short = statusPollRetry({ ...defaults, exportDeadlineSeconds: 3_600 }).maxAttempts;
    const long = statusPollRetry({ ...defaults, exportDeadlineSeconds: 86_400 }).maxAttempts;

    // Assess
    expect(long).toBeGreaterThan(short);
  });

  it('never exceeds what Step Functions accepts', () => {
    // Act
    const attempts = statusPollRetry({
      exportDeadlineSeconds: 1e9,
      statusPollIntervalSeconds: 1,
      statusPollMaxDelaySeconds: 1,
    }).maxAttempts;

    // Assess
    expect(attempts).toBe(STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS);
  });
});

describe('the workflow history budget', () => {
  const defaults = parseStackConfig({}).polling;

  it('keeps the default configuration well under Step Functions’ 25,000 events per execution', () => {
    // Act
    const budget = workflowHistoryBudget(defaults);

    // Assess
    expect(budget.worstCaseEvents).toBeLessThan(STEP_FUNCTIONS_MAX_HISTORY_EVENTS);
    expect(budget.arithmetic).toBe(
      `(${createRetry(defaults).maxAttempts + 1} create + ${statusPollRetry(defaults).maxAttempts + FINISHING_POLL_RETRY.maxAttempts + 1} poll + 21 other task attempts) × 3 events + 40 = ${budget.worstCaseEvents}`,
    );
  });

  it('lets the create retrier back off further for a long deadline, so a day fits too', () => {
    const day = { ...defaults, exportDeadlineSeconds: 86_400 };
    expect(createRetry(defaults).maxDelaySeconds).toBe(60);
    expect(createRetry(day).maxDelaySeconds).toBe(120);
    expect(workflowHistoryBudget(day).worstCaseEvents).toBeLessThan(STEP_FUNCTIONS_MAX_HISTORY_EVENTS);
  });

  it.each([
    [{ exportDeadlineSeconds: 604_800 }],
    [{ statusPollIntervalSeconds: 1, statusPollMaxDelaySeconds: 1 }],
  ])('refuses %j, saying the arithmetic', (polling) => {
    // Act
    const problems = (() => {
      try {
        parseStackConfig({ polling });
        return [];
      } catch (error) {
        return (error as StackConfigError).problems;
      }
    })();

    // Assess
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^openwebExports\.polling\.exportDeadlineSeconds: one export's workflow could write \(\d+ create \+ \d+ poll \+ 21 other task attempts\) × 3 events \+ 40 = \d+ history events, past Step Functions' 25000: lower exportDeadlineSeconds or raise statusPollMaxDelaySeconds$/,
    );
  });

  it('accepts a week-long deadline once polls may be half an hour apart', () => {
    expect(() =>
      parseStackConfig({ polling: { exportDeadlineSeconds: 604_800, statusPollMaxDelaySeconds: 1_800 } }),
    ).not.toThrow();
  });
});

describe('worstCaseTaskSeconds', () => {
  it('adds every attempt timing out and every delay at its backed-off value, capped', () => {
    // Prepare: 3 retries of 10 s doubling to 25 s, each attempt 60 s at most
    const schedule = { intervalSeconds: 10, maxDelaySeconds: 25, backoffRate: 2, maxAttempts: 3 };

    // Act / Assess: 4 attempts × 60 s + (10 + 20 + 25) s of delays
    expect(worstCaseTaskSeconds(schedule, 60)).toBe(4 * 60 + 10 + 20 + 25);
  });
});

describe('executionTimeout', () => {
  it('outlasts the deadline, the poll that notices it, and the archive with all its retries', () => {
    // Act
    const budget = executionTimeout(defaults);

    // Assess
    const archive = worstCaseTaskSeconds(ARCHIVE_RETRY, ARCHIVE_TASK_TIMEOUT_SECONDS);
    expect(budget.timeoutSeconds).toBeGreaterThan(
      defaults.exportDeadlineSeconds + defaults.statusPollMaxDelaySeconds + archive,
    );
    expect(budget.arithmetic).toContain(`${defaults.exportDeadlineSeconds} deadline`);
  });

  it('grows with the deadline and with the longest poll delay', () => {
    // Act / Assess
    const base = executionTimeout(defaults).timeoutSeconds;
    expect(executionTimeout({ ...defaults, exportDeadlineSeconds: 36_000 }).timeoutSeconds).toBe(
      base + 36_000 - defaults.exportDeadlineSeconds,
    );
    expect(executionTimeout({ ...defaults, statusPollMaxDelaySeconds: 600 }).timeoutSeconds).toBe(base + 300);
  });
});
