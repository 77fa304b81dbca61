import { describe, expect, it } from 'vitest';
import {
  STATUS_POLL_BACKOFF_RATE,
  STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS,
  statusPollMaxAttempts,
} from '../../infra/statusPollRetry';
import { createSeededRandom } from '../../local/openweb-simulator/seededRandom';

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

describe('statusPollMaxAttempts', () => {
  it('gives the default polling enough attempts to outlast the deadline in every simulated run', () => {
    // Prepare
    const random = createSeededRandom(42);
    const attempts = statusPollMaxAttempts(defaults);

    // Act
    const shortestRunSeconds = Math.min(
      ...Array.from({ length: 1_000 }, () => simulatedWaitSeconds(defaults, attempts, random)),
    );

    // Assess
    expect(shortestRunSeconds).toBeGreaterThan(defaults.exportDeadlineSeconds);
  });

  it('stays within a few hundred polls for the default six-hour deadline', () => {
    // Act
    const attempts = statusPollMaxAttempts(defaults);

    // Assess
    expect(attempts).toBeGreaterThan(100);
    expect(attempts).toBeLessThan(1_000);
  });

  it('grows with the deadline', () => {
    // Act
    const short = statusPollMaxAttempts({ ...defaults, exportDeadlineSeconds: 3_600 });
    const long = statusPollMaxAttempts({ ...defaults, exportDeadlineSeconds: 86_400 });

    // Assess
    expect(long).toBeGreaterThan(short);
  });

  it('never exceeds what Step Functions accepts', () => {
    // Act
    const attempts = statusPollMaxAttempts({
      exportDeadlineSeconds: 1e9,
      statusPollIntervalSeconds: 1,
      statusPollMaxDelaySeconds: 1,
    });

    // Assess
    expect(attempts).toBe(STEP_FUNCTIONS_MAX_RETRY_ATTEMPTS);
  });
});
