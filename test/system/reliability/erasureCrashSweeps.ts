import type { CrashPlacement } from '../../support/IoStepCrasher';
import { archiveCompletedExports } from './archiveSteps';
import { startViaApi } from './callers';
import type { CrashSweep } from './crashSweeps';
import { erasuresOf, requestErasuresOfArchivedUsers, runErasureOnce } from './erasureSteps';
import { FaultScenario } from './FaultScenario';
import { stepWorkflows } from './stepWorkflows';

const SPOT = 'sp_demo';
const GROUP = 'crash: erasure run';
const MS_PER_SECOND = 1000;

/**
 * The erasure's run killed at I/O step 1, 2, 3, … (before or after the call), each in a fresh
 * system: one export of the spot archived, one of its users erased; the run dies, the next run
 * (after the dead one's lease lapses, at the suite's drive to the end) resumes it. The invariants
 * then say whether any file still holds the user or disagrees with its manifest.
 */
export function erasureCrashSweeps(full: boolean): CrashSweep[] {
  const placements: CrashPlacement[] = full ? ['before', 'after'] : ['before'];
  return placements.map((placement) => ({
    group: GROUP,
    name: `erasure run: crash ${placement} each I/O step, the next run resumes it`,
    scenarioAt: (atStep, reached) => ({
      group: GROUP,
      name: `erasure run, crash ${placement} I/O step ${atStep}`,
      start: () => FaultScenario.start({ seed: atStep, archiving: true }),
      run: async (scenario) => {
        await archivedExport(scenario);
        await requestErasuresOfArchivedUsers(scenario, 1);
        const [erasure] = await erasuresOf(scenario);
        if (erasure === undefined) throw new Error('no erasure to run: the export archived no user');
        reached.value = (await runErasureOnce(scenario, erasure, { atStep, placement })) === 'crashed';
      },
    }),
  }));
}

/** One export of the spot through the API, created, completed upstream and archived. */
export async function archivedExport(scenario: FaultScenario): Promise<void> {
  await startViaApi(scenario, SPOT, 0, { key: 'erasure-crash' });
  await stepWorkflows(scenario);
  for (const upstream of scenario.harness.simulator.listExports())
    if (upstream.state === 'processing') scenario.harness.simulator.finishExport(upstream.id, 'completed');
  scenario.clock.advance((scenario.settings.reconcileStaleAfterSeconds + 1) * MS_PER_SECOND);
  await stepWorkflows(scenario);
  await archiveCompletedExports(scenario);
}
