import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportSettings } from '../../../lib/exports/record/ExportSettings';
import { pollingExecutionName } from '../../../lib/exports/workflow/workflowContract';
import type {
  EndpointFaults,
  SimulatorEndpoint,
  SimulatorFaults,
} from '../../../local/openweb-simulator/index';
import {
  createSeededRandom,
  deriveSeed,
  type SeededRandom,
} from '../../../local/openweb-simulator/seededRandom';
import { abortViaApi, deliverSchedule, startViaApi } from './callers';
import { reconcileNow } from './driveToEnd';
import { FaultScenario, SCENARIO_SPOTS } from './FaultScenario';
import { malformedBodyRateOf, SERVER_ERROR_RATE } from './faultProfiles';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { suiteStateMachine } from './suiteStateMachine';

/** Deployed waits and retry intervals × this: a 10 s poll interval takes 2 ms, the 300 s cap 60 ms. */
export const WORKFLOW_TIME_SCALE = 0.0002;
/** Upstream processing time × this: a day's export (about 25 simulated minutes) takes 0.3 s. */
export const UPSTREAM_TIME_SCALE = 0.0002;
/** How long a workload lets the workflows run before it interferes (restart, abort). */
const MAX_INTERFERENCE_DELAY_MS = 300;
/** Bounds the wait for the scenario's workflows to end on their own. */
const WORKFLOW_RUN_TIMEOUT_MS = 10_000;
const SPOT = 'sp_demo';
const API_WINDOW = 2;
const SCHEDULE_WINDOW = 12;
/** Days a never-ending export runs upstream, so only the deadline ends it. */
const ENDLESS_EXPORT_MS = 7 * 24 * 60 * 60 * 1000;
/** The export deadline of the deadline scenario, short enough for a real-time run. */
const SHORT_DEADLINE_SECONDS = 1;

/**
 * Faults on what the workflows call (status, list, abort, auth). Creates are left alone:
 * an ambiguous create in real time costs a caller a 10 s wait, and the manual-clock
 * scenarios cover creates.
 */
function pollingFaults(random: SeededRandom): SimulatorFaults {
  const endpoint = (name: SimulatorEndpoint): EndpointFaults => ({
    errorRate: SERVER_ERROR_RATE,
    rateLimitRate: random() * 0.1,
    retryAfterSeconds: null,
    resetBeforeProcessingRate: random() * 0.05,
    resetAfterProcessingRate: random() * 0.05,
    malformedBodyRate: malformedBodyRateOf(name, random() * 0.05),
  });
  return {
    endpoints: {
      status: endpoint('status'),
      list: endpoint('list'),
      abort: endpoint('abort'),
      auth: endpoint('auth'),
    },
  };
}

interface WorkflowKind {
  name: string;
  settings?: Partial<ExportSettings>;
  exportDurationMs?: number;
  run(scenario: FaultScenario, random: SeededRandom): Promise<void>;
}

async function startBoth(scenario: FaultScenario): Promise<void> {
  await startViaApi(scenario, SPOT, API_WINDOW, { key: 'workflow' });
  await deliverSchedule(scenario, SCENARIO_SPOTS[1] as string, SCHEDULE_WINDOW);
}

export const WORKFLOW_KINDS: readonly WorkflowKind[] = [
  {
    name: 'polled to the end under upstream faults',
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(pollingFaults(random));
      await startBoth(scenario);
      await scenario.waitForWorkflows(WORKFLOW_RUN_TIMEOUT_MS);
    },
  },
  {
    name: 'two workflows for one export',
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(pollingFaults(random));
      const { exportId } = await startViaApi(scenario, SPOT, API_WINDOW, { key: 'workflow' });
      const input = exportId === undefined ? undefined : scenario.runningExecutions.get(exportId);
      if (exportId === undefined || input === undefined) return;
      scenario.countFault('secondPoller');
      await scenario.workflows.start(pollingExecutionName(exportId, 1), input);
      await scenario.waitForWorkflows(WORKFLOW_RUN_TIMEOUT_MS);
    },
  },
  {
    name: 'runtime restart mid-export',
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(pollingFaults(random));
      await startBoth(scenario);
      await sleep(Math.floor(random() * MAX_INTERFERENCE_DELAY_MS));
      await scenario.restartRuntime();
      // What the local runtime does on boot: reconcile every active export at once.
      await reconcileNow(scenario);
      await scenario.waitForWorkflows(WORKFLOW_RUN_TIMEOUT_MS);
    },
  },
  {
    name: 'abort racing completion',
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(pollingFaults(random));
      const { exportId } = await startViaApi(scenario, SPOT, API_WINDOW, { key: 'workflow' });
      if (exportId === undefined) return;
      await sleep(Math.floor(random() * MAX_INTERFERENCE_DELAY_MS));
      scenario.countFault('abortRacingCompletion');
      await abortViaApi(scenario, SPOT, exportId, scenario.container());
      await scenario.waitForWorkflows(WORKFLOW_RUN_TIMEOUT_MS);
    },
  },
  {
    name: 'deadline passes under upstream faults',
    settings: { exportDeadlineSeconds: SHORT_DEADLINE_SECONDS },
    exportDurationMs: ENDLESS_EXPORT_MS,
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(pollingFaults(random));
      await startBoth(scenario);
      await scenario.waitForWorkflows(WORKFLOW_RUN_TIMEOUT_MS);
    },
  },
];

/** Every workflow scenario with every seed: the synthesized state machine, in real time. */
export function workflowScenarios(seeds: readonly number[]): ReliabilityScenario[] {
  return WORKFLOW_KINDS.flatMap((kind) =>
    seeds.map(
      (seed): ReliabilityScenario => ({
        group: `workflow: ${kind.name}`,
        name: `workflow: ${kind.name} (seed ${seed})`,
        start: async () =>
          FaultScenario.start({
            seed,
            ...(kind.settings !== undefined && { settings: kind.settings }),
            simulator: {
              timeScale: UPSTREAM_TIME_SCALE,
              ...(kind.exportDurationMs !== undefined && {
                exportDurationMs: () => kind.exportDurationMs as number,
              }),
            },
            workflows: {
              kind: 'local',
              stateMachine: await suiteStateMachine(),
              timeScale: WORKFLOW_TIME_SCALE,
            },
          }),
        run: (scenario) => kind.run(scenario, createSeededRandom(deriveSeed(seed, `workflow:${kind.name}`))),
      }),
    ),
  );
}
