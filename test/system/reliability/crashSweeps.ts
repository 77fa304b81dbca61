import { scheduledRunOf } from '../../../lib/events/scheduledExportEvent';
import { runSchedule } from '../../../lib/exports/coverage/runSchedule';
import type { ExportDependencies } from '../../../lib/exports/ExportDependencies';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { checkExport } from '../../../lib/exports/lifecycle/checkExport';
import { createUpstreamExport } from '../../../lib/exports/lifecycle/createUpstreamExport';
import { startExport } from '../../../lib/exports/queue/startExport';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import { exportRequestSchema } from '../../../lib/exports/requests/exportRequestSchema';
import type { CreateTaskInput } from '../../../lib/exports/workflow/workflowTaskInput';
import { type CrashPlacement, IoStepCrasher } from '../../support/IoStepCrasher';
import { FAR_DEADLINE } from '../../support/startAndCreate';
import { abortViaApi, deliverSchedule, scheduleEvent, startViaApi, windowRequest } from './callers';
import { reconcileNow } from './driveToEnd';
import { FaultScenario } from './FaultScenario';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { stepWorkflows } from './stepWorkflows';

/** No use case makes more I/O calls than this; a sweep ends earlier, at the first step never reached. */
export const MAX_CRASH_STEPS = 30;

const SPOT = 'sp_demo';
const NEIGHBOUR_SPOT = 'sp_other';
const API_KEY = 'crash-sweep';
const API_WINDOW = 0;
const SCHEDULE_WINDOW = 10;
const MS_PER_SECOND = 1000;

/**
 * After the crash: the caller (client, Scheduler, workflow) tries again at once, or only
 * after the upstream export finished (a client coming back later with the same key), or
 * nobody does but the reconciler.
 */
export type CrashRecovery = 'caller retries' | 'caller retries late' | 'reconciler only';
const CRASH_RECOVERIES: readonly CrashRecovery[] = [
  'caller retries',
  'caller retries late',
  'reconciler only',
];

/** What the crashing call acts on, prepared before the process that dies starts. */
interface CrashSubject {
  spotId: string;
  exportId?: string;
}

/** How much of a target the reduced run sweeps; the full run sweeps everything. */
type ReducedSweep = 'every recovery' | 'recoveries in turn' | 'full run only';

interface CrashTarget {
  name: string;
  reduced: ReducedSweep;
  prepare(scenario: FaultScenario): Promise<CrashSubject>;
  /** The use case the doomed process runs. */
  call(deps: ExportDependencies, subject: CrashSubject): Promise<unknown>;
  /** What the caller does when it tries again. */
  retry(scenario: FaultScenario, subject: CrashSubject): Promise<unknown>;
}

/** One sweep: the same call, killed at I/O step 1, 2, 3, … in turn, each in a fresh system. */
export interface CrashSweep {
  group: string;
  name: string;
  /** The scenario that kills the process at `atStep`; `reached` tells afterwards whether it got there. */
  scenarioAt(atStep: number, reached: { value: boolean }): ReliabilityScenario;
}

const apiCommand = {
  spotId: SPOT,
  request: exportRequestSchema(SPOT).parse(windowRequest(API_WINDOW)),
  source: 'api' as const,
  // The API namespaces client keys; a retry through the API must land on the same key.
  idempotencyKey: `api:${API_KEY}`,
};

/** A start through the API whose workflow's create task has run once (the export exists upstream). */
async function startedExport(scenario: FaultScenario): Promise<CrashSubject> {
  const answer = await startViaApi(scenario, SPOT, API_WINDOW, { key: API_KEY });
  await stepWorkflows(scenario);
  return { spotId: SPOT, ...(answer.exportId !== undefined && { exportId: answer.exportId }) };
}

/** A start through the API whose workflow has not run its create task yet. */
async function requestedExport(scenario: FaultScenario): Promise<CrashSubject> {
  const answer = await startViaApi(scenario, SPOT, API_WINDOW, { key: API_KEY });
  return { spotId: SPOT, ...(answer.exportId !== undefined && { exportId: answer.exportId }) };
}

function createTaskOf(subject: CrashSubject): CreateTaskInput {
  return {
    action: 'create',
    spotId: subject.spotId,
    exportId: subject.exportId ?? '',
    deadline: FAR_DEADLINE,
  };
}

function upstreamIdOf(scenario: FaultScenario, subject: CrashSubject): Promise<string | undefined> {
  return scenario.harness.store
    .getExport(subject.spotId, subject.exportId ?? '')
    .then((record) => record?.upstreamExportId);
}

export const CRASH_TARGETS: readonly CrashTarget[] = [
  {
    name: 'API start',
    // The start has the most steps that matter to recovery: each meets every recovery.
    reduced: 'every recovery',
    prepare: async () => ({ spotId: SPOT }),
    call: (deps) => startExport(deps, apiCommand),
    retry: (scenario) => startViaApi(scenario, SPOT, API_WINDOW, { key: API_KEY }),
  },
  {
    name: 'scheduled start',
    // The same use case as the API start with another command; the races cover redeliveries.
    reduced: 'full run only',
    prepare: async () => ({ spotId: SPOT }),
    call: (deps) => runSchedule(deps, scheduledRunOf(scheduleEvent(SPOT, SCHEDULE_WINDOW))),
    retry: (scenario) => deliverSchedule(scenario, SPOT, SCHEDULE_WINDOW),
  },
  {
    name: 'create task',
    // The workflow's first step: claim, authenticate, create, record; each step meets every recovery.
    reduced: 'every recovery',
    prepare: requestedExport,
    call: (deps, subject) => createUpstreamExport(deps, createTaskOf(subject)),
    retry: (scenario) => stepWorkflows(scenario),
  },
  {
    name: 'create task after a throttled attempt',
    reduced: 'recoveries in turn',
    prepare: async (scenario) => {
      scenario.harness.simulator.setFaults({
        script: [{ endpoint: 'create', kind: 'rateLimit', retryAfterSeconds: null, times: 1 }],
      });
      const subject = await requestedExport(scenario);
      await stepWorkflows(scenario);
      scenario.harness.simulator.setFaults({});
      return subject;
    },
    call: (deps, subject) => createUpstreamExport(deps, createTaskOf(subject)),
    retry: (scenario) => stepWorkflows(scenario),
  },
  {
    name: 'check that sees completion',
    reduced: 'recoveries in turn',
    prepare: async (scenario) => {
      const subject = await startedExport(scenario);
      const upstreamId = await upstreamIdOf(scenario, subject);
      if (upstreamId !== undefined) scenario.harness.simulator.finishExport(upstreamId, 'completed');
      return subject;
    },
    call: (deps, subject) =>
      checkExport(deps, { spotId: subject.spotId, exportId: subject.exportId ?? '', mode: 'workflow' }),
    retry: (scenario) => stepWorkflows(scenario),
  },
  {
    name: 'check that recovers an unknown upstream id',
    reduced: 'recoveries in turn',
    prepare: async (scenario) => {
      // The create reaches the upstream, its answer does not: the record waits for its id.
      scenario.harness.simulator.setFaults({
        script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }],
      });
      const subject = await startedExport(scenario);
      scenario.harness.simulator.setFaults({});
      for (const upstream of scenario.harness.simulator.listExports(SPOT)) {
        if (upstream.state === 'processing')
          scenario.harness.simulator.finishExport(upstream.id, 'completed');
      }
      scenario.clock.advance((scenario.settings.createClaimTimeoutSeconds + 1) * MS_PER_SECOND);
      return subject;
    },
    call: (deps, subject) =>
      checkExport(deps, { spotId: subject.spotId, exportId: subject.exportId ?? '', mode: 'reconcile' }),
    retry: (scenario) => reconcileNow(scenario),
  },
  {
    name: 'abort',
    reduced: 'recoveries in turn',
    prepare: startedExport,
    call: (deps, subject) =>
      abortExport(deps, { spotId: subject.spotId, exportId: subject.exportId ?? '', reason: 'requested' }),
    retry: (scenario, subject) => abortViaApi(scenario, subject.spotId, subject.exportId ?? ''),
  },
  {
    name: 'reconciler sweep',
    reduced: 'recoveries in turn',
    prepare: async (scenario) => {
      // Two exports whose workflows died with a restart; one finished upstream meanwhile.
      const subject = await startedExport(scenario);
      await startViaApi(scenario, NEIGHBOUR_SPOT, API_WINDOW, { key: API_KEY });
      await scenario.restartRuntime();
      const upstreamId = await upstreamIdOf(scenario, subject);
      if (upstreamId !== undefined) scenario.harness.simulator.finishExport(upstreamId, 'completed');
      scenario.clock.advance((scenario.settings.reconcileStaleAfterSeconds + 1) * MS_PER_SECOND);
      return subject;
    },
    call: (deps) => reconcileExports(deps),
    retry: (scenario) => reconcileNow(scenario),
  },
];

/**
 * Every target swept with every placement and recovery (`full`). The reduced run crashes
 * before each step only (which covers the gap between every pair of steps), with every
 * recovery for the start and the recoveries taking turns elsewhere.
 */
export function crashSweeps(full: boolean): CrashSweep[] {
  return CRASH_TARGETS.flatMap((target) => {
    if (full) {
      return (['before', 'after'] as const).flatMap((placement) =>
        CRASH_RECOVERIES.map((recovery) => sweep(target, placement, recovery)),
      );
    }
    if (target.reduced === 'every recovery')
      return CRASH_RECOVERIES.map((recovery) => sweep(target, 'before', recovery));
    return target.reduced === 'recoveries in turn' ? [sweep(target, 'before', 'in turn')] : [];
  });
}

function sweep(
  target: CrashTarget,
  placement: CrashPlacement,
  recovery: CrashRecovery | 'in turn',
): CrashSweep {
  return {
    group: `crash: ${target.name}`,
    name: `${target.name}: crash ${placement} each I/O step, ${recovery === 'in turn' ? 'recoveries in turn' : recovery}`,
    scenarioAt: (atStep, reached) =>
      crashPoint(
        target,
        atStep,
        placement,
        recovery === 'in turn'
          ? (CRASH_RECOVERIES[(atStep - 1) % CRASH_RECOVERIES.length] as CrashRecovery)
          : recovery,
        reached,
      ),
  };
}

function crashPoint(
  target: CrashTarget,
  atStep: number,
  placement: CrashPlacement,
  recovery: CrashRecovery,
  reached: { value: boolean },
): ReliabilityScenario {
  return {
    group: `crash: ${target.name}`,
    name: `${target.name}, crash ${placement} I/O step ${atStep}, ${recovery}`,
    start: () => FaultScenario.start({ seed: atStep }),
    run: async (scenario) => {
      const subject = await target.prepare(scenario);
      const crasher = new IoStepCrasher(atStep, placement);
      // The injected crash, or a refusal the use case answered with: either way this process is done.
      await target.call(crasher.wrap(scenario.container().deps), subject).catch(() => undefined);
      reached.value = crasher.crashedAt !== undefined;
      if (!reached.value) return;
      scenario.countFault('processCrash');
      scenario.crashes.push({ step: crasher.crashedStep ?? '', placement });
      if (recovery === 'reconciler only') return;
      if (recovery === 'caller retries late') {
        // Later than the claim timeout, sooner than the reconciler's staleness: the retry meets it first.
        for (const upstream of scenario.harness.simulator.listExports()) {
          if (upstream.state === 'processing')
            scenario.harness.simulator.finishExport(upstream.id, 'completed');
        }
        scenario.clock.advance((scenario.settings.createClaimTimeoutSeconds + 1) * MS_PER_SECOND);
      }
      await target.retry(scenario, subject).catch(() => undefined);
    },
  };
}
