import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { isTerminal } from '../../../lib/exports/record/ExportStatus';
import {
  createSeededRandom,
  deriveSeed,
  type SeededRandom,
} from '../../../local/openweb-simulator/seededRandom';
import { DEFAULT_USERS_PER_SPOT, userIdOf } from '../../../local/openweb-simulator/simulatedComments';
import { archiveCompletedExports } from './archiveSteps';
import { abortViaApi, checkViaApi, deliverSchedule, startBackfillViaApi, startViaApi } from './callers';
import { reconcileNow } from './driveToEnd';
import { requestErasureViaApi, runErasureOnce, runningErasures } from './erasureSteps';
import { type FaultScenario, SCENARIO_SPOTS } from './FaultScenario';
import { stepWorkflows } from './stepWorkflows';

export type WorkloadStepKind =
  | 'apiStart'
  | 'apiQueuedStart'
  | 'backfillStart'
  | 'scheduleDelivery'
  | 'apiCheck'
  | 'apiAbort'
  | 'stepWorkflows'
  | 'advanceMinutes'
  | 'advanceSeconds'
  | 'upstreamFinishes'
  | 'reconcile'
  | 'coldContainers'
  | 'tokenExpiry'
  | 'archiveCompleted'
  | 'erasureRequest'
  | 'erasureRun';

/** How often each step is drawn, relative to the others. */
export type WorkloadMix = Partial<Record<WorkloadStepKind, number>>;

export const DEFAULT_WORKLOAD_MIX: WorkloadMix = {
  apiStart: 4,
  apiQueuedStart: 2,
  backfillStart: 1,
  scheduleDelivery: 2,
  apiCheck: 2,
  apiAbort: 1,
  stepWorkflows: 3,
  advanceMinutes: 2,
  upstreamFinishes: 2,
  reconcile: 1,
};

export interface WorkloadOptions {
  steps: number;
  mix: WorkloadMix;
  /** A second workload of the same scenario names itself, so it draws other steps than the first. */
  phase?: string;
  /** Called after each step with its index; lets a profile lift its faults midway. */
  afterStep?: (scenario: FaultScenario, step: number) => Promise<void>;
}

/** API starts use these windows (each with its own idempotency key), schedules the next ones. */
const API_WINDOWS = 4;
const SCHEDULE_WINDOW_OFFSET = 10;
const SCHEDULE_WINDOWS = 3;
/**
 * With the archive on: the archive task runs for what completed (as the workflow runs it right
 * after), so erasures asked for meet archived files as well as later archives; erasures are asked
 * for and run, some runs dying mid-way.
 */
export const ERASURE_WORKLOAD_MIX: WorkloadMix = { archiveCompleted: 2, erasureRequest: 2, erasureRun: 3 };
/** Share of erasure runs killed at an I/O step (before or after the call). */
const ERASURE_CRASH_SHARE = 0.5;
/** An erasure run makes fewer I/O calls than this in the suite's archives; a crash point beyond its last is no crash. */
const MAX_ERASURE_CRASH_STEP = 40;
/** Share of API starts sent without an Idempotency-Key. */
const UNKEYED_START_SHARE = 0.2;
/** Share of calls that land on a fresh container (cold token cache) instead of a warm one. */
const COLD_CONTAINER_SHARE = 0.3;
const MAX_SCHEDULE_COPIES = 3;
const MAX_ADVANCE_MINUTES = 10;
const MAX_ADVANCE_SECONDS = 10;
const MAX_COLD_CONTAINERS = 6;
const MS_PER_SECOND = 1000;

/**
 * A seeded sequence of what callers, schedules, workflows, the upstream and time do to the
 * system: starts (keyed and not, repeated), redelivered schedules (in a row or at once),
 * status reads, aborts, workflow polls, upstream completions, reconciler sweeps.
 * Refusals and failures the system answers with are part of the game, not test failures.
 */
export async function runRandomWorkload(scenario: FaultScenario, options: WorkloadOptions): Promise<void> {
  const stream = options.phase === undefined ? 'workload' : `workload:${options.phase}`;
  const random = createSeededRandom(deriveSeed(scenario.seed, stream));
  for (let step = 0; step < options.steps; step++) {
    await runStep(scenario, random, pick(random, options.mix));
    await options.afterStep?.(scenario, step);
  }
}

async function runStep(scenario: FaultScenario, random: SeededRandom, kind: WorkloadStepKind): Promise<void> {
  const spotId = choose(random, SCENARIO_SPOTS) as string;
  const containerFor = () => (random() < COLD_CONTAINER_SHARE ? scenario.container() : scenario.main);
  switch (kind) {
    case 'apiStart': {
      const window = Math.floor(random() * API_WINDOWS);
      const key = random() < UNKEYED_START_SHARE ? undefined : `window-${window}`;
      await startViaApi(scenario, spotId, window, {
        ...(key !== undefined && { key }),
        container: containerFor,
      });
      return;
    }
    case 'apiQueuedStart': {
      // Waits its turn instead of a 409 while the spot is busy.
      const window = Math.floor(random() * API_WINDOWS);
      const key = random() < UNKEYED_START_SHARE ? undefined : `queued-window-${window}`;
      await startViaApi(scenario, spotId, window, {
        ...(key !== undefined && { key }),
        container: containerFor,
        queue: true,
      });
      return;
    }
    case 'backfillStart': {
      // Four days of history in windows of a day, queued behind the spot's scheduled runs.
      const key = random() < UNKEYED_START_SHARE ? undefined : 'history';
      await startBackfillViaApi(scenario, spotId, {
        ...(key !== undefined && { key }),
        container: containerFor,
      });
      return;
    }
    case 'scheduleDelivery': {
      const window = SCHEDULE_WINDOW_OFFSET + Math.floor(random() * SCHEDULE_WINDOWS);
      const copies = 2 + Math.floor(random() * (MAX_SCHEDULE_COPIES - 1));
      const concurrent = random() < 0.5;
      scenario.countFault(
        concurrent ? 'concurrentScheduleDelivery' : 'duplicateScheduleDelivery',
        copies - 1,
      );
      const deliver = () => deliverSchedule(scenario, spotId, window, containerFor, concurrent);
      if (concurrent) await Promise.all(Array.from({ length: copies }, deliver));
      else for (let copy = 0; copy < copies; copy++) await deliver();
      return;
    }
    case 'apiCheck': {
      const record = choose(random, await scenario.records());
      if (record !== undefined) await checkViaApi(scenario, record.spotId, record.exportId);
      return;
    }
    case 'apiAbort': {
      const record = choose(random, await activeRecords(scenario));
      if (record !== undefined) await abortViaApi(scenario, record.spotId, record.exportId, containerFor());
      return;
    }
    case 'stepWorkflows':
      await stepWorkflows(scenario);
      return;
    case 'advanceMinutes':
      scenario.clock.advance((1 + Math.floor(random() * MAX_ADVANCE_MINUTES * 60)) * MS_PER_SECOND);
      return;
    case 'advanceSeconds':
      scenario.clock.advance((1 + Math.floor(random() * MAX_ADVANCE_SECONDS)) * MS_PER_SECOND);
      return;
    case 'upstreamFinishes': {
      const processing = scenario.harness.simulator
        .listExports()
        .filter((upstream) => upstream.state === 'processing');
      const upstream = choose(random, processing);
      if (upstream !== undefined)
        scenario.harness.simulator.finishExport(upstream.id, random() < 0.8 ? 'completed' : 'failed');
      return;
    }
    case 'reconcile':
      scenario.clock.advance((scenario.settings.reconcileStaleAfterSeconds + 1) * MS_PER_SECOND);
      await reconcileNow(scenario).catch(() => undefined);
      return;
    case 'tokenExpiry':
      // The shared token is gone and every container restarts cold: all of them need one at once.
      await scenario.forceTokenExpiry(spotId);
      await runStep(scenario, random, 'coldContainers');
      return;
    case 'archiveCompleted':
      if (scenario.archiveStorage !== undefined) await archiveCompletedExports(scenario);
      return;
    case 'erasureRequest': {
      // A reader of the spot asks to be forgotten: one of the simulator's users.
      if (scenario.archiveStorage === undefined) return;
      const user = userIdOf(1 + Math.floor(random() * DEFAULT_USERS_PER_SPOT));
      await requestErasureViaApi(scenario, spotId, user);
      return;
    }
    case 'erasureRun': {
      if (scenario.archiveStorage === undefined) return;
      const erasure = choose(random, await runningErasures(scenario));
      if (erasure === undefined) return;
      const crash =
        random() < ERASURE_CRASH_SHARE
          ? {
              atStep: 1 + Math.floor(random() * MAX_ERASURE_CRASH_STEP),
              placement: random() < 0.5 ? ('before' as const) : ('after' as const),
            }
          : undefined;
      await runErasureOnce(scenario, erasure, crash);
      return;
    }
    case 'coldContainers': {
      // Many containers start at once, each with an empty token cache.
      const count = 2 + Math.floor(random() * (MAX_COLD_CONTAINERS - 1));
      const records = await scenario.records();
      await Promise.all(
        Array.from({ length: count }, async (_, index) => {
          const container = scenario.container();
          const record = choose(random, records);
          const target = SCENARIO_SPOTS[index % SCENARIO_SPOTS.length] as string;
          if (record !== undefined && index % 2 === 0)
            return checkViaApi(scenario, record.spotId, record.exportId);
          const window = Math.floor(random() * API_WINDOWS);
          return startViaApi(scenario, target, window, {
            key: `window-${window}`,
            container: () => container,
            concurrent: true,
          });
        }),
      );
      return;
    }
  }
}

async function activeRecords(scenario: FaultScenario): Promise<ExportRecord[]> {
  return (await scenario.records()).filter((record) => !isTerminal(record.status));
}

function pick(random: SeededRandom, mix: WorkloadMix): WorkloadStepKind {
  const entries = Object.entries(mix) as [WorkloadStepKind, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let draw = random() * total;
  for (const [kind, weight] of entries) {
    draw -= weight;
    if (draw < 0) return kind;
  }
  return (entries.at(-1) as [WorkloadStepKind, number])[0];
}

function choose<T>(random: SeededRandom, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}
