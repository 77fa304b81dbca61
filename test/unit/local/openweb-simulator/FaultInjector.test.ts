import { describe, expect, it } from 'vitest';
import { FaultInjector, type SimulatorFaults } from '../../../../local/openweb-simulator/SimulatorFaults';

const RATES: SimulatorFaults = { endpoints: { status: { errorRate: 0.3, rateLimitRate: 0.3 } } };

function kinds(injector: FaultInjector, calls: number): (string | undefined)[] {
  return Array.from({ length: calls }, () => injector.decide('status').kind);
}

describe('FaultInjector', () => {
  it('draws the same rate-based faults for the same seed', () => {
    // Prepare
    const first = new FaultInjector(9, RATES);
    const second = new FaultInjector(9, RATES);

    // Act + Assess
    expect(kinds(second, 50)).toEqual(kinds(first, 50));
  });

  it('keeps the rate-based sequence of an endpoint whatever other endpoints and scripts do', () => {
    // Prepare
    const quiet = new FaultInjector(9, RATES);
    const busy = new FaultInjector(9, {
      ...RATES,
      script: [{ endpoint: 'status', kind: 'latency', times: 3 }],
    });
    for (let call = 0; call < 10; call += 1) {
      busy.decide('auth');
    }

    // Act
    const quietKinds = kinds(quiet, 30);
    const busyKinds = kinds(busy, 30);

    // Assess
    expect(busyKinds.slice(0, 3)).toEqual(['latency', 'latency', 'latency']);
    expect(busyKinds.slice(3)).toEqual(quietKinds.slice(3));
  });

  it('restarts the sequence when the faults are replaced', () => {
    // Prepare
    const injector = new FaultInjector(9, RATES);
    const firstRun = kinds(injector, 20);

    // Act
    injector.replace(RATES);

    // Assess
    expect(kinds(injector, 20)).toEqual(firstRun);
  });

  it('roughly honours the configured rates', () => {
    // Prepare
    const injector = new FaultInjector(3, RATES);

    // Act
    const drawn = kinds(injector, 2_000);

    // Assess
    const errors = drawn.filter((kind) => kind === 'error').length;
    const rateLimits = drawn.filter((kind) => kind === 'rateLimit').length;
    expect(errors).toBeGreaterThan(500);
    expect(errors).toBeLessThan(700);
    expect(rateLimits).toBeGreaterThan(500);
    expect(rateLimits).toBeLessThan(700);
  });

  it('adds endpoint latency to scripted faults and reports pure latency as such', () => {
    // Prepare
    const injector = new FaultInjector(1, {
      endpoints: { create: { latencyMs: 20 } },
      script: [{ endpoint: 'create', kind: 'error', status: 502, latencyMs: 5 }],
    });

    // Act
    const scripted = injector.decide('create');
    const plain = injector.decide('create');

    // Assess
    expect(scripted).toEqual({ kind: 'error', latencyMs: 25, errorStatus: 502, retryAfterSeconds: 1 });
    expect(plain).toEqual({ kind: 'latency', latencyMs: 20, errorStatus: 503, retryAfterSeconds: 1 });
  });
});
