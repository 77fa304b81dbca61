import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultScenario } from './FaultScenario';

/** Bounds the wait for injected latencies still in flight. */
const DRAIN_TIMEOUT_MS = 5_000;
const DRAIN_POLL_INTERVAL_MS = 20;

/**
 * Waits until the simulator has answered every call it holds: a create held by injected
 * latency is still processed later, and would otherwise land in the middle of later steps.
 */
export async function drainSlowCalls(scenario: FaultScenario): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (scenario.harness.simulator.requestsInProgress > 0 && Date.now() < deadline) {
    await sleep(DRAIN_POLL_INTERVAL_MS);
  }
}
