import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../lib/config';
import type { ErasureWorkflows } from '../lib/exports/erasure/ports';
import type { ReconcileSummary } from '../lib/exports/reconciler/reconcileExports';
import type { PollingWorkflows } from '../lib/exports/workflow/ports';
import { type HandlerName, ROUTES } from '../lib/http/routeTable';
import { createLogger } from '../lib/observability/createLogger';
import { handlerRuntimeFor } from '../lib/runtime/HandlerRuntime';
import { FileCredentialsProvider } from '../lib/secrets/FileCredentialsProvider';
import { OPENAPI_DOCUMENT_FILE } from '../openapi/documentFile';
import { loadStateMachine } from './cachedStateMachine';
import { type Closer, closeInReverse } from './closers';
import { LocalRuntimeInUseError, LocalRuntimeStoppingError } from './errors';
import { ForegroundActivity } from './ForegroundActivity';
import { startLocalHttpApi } from './http/LocalHttpApi';
import { InMemoryExportMetrics } from './InMemoryExportMetrics';
import { isAddressInUse } from './instanceGuard';
import { LocalExportEvents } from './LocalExportEvents';
import { LocalInvocations } from './LocalInvocations';
import { LocalPollingWorkflows, type WorkflowHistoryEvent } from './LocalPollingWorkflows';
import { handlerEnvironment, localDependencies } from './localDependencies';
import { localHandlers } from './localHandlers';
import { localOnlyRoutes } from './localOnlyRoutes';
import { apiPortInUse, claimPortsAndDataDir, simulatorPortInUse } from './localPorts';
import type { LocalRuntimeSettings } from './localRuntimeSettings';
import { spotKeys, spotsWithCredentials, warnAboutScheduledSpotsWithoutCredentials } from './localSpots';
import { openArchive, openTable } from './localStores';
import { startOpenWebSimulator } from './openweb-simulator/index';
import { LOCAL_PROJECT_ROOT } from './projectRoot';
import { resumeActiveExports } from './resumeActiveExports';
import { resumeRunningErasures } from './resumeRunningErasures';
import { describeError, reportResume, reportScheduleRun } from './runtimeReports';
import { LocalSchedules, type ScheduleView } from './schedules/LocalSchedules';
import { localScheduleDefinitions } from './schedules/localScheduleDefinitions';

/**
 * The longest a workflow task waits for the API requests in flight to be answered first: one
 * process plays API Gateway, Lambda and Step Functions here, and a task may not starve.
 */
const BACKGROUND_MAX_DEFER_MS = 1_000;
/** How long stop() lets handler invocations in progress finish before closing the table under them. */
export const STOP_INVOCATIONS_GRACE_MS = 10_000;
const MAX_SIMULATOR_SEED = 2 ** 31 - 1;
const MS_PER_SECOND = 1000;
/** The simulator's exports and secrets, in the data dir. */
export const SIMULATOR_STATE_FILE = 'openweb-simulator.json';

export interface LocalRuntimeOptions {
  settings: LocalRuntimeSettings;
  /** Further variables the handlers' configuration reads (UPSTREAM_*, IDEMPOTENCY_TTL_SECONDS). */
  env?: NodeJS.ProcessEnv;
  projectRoot?: string;
  /** Where the runtime's own human-readable lines go. */
  say?: (line: string) => void;
  /** What a measurement (a bench) watches; nothing by default. */
  observers?: LocalRuntimeObservers;
}

/** Hooks for measuring the runtime's work from outside, without changing it. */
export interface LocalRuntimeObservers {
  /** Sees the table's client before any handler uses it, e.g. to add a middleware that counts calls. */
  documentClient?: (client: DynamoDBDocumentClient) => void;
  /**
   * Runs around every handler invocation (API, schedule, workflow task), e.g. to attribute its table
   * calls; `run` invokes the handler.
   */
  invocation?: (handler: HandlerName, event: unknown, run: () => Promise<unknown>) => Promise<unknown>;
  /** Sees every history event of every workflow execution (state entered, retried, …). */
  workflowHistoryEvent?: (executionName: string, event: WorkflowHistoryEvent) => void;
}

export interface LocalRuntime {
  /** `http://127.0.0.1:<port>` */
  apiUrl: string;
  /** Set when the built-in simulator stands in for OpenWeb. */
  simulatorUrl?: string;
  /** Undefined when everything is kept in memory. */
  dataDir?: string;
  /** Spots the credentials file has keys for. */
  spots: string[];
  schedules: ScheduleView[];
  /** Whether the state machine came from the synthesis cache. */
  stateMachineFromCache: boolean;
  /** Settles once the active exports found at start have been resumed. */
  resumed: Promise<ReconcileSummary | undefined>;
  /** Stops everything, in order; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * The whole system in this process on loopback: the OpenWeb simulator (or the real
 * upstream), dynalite as DynamoDB, the HTTP API over the route table, the polling
 * workflow from the synthesized definition, and the schedules, all calling the very
 * handlers that run in Lambda. Active exports found in the table are resumed at once.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const { settings } = options;
  const say = options.say ?? (() => {});
  const bootedAtMs = Date.now();
  const projectRoot = options.projectRoot ?? LOCAL_PROJECT_ROOT;
  let resumeDone = false;
  // Undone in reverse order on stop, or when starting fails halfway.
  const closers: Closer[] = [];
  try {
    // Before anything slow or anything that touches the data folder: a second `npm start` stops here.
    await claimPortsAndDataDir(settings, closers);
    const { stateMachine, erasureStateMachine, fromCache, synthesisMs } = await loadStateMachine(
      settings.rawStackConfig,
      {
        projectRoot,
        onSynthesize: (reason) =>
          say(`Synthesizing the stack for its state machine definition, because ${reason}…`),
      },
    );
    if (synthesisMs !== undefined) {
      say(
        `Synthesized in ${(synthesisMs / MS_PER_SECOND).toFixed(1)} s; later starts reuse it until the stack configuration, infra/ or lib/ change.`,
      );
    }
    const credentials = new FileCredentialsProvider(settings.secretsFile);
    const spots = await spotsWithCredentials(credentials, settings.secretsFile);
    warnAboutScheduledSpotsWithoutCredentials(settings.stackConfig, spots, say);

    const { upstream } = settings;
    const simulator =
      upstream.kind === 'simulator'
        ? await startOpenWebSimulator({
            port: upstream.port,
            // The same keys the handlers send, so every spot of the file can export.
            spots: await spotKeys(credentials, spots),
            authRequestsPerSecond: upstream.authRequestsPerSecond,
            authRateLimitRetryAfter: upstream.authRateLimitRetryAfter,
            exportRequestsPerSecond: upstream.exportRequestsPerSecond ?? 0,
            exportRateLimitScope: upstream.exportRateLimitScope,
            ...upstream.comments,
            timeScale: settings.timeScale,
            // Kept beside the table, so a restart finds its in-flight exports still running upstream.
            ...(settings.dataDir !== undefined && {
              statePath: join(settings.dataDir, SIMULATOR_STATE_FILE),
            }),
            // In memory, a fresh id sequence per run: ids from an earlier run must never come back.
            seed: randomInt(1, MAX_SIMULATOR_SEED),
          }).catch((error: unknown) => {
            throw isAddressInUse(error)
              ? new LocalRuntimeInUseError([simulatorPortInUse(upstream.port)])
              : error;
          })
        : undefined;
    if (simulator !== undefined) closers.push(() => simulator.close());

    const documentClient = await openTable(settings.dataDir, closers);
    const observers = options.observers ?? {};
    observers.documentClient?.(documentClient);
    const environment = handlerEnvironment(options.env ?? {}, settings, simulator, spots);
    const config = loadConfig(environment);
    const logger = createLogger({ logLevel: settings.logLevel as ConstructorOptions['logLevel'] });
    const metrics = new InMemoryExportMetrics();
    const archiveStorage = settings.archive ? await openArchive(settings.dataDir, closers) : undefined;
    const events = new LocalExportEvents({
      say,
      ...(archiveStorage !== undefined && { archiveBucketName: archiveStorage.bucketName }),
    });

    const invocations = new LocalInvocations();
    const { invocation } = observers;
    const invoke =
      invocation === undefined
        ? invocations.invoke
        : (handler: HandlerName, event: unknown) =>
            invocation(handler, event, () => invocations.invoke(handler, event));
    let stopping = false;

    const foreground = new ForegroundActivity({ maxDeferMs: BACKGROUND_MAX_DEFER_MS });
    const workflows = new LocalPollingWorkflows({
      stateMachine,
      invoke,
      timeScale: settings.timeScale,
      // The handlers' settings are scaled (localDependencies) and what they learn is real time.
      inputWaitsOnRealClock: true,
      beforeWork: () => foreground.whenIdle(),
      onExecutionEnd: (name, outcome, error) => {
        if (outcome === 'failed') say(`workflow ${name} failed: ${describeError(error)}`);
      },
      ...(observers.workflowHistoryEvent !== undefined && { onHistoryEvent: observers.workflowHistoryEvent }),
    });
    // Once stopping, no new workflow starts: the export stays active and is resumed at the next start.
    const guardedWorkflows: PollingWorkflows = {
      start: (name, input) =>
        stopping ? Promise.reject(new LocalRuntimeStoppingError()) : workflows.start(name, input),
      stop: (name) => workflows.stop(name),
      isRunning: (name) => workflows.isRunning(name),
    };
    // Erasures run on the erasure workflow's own definition, as synthesized, like exports on theirs.
    const erasureWorkflows = new LocalPollingWorkflows({
      stateMachine: erasureStateMachine,
      invoke,
      timeScale: settings.timeScale,
      beforeWork: () => foreground.whenIdle(),
      onExecutionEnd: (name, outcome, error) => {
        if (outcome === 'failed') say(`erasure workflow ${name} failed: ${describeError(error)}`);
      },
      ...(observers.workflowHistoryEvent !== undefined && { onHistoryEvent: observers.workflowHistoryEvent }),
    });
    // Once stopping, no erasure starts: it stays RUNNING and is taken up at the next start.
    const guardedErasureWorkflows: ErasureWorkflows = {
      start: (name, input) =>
        stopping ? Promise.reject(new LocalRuntimeStoppingError()) : erasureWorkflows.start(name, input),
    };
    const { deps, archiving } = localDependencies({
      config,
      timeScale: settings.timeScale,
      documentClient,
      credentials,
      workflows: guardedWorkflows,
      erasureWorkflows: guardedErasureWorkflows,
      events,
      metrics,
      logger,
      archiveStorage,
    });
    invocations.handlers = localHandlers(handlerRuntimeFor(deps, { logger }), archiving);

    const schedules = new LocalSchedules({
      definitions: localScheduleDefinitions(settings.stackConfig, settings.timeScale),
      timeScale: settings.timeScale,
      invoke,
      onRun: (run) => reportScheduleRun(run, say),
    });
    const api = await startLocalHttpApi({
      port: settings.apiPort,
      routes: ROUTES,
      invoke,
      activity: foreground,
      localRoutes: localOnlyRoutes({
        schedules,
        events,
        metrics,
        openApiDocument: readFileSync(join(options.projectRoot ?? LOCAL_PROJECT_ROOT, OPENAPI_DOCUMENT_FILE)),
        about: {
          version: packageVersion(projectRoot),
          spots,
          projectRoot,
          startedAtMs: bootedAtMs,
          resumed: () => resumeDone,
        },
      }),
      logger,
    }).catch((error: unknown) => {
      throw isAddressInUse(error) ? new LocalRuntimeInUseError([apiPortInUse(settings.apiPort)]) : error;
    });
    closers.push(() => api.close());
    schedules.start();

    const resumed = invocations.track(
      resumeActiveExports(deps, bootedAtMs, archiving?.archive.archives).then(
        (summary) => {
          resumeDone = true;
          reportResume(summary, say);
          return summary;
        },
        (error: unknown) => {
          say(`could not resume the active exports: ${describeError(error)}`);
          return undefined;
        },
      ),
    );

    // An erasure a stopped or dead runtime left RUNNING goes on where it was.
    const erasureStore = archiving?.erasure?.erasures;
    if (erasureStore !== undefined)
      void invocations.track(
        resumeRunningErasures(erasureStore, guardedErasureWorkflows).then(
          (count) => {
            if (count > 0) say(`resuming ${count} erasure(s)`);
          },
          (error: unknown) => say(`could not resume the running erasures: ${describeError(error)}`),
        ),
      );

    let stopped: Promise<void> | undefined;
    const stop = () => {
      stopped ??= (async () => {
        stopping = true;
        api.stopAccepting();
        await schedules.stop();
        await workflows.stopAll();
        await erasureWorkflows.stopAll();
        await invocations.settle(STOP_INVOCATIONS_GRACE_MS);
        await closeInReverse(closers);
      })();
      return stopped;
    };

    return {
      apiUrl: api.url,
      ...(simulator !== undefined && { simulatorUrl: simulator.url }),
      ...(settings.dataDir !== undefined && { dataDir: settings.dataDir }),
      spots,
      schedules: schedules.list(),
      stateMachineFromCache: fromCache,
      resumed,
      stop,
    };
  } catch (error) {
    await closeInReverse(closers);
    throw error;
  }
}

/** The package's version, or `unknown` when package.json cannot be read. */
function packageVersion(projectRoot: string): string {
  try {
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
