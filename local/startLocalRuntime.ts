import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { StackConfig } from '../infra/stackConfig';
import { loadConfig } from '../lib/config';
import type { ExportSettings } from '../lib/exports/ExportSettings';
import type { PollingWorkflows } from '../lib/exports/ports';
import type { ReconcileSummary } from '../lib/exports/reconcileExports';
import { type HandlerName, ROUTES } from '../lib/http/routeTable';
import { createLogger } from '../lib/observability/createLogger';
import { InMemoryExportMetrics } from '../lib/observability/InMemoryExportMetrics';
import { AWS_CONNECTION_TIMEOUT_MS, AWS_REQUEST_TIMEOUT_MS } from '../lib/runtime/AwsClients';
import { createArchiveDependencies } from '../lib/runtime/archiveDependencies';
import { buildExportDependencies } from '../lib/runtime/buildExportDependencies';
import { handlerRuntimeFor } from '../lib/runtime/HandlerRuntime';
import { dynamoDbExportStore } from '../lib/runtime/ports/dynamoDbExportStore';
import { openWebUpstream } from '../lib/runtime/ports/openWebUpstream';
import { FileCredentialsProvider } from '../lib/secrets/FileCredentialsProvider';
import { toDocumentClient } from '../lib/store/createDocumentClient';
import { OPENAPI_DOCUMENT_FILE } from '../openapi/documentFile';
import { loadStateMachine } from './cachedStateMachine';
import {
  LocalRuntimeConfigError,
  LocalRuntimeError,
  LocalRuntimeInUseError,
  LocalRuntimeStoppingError,
} from './errors';
import { ForegroundActivity } from './ForegroundActivity';
import { LOCAL_API_HOST, startLocalHttpApi } from './http/LocalHttpApi';
import { isAddressInUse, isPortInUse, lockDataDir } from './instanceGuard';
import { LocalExportEvents } from './LocalExportEvents';
import { LocalPollingWorkflows } from './LocalPollingWorkflows';
import { ensureTable, startLocalDynamoDb } from './localDynamoDb';
import { invokeLocalHandler, type LocalHandlers, localHandlers } from './localHandlers';
import { localOnlyRoutes } from './localOnlyRoutes';
import type { LocalRuntimeSettings } from './localRuntimeSettings';
import { type LocalS3, startLocalS3 } from './localS3';
import { startOpenWebSimulator } from './openweb-simulator';
import { LOCAL_PROJECT_ROOT } from './projectRoot';
import { resumeActiveExports } from './resumeActiveExports';
import { LocalSchedules, type ScheduleRun, type ScheduleView } from './schedules/LocalSchedules';
import { localScheduleDefinitions, RECONCILER_SCHEDULE_NAME } from './schedules/localScheduleDefinitions';

/** The table's name on this machine. */
export const LOCAL_TABLE_NAME = 'openweb-exports';
/**
 * The longest a workflow task waits for the API requests in flight to be answered first: one
 * process plays API Gateway, Lambda and Step Functions here, and a task may not starve.
 */
const BACKGROUND_MAX_DEFER_MS = 1_000;
/** How long stop() lets handler invocations in progress finish before closing the table under them. */
export const STOP_INVOCATIONS_GRACE_MS = 10_000;
/** However small the time scale, an export gets at least this long before its deadline. */
export const MIN_SCALED_EXPORT_DEADLINE_SECONDS = 1;
const MAX_SIMULATOR_SEED = 2 ** 31 - 1;
/** The simulator's exports and secrets, in the data dir. */
export const SIMULATOR_STATE_FILE = 'openweb-simulator.json';
/** The table lives in this folder of the data dir. */
const DYNAMODB_DATA_FOLDER = 'dynamodb';
/** The archive's objects, in the S3 stand-in's layout (bucket folder, then keys). */
const S3_DATA_FOLDER = 's3';

export interface LocalRuntimeOptions {
  settings: LocalRuntimeSettings;
  /** Further variables the handlers' configuration reads (UPSTREAM_*, IDEMPOTENCY_TTL_SECONDS). */
  env?: NodeJS.ProcessEnv;
  projectRoot?: string;
  /** Where the runtime's own human-readable lines go. */
  say?: (line: string) => void;
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
  const closers: (() => Promise<void>)[] = [];
  try {
    // Before anything slow or anything that touches the data folder: a second `npm start` stops here.
    await claimPortsAndDataDir(settings, closers);
    const { stateMachine, fromCache } = await loadStateMachine(settings.rawStackConfig, {
      projectRoot,
      onSynthesize: () =>
        say('Synthesizing the stack for its state machine definition (once per change of infra/ or lib/)…'),
    });
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
            ...(upstream.recordsPerExport !== undefined && { recordsPerExport: upstream.recordsPerExport }),
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
    const config = loadConfig(handlerEnvironment(options.env ?? {}, settings, simulator));
    const logger = createLogger({ logLevel: settings.logLevel as ConstructorOptions['logLevel'] });
    const metrics = new InMemoryExportMetrics();
    const archiveStorage = settings.archive ? await openArchive(settings.dataDir, closers) : undefined;
    const events = new LocalExportEvents({
      say,
      ...(archiveStorage !== undefined && { archiveBucketName: archiveStorage.bucketName }),
    });

    // Handlers need the workflows (through their dependencies) and the workflows call the handlers.
    let handlers: LocalHandlers | undefined;
    let stopping = false;
    const inProgress = new Set<Promise<unknown>>();
    const track = <T>(work: Promise<T>): Promise<T> => {
      inProgress.add(work);
      const done = () => inProgress.delete(work);
      work.then(done, done);
      return work;
    };
    const invoke = (handler: HandlerName, event: unknown): Promise<unknown> => {
      if (handlers === undefined)
        return Promise.reject(new LocalRuntimeError('The handlers are not built yet'));
      return track(invokeLocalHandler(handlers, handler, event));
    };

    const foreground = new ForegroundActivity({ maxDeferMs: BACKGROUND_MAX_DEFER_MS });
    const workflows = new LocalPollingWorkflows({
      stateMachine,
      invoke,
      timeScale: settings.timeScale,
      beforeWork: () => foreground.whenIdle(),
      onExecutionEnd: (name, outcome, error) => {
        if (outcome === 'failed') say(`workflow ${name} failed: ${describeError(error)}`);
      },
    });
    // Once stopping, no new workflow starts: the export stays active and is resumed at the next start.
    const guardedWorkflows: PollingWorkflows = {
      start: (name, input) =>
        stopping ? Promise.reject(new LocalRuntimeStoppingError()) : workflows.start(name, input),
      stop: (name) => workflows.stop(name),
      isRunning: (name) => workflows.isRunning(name),
    };
    // The deployed wiring, with this machine's table, credentials file, workflows and announcements.
    const deps = buildExportDependencies(
      config,
      {
        store: dynamoDbExportStore,
        credentials: () => credentials,
        upstream: openWebUpstream,
        workflows: () => guardedWorkflows,
        events: () => events,
      },
      {
        clients: { documentClient },
        metrics,
        logger,
        settings: scaledExportSettings(config.exports, settings.timeScale),
      },
    );
    const archive =
      archiveStorage === undefined
        ? undefined
        : createArchiveDependencies(
            loadConfig({
              ...handlerEnvironment(options.env ?? {}, settings, simulator),
              ARCHIVE_BUCKET_NAME: archiveStorage.bucketName,
            }),
            { clients: { documentClient, s3: archiveStorage.client }, events },
          );
    handlers = localHandlers(handlerRuntimeFor(deps, { logger }), archive);

    const schedules = new LocalSchedules({
      definitions: localScheduleDefinitions(settings.stackConfig),
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

    const resumed = track(
      resumeActiveExports(deps, bootedAtMs).then(
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

    let stopped: Promise<void> | undefined;
    const stop = () => {
      stopped ??= (async () => {
        stopping = true;
        api.stopAccepting();
        await schedules.stop();
        await workflows.stopAll();
        await settleWithin([...inProgress], STOP_INVOCATIONS_GRACE_MS);
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

function apiPortInUse(port: number): string {
  return `port ${port} is in use — set PORT to a free port (PORT=0 picks one)`;
}

function simulatorPortInUse(port: number): string {
  return `port ${port} (the OpenWeb simulator) is in use — set SIMULATOR_PORT to a free port (0 picks one)`;
}

/**
 * Takes the data folder (released last, on stop) and checks the ports are free; one line per
 * conflict, naming the setting to change. Nothing of another runtime is touched.
 * @throws LocalRuntimeInUseError
 */
async function claimPortsAndDataDir(
  settings: LocalRuntimeSettings,
  closers: (() => Promise<void>)[],
): Promise<void> {
  const problems: string[] = [];
  if (settings.dataDir !== undefined) {
    const lock = lockDataDir(settings.dataDir);
    if (lock.kind === 'acquired') closers.push(async () => lock.release());
    else {
      problems.push(
        `the data folder ${settings.dataDir} is in use by another npm start (pid ${lock.pid}) — ` +
          'set LOCAL_DATA_DIR to another folder (or to memory)',
      );
    }
  }
  if (await isPortInUse(settings.apiPort, LOCAL_API_HOST)) problems.push(apiPortInUse(settings.apiPort));
  const { upstream } = settings;
  if (upstream.kind === 'simulator' && (await isPortInUse(upstream.port, LOCAL_API_HOST))) {
    problems.push(simulatorPortInUse(upstream.port));
  }
  if (problems.length > 0) throw new LocalRuntimeInUseError(problems);
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

/** dynalite (persisted under the data dir, or in memory) with the table from the shared definition. */
async function openTable(dataDir: string | undefined, closers: (() => Promise<void>)[]) {
  const path = dataDir === undefined ? undefined : join(dataDir, DYNAMODB_DATA_FOLDER);
  if (path !== undefined) mkdirSync(path, { recursive: true });
  const database = await startLocalDynamoDb(path === undefined ? {} : { path });
  closers.push(() => database.close());
  const client = new DynamoDBClient({
    endpoint: database.endpoint,
    region: 'local',
    // dynalite checks that requests are signed, not by whom.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: { requestTimeout: AWS_REQUEST_TIMEOUT_MS, connectionTimeout: AWS_CONNECTION_TIMEOUT_MS },
  });
  closers.push(async () => client.destroy());
  try {
    await ensureTable(client, LOCAL_TABLE_NAME);
  } catch (error) {
    throw new LocalRuntimeError(
      `Could not open the table${path === undefined ? '' : ` in ${path}`} (${describeError(error)}). ` +
        'Is another local runtime using the same LOCAL_DATA_DIR?',
      { cause: error },
    );
  }
  return toDocumentClient(client);
}

/** The archive bucket in the S3 stand-in, its objects beside the table (or in a temporary folder). */
async function openArchive(dataDir: string | undefined, closers: (() => Promise<void>)[]): Promise<LocalS3> {
  const s3 = await startLocalS3(dataDir === undefined ? {} : { directory: join(dataDir, S3_DATA_FOLDER) });
  closers.push(() => s3.close());
  return s3;
}

/** The environment the stack gives the functions, with this machine's upstream, credentials and table. */
function handlerEnvironment(
  env: NodeJS.ProcessEnv,
  settings: LocalRuntimeSettings,
  simulator: { authBaseUrl: string; exportBaseUrl: string } | undefined,
): NodeJS.ProcessEnv {
  const { polling } = settings.stackConfig;
  const upstream = simulator ?? (settings.upstream.kind === 'openweb' ? settings.upstream : undefined);
  return {
    ...env,
    EXPORT_DEADLINE_SECONDS: String(polling.exportDeadlineSeconds),
    DEFAULT_FIRST_POLL_DELAY_SECONDS: String(polling.defaultFirstPollDelaySeconds),
    STATUS_FRESHNESS_SECONDS: String(polling.statusFreshnessSeconds),
    RECONCILE_STALE_AFTER_SECONDS: String(polling.reconcileStaleAfterSeconds),
    UPSTREAM_AUTH_REQUESTS_PER_SECOND:
      env.UPSTREAM_AUTH_REQUESTS_PER_SECOND ?? String(settings.stackConfig.upstreamAuthRequestsPerSecond),
    OPENWEB_AUTH_BASE_URL: upstream?.authBaseUrl,
    OPENWEB_EXPORT_BASE_URL: upstream?.exportBaseUrl,
    LOCAL_SECRETS_FILE: settings.secretsFile,
    TABLE_NAME: LOCAL_TABLE_NAME,
  };
}

/**
 * The deadline is compared with the simulator's scaled durations and bounds the scaled
 * workflow (whose timeout and poll budget shrink with the time scale), so it shrinks too.
 * Leases, claims and freshness guard real I/O and stay as configured.
 */
export function scaledExportSettings(exports: ExportSettings, timeScale: number): ExportSettings {
  return {
    ...exports,
    exportDeadlineSeconds: Math.max(
      MIN_SCALED_EXPORT_DEADLINE_SECONDS,
      exports.exportDeadlineSeconds * timeScale,
    ),
  };
}

async function spotsWithCredentials(credentials: FileCredentialsProvider, path: string): Promise<string[]> {
  try {
    return await credentials.spotIds();
  } catch (error) {
    throw new LocalRuntimeConfigError([`LOCAL_SECRETS_FILE ${path}: ${describeError(error)}`]);
  }
}

async function spotKeys(
  credentials: FileCredentialsProvider,
  spots: readonly string[],
): Promise<Record<string, { apiKey: string }>> {
  const entries = await Promise.all(
    spots.map(
      async (spotId) => [spotId, { apiKey: (await credentials.getCredentials(spotId)).apiKey }] as const,
    ),
  );
  return Object.fromEntries(entries);
}

function warnAboutScheduledSpotsWithoutCredentials(
  config: StackConfig,
  spots: readonly string[],
  say: (line: string) => void,
): void {
  for (const spot of config.spots) {
    if (spot.schedules.length > 0 && !spots.includes(spot.spotId)) {
      say(`warning: ${spot.spotId} has schedules but no key in LOCAL_SECRETS_FILE; its runs will fail`);
    }
  }
}

function reportScheduleRun(run: ScheduleRun, say: (line: string) => void): void {
  const prefix = `schedule ${run.schedule}${run.manual ? ' (fired by hand)' : ''}`;
  if (run.outcome === 'failed') {
    say(`${prefix} failed: ${run.error}`);
    return;
  }
  if (run.schedule === RECONCILER_SCHEDULE_NAME) {
    // Runs every few seconds: only news is printed.
    const summary = run.result as ReconcileSummary | undefined;
    if (summary !== undefined && summary.examined > 0) {
      say(
        `${prefix}: ${summary.examined} examined, ${summary.finished} finished, ` +
          `${summary.workflowsRestarted} workflow(s) restarted, ${summary.failures} failed`,
      );
    }
    return;
  }
  if (run.outcome === 'skipped') {
    const skipped = run.result as { spotId?: string; activeExportId?: string } | undefined;
    say(
      `${prefix}: skipped, spot ${skipped?.spotId} busy with export ${skipped?.activeExportId ?? 'unknown'} ` +
        `(window ending ${run.scheduledTime}; a deployed schedule skips it the same way)`,
    );
    return;
  }
  const started = run.result as { exportId?: string; status?: string } | undefined;
  say(`${prefix}: export ${started?.exportId} ${started?.status} (window ending ${run.scheduledTime})`);
}

function reportResume(summary: ReconcileSummary, say: (line: string) => void): void {
  if (summary.examined === 0) return;
  say(
    `resumed ${summary.examined} active export(s): ${summary.finished} reached a final state, ` +
      `${summary.workflowsRestarted} workflow(s) restarted, ${summary.failures} could not be reconciled`,
  );
}

async function settleWithin(work: readonly Promise<unknown>[], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled(work), timeout]);
  clearTimeout(timer);
}

async function closeInReverse(closers: (() => Promise<void>)[]): Promise<void> {
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch {
      // Closing the rest matters more than one part that failed to close.
    }
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
