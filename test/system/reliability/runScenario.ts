import { checkInvariants } from './checkInvariants';
import { driveToEnd } from './driveToEnd';
import type { ReliabilityReport } from './ReliabilityReport';
import type { ReliabilityScenario } from './ReliabilityScenario';

/**
 * Runs a scenario's workload, drives every export to an end state, checks the invariants
 * and tallies it in the report. Resolves to the violations (empty when all held).
 */
export async function runScenario(
  definition: ReliabilityScenario,
  report: ReliabilityReport,
): Promise<string[]> {
  const scenario = await definition.start();
  try {
    await definition.run(scenario);
    await driveToEnd(scenario);
    const violations = await checkInvariants(scenario, definition.invariants);
    await report.add(definition.group, definition.name, scenario, violations);
    return violations;
  } finally {
    await scenario.close();
  }
}
