import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import type { ExportSettings } from '../../../lib/exports/record/ExportSettings';
import { pollingExecutionName } from '../../../lib/exports/workflow/workflowContract';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  createSeededRandom,
  deriveSeed,
  type SeededRandom,
} from '../../../local/openweb-simulator/seededRandom';
import { abortViaApi, deliverSchedule, startViaApi } from './callers';
import { driveToEnd } from './driveToEnd';
import { FaultScenario, type ScenarioContainer } from './FaultScenario';
import { FAULTED_ENDPOINTS, SERVER_ERROR_RATE } from './faultProfiles';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { stepWorkflows } from './stepWorkflows';

const SPOT = 'sp_demo';
const NEIGHBOUR_SPOT = 'sp_other';
const SCHEDULE_WINDOW = 11;
const API_WINDOW = 1;
/** How many copies of one schedule event arrive at once (Scheduler and Lambda retries overlapping). */
const CONCURRENT_DELIVERIES = 3;
/** How late, in event-loop turns, the upstream finishes relative to the abort it races. */
const MAX_RACE_DELAY_TURNS = 6;
/** Rounds in which both workflows of one export poll at the same time. */
const TWO_POLLER_ROUNDS = 4;
const MS_PER_SECOND = 1000;
const HOUR_MS = 3_600_000;
/** The suite's windows end in October 2026 and its clock starts in November: a week's age is still to come. */
const RESTATE = ['P7D', 'P14D'];
const RESTATE_DUE_MS = Date.parse('2026-11-07T00:00:00Z');

function serverErrors(rate: number) {
  return {
    endpoints: Object.fromEntries(FAULTED_ENDPOINTS.map((endpoint) => [endpoint, { errorRate: rate }])),
  };
}

async function recordOf(
  scenario: FaultScenario,
  exportId: string | undefined,
): Promise<ExportRecord | undefined> {
  return exportId === undefined ? undefined : scenario.harness.store.getExport(SPOT, exportId);
}

async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await yieldToEventLoop();
}

interface RaceKind {
  name: string;
  /** Settings of its own, e.g. no archive step, so a COMPLETED export covers its window as the suite steps it. */
  settings?: Partial<ExportSettings>;
  run(scenario: FaultScenario, random: SeededRandom): Promise<void>;
}

export const RACE_KINDS: readonly RaceKind[] = [
  {
    name: 'one schedule event delivered twice in a row',
    run: async (scenario) => {
      scenario.harness.simulator.setFaults(serverErrors(SERVER_ERROR_RATE));
      scenario.countFault('duplicateScheduleDelivery');
      await deliverSchedule(scenario, SPOT, SCHEDULE_WINDOW);
      await deliverSchedule(scenario, SPOT, SCHEDULE_WINDOW, () => scenario.container());
    },
  },
  {
    name: 'one schedule event delivered concurrently',
    run: async (scenario) => {
      scenario.harness.simulator.setFaults(serverErrors(SERVER_ERROR_RATE));
      scenario.countFault('concurrentScheduleDelivery', CONCURRENT_DELIVERIES - 1);
      await Promise.all(
        Array.from({ length: CONCURRENT_DELIVERIES }, () =>
          deliverSchedule(scenario, SPOT, SCHEDULE_WINDOW, () => scenario.container(), true),
        ),
      );
    },
  },
  {
    name: 'abort racing completion',
    run: async (scenario, random) => {
      const { exportId } = await startViaApi(scenario, SPOT, API_WINDOW, { key: 'race' });
      const upstreamId = (await recordOf(scenario, exportId))?.upstreamExportId;
      if (exportId === undefined || upstreamId === undefined) return;
      // Sometimes the abort reaches the upstream and its answer is lost.
      if (random() < 0.5)
        scenario.harness.simulator.setFaults({
          script: [{ endpoint: 'abort', kind: 'resetAfterProcessing' }],
        });
      scenario.countFault('abortRacingCompletion');
      const delay = Math.floor(random() * MAX_RACE_DELAY_TURNS);
      const before = (await recordOf(scenario, exportId)) as ExportRecord;
      // Half the time the abort runs in a process that read the export before the others wrote.
      const aborter = random() < 0.5 ? scenario.containerThatRead(before) : scenario.container();
      await Promise.all([
        abortViaApi(scenario, SPOT, exportId, aborter),
        turns(delay).then(() => {
          if (scenario.harness.simulator.getExport(upstreamId)?.state === 'processing')
            scenario.harness.simulator.finishExport(upstreamId, 'completed');
        }),
        turns(MAX_RACE_DELAY_TURNS - delay).then(() => stepWorkflows(scenario)),
      ]);
    },
  },
  {
    name: 'two workflows polling one export',
    run: async (scenario, random) => {
      const { exportId } = await startViaApi(scenario, SPOT, API_WINDOW, { key: 'pollers' });
      const record = await recordOf(scenario, exportId);
      const input = exportId === undefined ? undefined : scenario.runningExecutions.get(exportId);
      if (record?.upstreamExportId === undefined || input === undefined) return;
      // A second execution for the same export, as a reconciler restart racing a live one would make.
      scenario.countFault('secondPoller');
      await scenario.workflows.start(pollingExecutionName(record.exportId, 1), input);
      scenario.harness.simulator.setFaults(serverErrors(SERVER_ERROR_RATE));
      const finishRound = Math.floor(random() * TWO_POLLER_ROUNDS);
      const poll = { action: 'poll', spotId: SPOT, exportId: record.exportId, deadline: input.deadline };
      for (let round = 0; round < TWO_POLLER_ROUNDS; round++) {
        if (round === finishRound)
          scenario.harness.simulator.finishExport(record.upstreamExportId, 'completed');
        const before = (await recordOf(scenario, record.exportId)) as ExportRecord;
        const invoke = (container: ScenarioContainer) =>
          container.invoke(HandlerNames.WORKFLOW_TASK, poll).catch(() => undefined);
        if (random() < 0.5) {
          // One process: the two polls share one upstream call.
          await Promise.all([invoke(scenario.container()), invoke(scenario.container())]);
        } else {
          // Two processes: the second acts on what it read before the first one wrote.
          await invoke(scenario.container());
          await invoke(scenario.containerThatRead(before));
        }
        scenario.clock.advance(MS_PER_SECOND);
      }
    },
  },
  {
    name: 'abort while the create answer was lost, then a runtime restart',
    run: async (scenario, random) => {
      // The create reaches the upstream but its answer does not: the record waits for its id.
      scenario.harness.simulator.setFaults({
        script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }],
      });
      const { exportId } = await startViaApi(scenario, SPOT, API_WINDOW, { key: 'lost-answer' });
      await startViaApi(scenario, NEIGHBOUR_SPOT, API_WINDOW, { key: 'neighbour' });
      if (exportId !== undefined) await abortViaApi(scenario, SPOT, exportId);
      await scenario.restartRuntime();
      // The upstream may finish before anyone learns the id, or only later.
      if (random() < 0.5) {
        for (const upstream of scenario.harness.simulator.listExports(SPOT))
          if (upstream.state === 'processing')
            scenario.harness.simulator.finishExport(upstream.id, 'completed');
      }
    },
  },
  {
    name: 'a restatement due while the reconciler runs several times at once',
    // The suite's stepped workflows stop at the archive step: with archiving off a COMPLETED export covers.
    settings: { archiving: false },
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(serverErrors(SERVER_ERROR_RATE));
      await deliverSchedule(scenario, SPOT, SCHEDULE_WINDOW, undefined, false, RESTATE);
      await driveToEnd(scenario);
      // Past the first age, at a random hour of the day: the windows are due for their P7D restatement.
      scenario.clock.advance(
        Math.max(0, RESTATE_DUE_MS - scenario.clock.now()) + Math.floor(random() * 24) * HOUR_MS,
      );
      scenario.countFault('concurrentReconcile', CONCURRENT_DELIVERIES - 1);
      await Promise.all(
        Array.from({ length: CONCURRENT_DELIVERIES }, () =>
          scenario
            .container()
            .invoke(HandlerNames.RECONCILE, { source: 'reconciler' })
            .catch(() => undefined),
        ),
      );
      // Some restatements fail upstream (driveToEnd fails a share of what it finishes) and are retried.
      await stepWorkflows(scenario);
    },
  },
  {
    name: 'runtime restart mid-export',
    run: async (scenario, random) => {
      scenario.harness.simulator.setFaults(serverErrors(SERVER_ERROR_RATE / 2));
      await startViaApi(scenario, SPOT, API_WINDOW, { key: 'restart' });
      await deliverSchedule(scenario, NEIGHBOUR_SPOT, SCHEDULE_WINDOW);
      await stepWorkflows(scenario);
      await scenario.restartRuntime();
      scenario.clock.advance(
        Math.floor(random() * scenario.settings.reconcileStaleAfterSeconds) * MS_PER_SECOND,
      );
      if (random() < 0.5) await scenario.forceTokenExpiry(SPOT);
    },
  },
];

/** Every race with every seed, on the manual clock with stepped workflows. */
export function raceScenarios(seeds: readonly number[]): ReliabilityScenario[] {
  return RACE_KINDS.flatMap((kind) =>
    seeds.map(
      (seed): ReliabilityScenario => ({
        group: `race: ${kind.name}`,
        name: `${kind.name} (seed ${seed})`,
        start: () =>
          FaultScenario.start({ seed, ...(kind.settings !== undefined && { settings: kind.settings }) }),
        run: (scenario) => kind.run(scenario, createSeededRandom(deriveSeed(seed, `race:${kind.name}`))),
      }),
    ),
  );
}
