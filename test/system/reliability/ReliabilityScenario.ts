import type { InvariantOptions } from './checkInvariants';
import type { FaultScenario } from './FaultScenario';

/** One scenario of the fault suite: how to build the system, and what to do to it. */
export interface ReliabilityScenario {
  /** Row of the summary table it counts in. */
  group: string;
  /** Unique, with its seed: enough to run it again. */
  name: string;
  start(): Promise<FaultScenario>;
  /** The faults and the workload; the suite then drives every export to its end. */
  run(scenario: FaultScenario): Promise<void>;
  invariants?: InvariantOptions;
}
