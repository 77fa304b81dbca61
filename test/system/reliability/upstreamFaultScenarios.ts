import { drainSlowCalls } from './drainSlowCalls';
import { FaultScenario } from './FaultScenario';
import { FAULT_PROFILES, type FaultProfile, profileRandom } from './faultProfiles';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { runRandomWorkload } from './randomWorkload';

/** Workload steps per scenario. */
export const WORKLOAD_STEPS = 20;

/** Every fault profile with every seed: a random workload against a faulty upstream. */
export function upstreamFaultScenarios(seeds: readonly number[]): ReliabilityScenario[] {
  return FAULT_PROFILES.flatMap((profile) => seeds.map((seed) => scenarioFor(profile, seed)));
}

function scenarioFor(profile: FaultProfile, seed: number): ReliabilityScenario {
  const random = profileRandom(seed, profile);
  const simulator = profile.simulator(random);
  const tokenTtlSeconds = profile.tokenTtlSeconds?.(random);
  return {
    group: `upstream: ${profile.name}`,
    name: `${profile.name} (seed ${seed})`,
    start: () =>
      FaultScenario.start({
        seed,
        ...(profile.client !== undefined && { client: profile.client }),
        simulator: { ...simulator, ...(tokenTtlSeconds !== undefined && { tokenTtlSeconds }) },
      }),
    run: (scenario) =>
      runRandomWorkload(scenario, {
        steps: WORKLOAD_STEPS,
        mix: profile.mix,
        afterStep: async (current, step) => {
          if (profile.liftAfterSteps === undefined || step + 1 !== profile.liftAfterSteps) return;
          current.harness.simulator.setFaults({});
          await drainSlowCalls(current);
        },
      }),
    ...(tokenTtlSeconds !== undefined && { invariants: { tokenTtlSeconds } }),
  };
}
