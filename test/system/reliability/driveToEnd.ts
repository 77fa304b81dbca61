import { RECOVERY_HORIZON_MS } from '../../../lib/exports/lifecycle/recoverUpstreamExport';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus, isTerminal } from '../../../lib/exports/record/ExportStatus';
import { HandlerNames } from '../../../lib/http/routeTable';
import { createSeededRandom, deriveSeed } from '../../../local/openweb-simulator/seededRandom';
import { drainSlowCalls } from './drainSlowCalls';
import { finishErasures } from './erasureSteps';
import { type FaultScenario, SCENARIO_SPOTS } from './FaultScenario';
import { stepWorkflows } from './stepWorkflows';

/** Rounds of "upstream finishes, time passes, workflows poll, reconciler sweeps" before giving up. */
export const MAX_DRIVE_ROUNDS = 8;
/**
 * From this round on each round also waits out the recovery horizon: a record whose upstream
 * id is never recovered is searched for that long and ends only there (FAILED), so that end
 * must be reachable too.
 */
export const DEADLINE_ROUND = 4;
/** Rounds a queued export needs once its turn comes: its create, its polls, its end. */
const ROUNDS_PER_QUEUED_EXPORT = 3;
/** Share of the upstream exports the drive finishes that fail rather than complete. */
const UPSTREAM_FAILURE_SHARE = 0.2;
/** Real-time runs: how long the local workflows get to end on their own per round. */
const WORKFLOW_SETTLE_TIMEOUT_MS = 5_000;
const MS_PER_SECOND = 1000;

/**
 * Brings every export of the scenario to an end state, as the system would once the
 * storm is over: faults stop, the upstream finishes what it runs, time passes beyond the
 * claim timeout and the reconciler's staleness, workflows poll, and the reconciler sweeps.
 * Then every erasure asked for is run to its end (./erasureSteps.ts). Whatever is still active
 * afterwards is left for checkInvariants to report.
 */
export async function driveToEnd(scenario: FaultScenario): Promise<void> {
  scenario.harness.simulator.setFaults({});
  await drainSlowCalls(scenario);
  const outcomes = createSeededRandom(deriveSeed(scenario.seed, 'drive:outcomes'));
  // Queued exports run one after another, each over a few rounds of its own.
  const queued = (await scenario.records()).filter((record) => record.status === ExportStatus.QUEUED).length;
  const rounds = MAX_DRIVE_ROUNDS + ROUNDS_PER_QUEUED_EXPORT * queued;
  for (let round = 0; round < rounds; round++) {
    if (scenario.realTime) await scenario.waitForWorkflows(WORKFLOW_SETTLE_TIMEOUT_MS);
    const records = await scenario.records();
    const active = records.filter((record) => !isTerminal(record.status));
    const settled = active.length === 0 && scenario.runningExecutions.size === 0;
    if (settled && !(await lockedWithoutRecord(scenario, records))) break;
    await finishUpstreamExports(scenario, () =>
      outcomes() < UPSTREAM_FAILURE_SHARE ? 'failed' : 'completed',
    );
    if (!scenario.realTime) {
      const { reconcileStaleAfterSeconds, createClaimTimeoutSeconds, exportDeadlineSeconds } =
        scenario.settings;
      const horizonSeconds = Math.max(exportDeadlineSeconds, RECOVERY_HORIZON_MS / MS_PER_SECOND);
      const waitSeconds = round >= DEADLINE_ROUND ? horizonSeconds : 0;
      scenario.clock.advance(
        (reconcileStaleAfterSeconds + createClaimTimeoutSeconds + waitSeconds + 1) * MS_PER_SECOND,
      );
      await stepWorkflows(scenario);
    }
    await reconcileNow(scenario);
  }
  // With the archive on, every erasure asked for is run to its end too.
  await finishErasures(scenario);
}

/** A start that died before writing its record leaves the spot locked until its lease lapses. */
async function lockedWithoutRecord(scenario: FaultScenario, records: ExportRecord[]): Promise<boolean> {
  const known = new Set(records.map((record) => record.exportId));
  for (const spotId of SCENARIO_SPOTS) {
    const lock = await scenario.harness.spotLocks.get(spotId);
    if (lock !== undefined && !known.has(lock.exportId)) return true;
  }
  return false;
}

/** The scheduled reconciler, through the reconcile handler; in real time everything counts as stale. */
export async function reconcileNow(scenario: FaultScenario): Promise<void> {
  const container = scenario.realTime
    ? scenario.containerWith({ reconcileStaleAfterSeconds: 0 })
    : scenario.main;
  await container.invoke(HandlerNames.RECONCILE, { source: 'reconciler' });
}

/**
 * Ends every export still processing upstream. One whose record already ended is an
 * upstream export nobody tracks any more: it would hold the spot upstream, so it is reported.
 */
async function finishUpstreamExports(
  scenario: FaultScenario,
  outcome: () => 'completed' | 'failed',
): Promise<void> {
  const { simulator } = scenario.harness;
  const processing = simulator.listExports().filter((upstream) => upstream.state === 'processing');
  if (processing.length === 0) return;
  const owners = new Map((await scenario.records()).map((record) => [record.upstreamExportId, record]));
  for (const upstream of processing) {
    const owner = owners.get(upstream.id);
    if (owner !== undefined && isTerminal(owner.status)) {
      scenario.observedViolations.push(
        `upstream export ${upstream.id} still processing after its record ${owner.exportId} ended ${owner.status}`,
      );
    }
    simulator.finishExport(upstream.id, outcome());
  }
}
