import { isTerminal } from '../../../lib/exports/record/ExportStatus';
import { createSeededRandom, deriveSeed } from '../../../local/openweb-simulator/seededRandom';
import { AwsFaultInjector } from './AwsFaultInjector';
import { archiveCompletedExports } from './archiveSteps';
import { AWS_FAULT_PROFILES, type AwsFaultProfile } from './awsFaultProfiles';
import { reconcileNow } from './driveToEnd';
import { requestErasuresOfArchivedUsers } from './erasureSteps';
import { FaultScenario } from './FaultScenario';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { runRandomWorkload } from './randomWorkload';
import { stepWorkflows } from './stepWorkflows';
import { WORKLOAD_STEPS } from './upstreamFaultScenarios';

/**
 * Rounds of "the upstream finishes, time passes, workflows poll, the reconciler sweeps" while AWS
 * still pushes back: the ends of exports, their events, the windows' outcomes and the queue's
 * next starts happen under the faults, not only the starts.
 */
export const FAULTED_DRIVE_ROUNDS = 4;
const MS_PER_SECOND = 1000;

/** Erasures asked for per spot once the first workload's exports are archived. */
const ERASURES_PER_SPOT = 2;

/** The summary rows of the AWS-side profiles start with this. */
export const AWS_FAULT_GROUP_PREFIX = 'aws: ';

/** Every AWS-side profile with every seed: a random workload while AWS refuses a share of the calls. */
export function awsFaultScenarios(seeds: readonly number[]): ReliabilityScenario[] {
  return AWS_FAULT_PROFILES.flatMap((profile) => seeds.map((seed) => scenarioFor(profile, seed)));
}

function scenarioFor(profile: AwsFaultProfile, seed: number): ReliabilityScenario {
  return {
    group: `${AWS_FAULT_GROUP_PREFIX}${profile.name}`,
    name: `${profile.name} (seed ${seed})`,
    start: () => {
      const random = createSeededRandom(deriveSeed(seed, `aws:${profile.name}`));
      return FaultScenario.start({
        seed,
        aws: new AwsFaultInjector(random, profile.rules(random)),
        ...(profile.archiving === true && { archiving: true }),
      });
    },
    run: async (scenario) => {
      await runRandomWorkload(scenario, { steps: WORKLOAD_STEPS, mix: profile.mix });
      await driveUnderFaults(scenario);
      if (profile.archiving === true) {
        // Readers of both spots ask to be forgotten once their rows are archived; the erasures
        // run (some runs killed mid-way) alongside more exports, archives and schedules.
        await requestErasuresOfArchivedUsers(scenario, ERASURES_PER_SPOT);
        await runRandomWorkload(scenario, { steps: WORKLOAD_STEPS, mix: profile.mix, phase: 'erasures' });
        await driveUnderFaults(scenario);
      }
      // The storm is over: the suite drives every export to its end as the system would.
      scenario.aws?.lift();
      if (scenario.archiveStorage !== undefined) await archiveCompletedExports(scenario);
    },
  };
}

async function driveUnderFaults(scenario: FaultScenario): Promise<void> {
  const { simulator } = scenario.harness;
  for (let round = 0; round < FAULTED_DRIVE_ROUNDS; round++) {
    const active = new Set(
      (await scenario.records())
        .filter((record) => !isTerminal(record.status))
        .map((record) => record.upstreamExportId),
    );
    for (const upstream of simulator.listExports())
      if (upstream.state === 'processing' && active.has(upstream.id))
        simulator.finishExport(upstream.id, 'completed');
    const { reconcileStaleAfterSeconds, createClaimTimeoutSeconds } = scenario.settings;
    scenario.clock.advance((reconcileStaleAfterSeconds + createClaimTimeoutSeconds + 1) * MS_PER_SECOND);
    await stepWorkflows(scenario);
    if (scenario.archiveStorage !== undefined) await archiveCompletedExports(scenario);
    // A sweep that met more refusals than it could take fails as the scheduled Lambda would; the next one runs.
    await reconcileNow(scenario).catch(() => undefined);
  }
}
