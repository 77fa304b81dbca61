import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import type { ArchiveDependencies } from '../../../lib/archive/archiveExport';
import { PATH_TABLE_PARTITIONS } from '../../../lib/archive/pathTablePartitions';
import { EventBridgeExportEvents } from '../../../lib/events/EventBridgeExportEvents';
import type { ExportDependencies } from '../../../lib/exports/ExportDependencies';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import type { ExportSettings } from '../../../lib/exports/record/ExportSettings';
import type { PollingWorkflows } from '../../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../../lib/exports/workflow/workflowContract';
import type { HandlerName } from '../../../lib/http/routeTable';
import type { OpenWebClientOptions } from '../../../lib/openweb/OpenWebClient';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { DynamoDbSuppressionList } from '../../../lib/store/DynamoDbSuppressionList';
import { upstreamTokenKey } from '../../../lib/store/tableKeys';
import { StepFunctionsPollingWorkflows } from '../../../lib/workflow/StepFunctionsPollingWorkflows';
import { type LocalArchiving, type LocalHandlers, localHandlers } from '../../../local/localHandlers';
import { type LocalS3, startLocalS3 } from '../../../local/localS3';
import { DEMO_SPOTS, type OpenWebSimulatorOptions } from '../../../local/openweb-simulator/index';
import { createSeededRandom, deriveSeed } from '../../../local/openweb-simulator/seededRandom';
import { lambdaContext, silentLogger } from '../../support/apiGatewayEvents';
import { testArchiveSettings } from '../../support/archiveHarness';
import { auditedStore, StoreAudit } from '../../support/auditedStore';
import { type ExportHarness, ManualClock, startExportHarness } from '../../support/exportHarness';
import type { AwsFaultInjector } from './AwsFaultInjector';
import {
  EventBusStandIn,
  SUITE_EVENT_BUS_NAME,
  SUITE_STATE_MACHINE_ARN,
  stepFunctionsStandIn,
  withoutRetryDelays,
} from './awsStandIns';
import { ScenarioRuntime } from './ScenarioRuntime';
import { readsFirst, timePassingOnReads } from './storeViews';

/** The spots every scenario may use: both demo spots, so per-spot rules meet a neighbour. */
export const SCENARIO_SPOTS = Object.keys(DEMO_SPOTS);

/** The deployed client's retry policy (see lib/config.ts), so faults meet the real retries. */
export const SCENARIO_RETRY_POLICY = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  totalBudgetMs: 2_000,
} as const;
/** Short enough that an injected latency beyond it costs little real time, long enough for a busy box. */
export const SCENARIO_REQUEST_TIMEOUT_MS = 2_000;
const LIST_PAGE_SIZE = 100;
/**
 * Manual clock only: every read of an export record lets this much simulated time pass. A
 * start waiting on a concurrent claim polls the record with real timers, and would wait
 * forever on a clock nobody moves; counted per read, the wait stays repeatable.
 */
export const SIMULATED_MS_PER_RECORD_READ = 2_500;

/** A token an upstream client received, by spot, with the expiry it read from it. */
export interface ReceivedToken {
  spotId: string;
  expiresAtMs: number;
}

/** How a scenario's polling workflows run. */
export type ScenarioWorkflows =
  /** Recorded, and polled by the scenario itself through the real check-status handler (manual clock). */
  | { kind: 'stepped' }
  /** The synthesized state machine on the local runner, in real time with scaled waits. */
  | { kind: 'local'; stateMachine: ExtractedStateMachine; timeScale: number };

export interface FaultScenarioOptions {
  seed: number;
  settings?: Partial<ExportSettings>;
  simulator?: OpenWebSimulatorOptions;
  client?: Partial<OpenWebClientOptions>;
  workflows?: ScenarioWorkflows;
  /**
   * AWS refusing calls: the containers then reach the table, Step Functions and EventBridge
   * through the system's own adapters and the SDK (its retries included), and the injector
   * refuses a share of what they send while the system runs (never the suite's own reads).
   */
  aws?: AwsFaultInjector;
  /**
   * The archive on the S3 stand-in: the archive task's handler gets its dependencies (raw files
   * only, no Parquet), and, with `aws`, its S3 calls meet the faults too.
   */
  archiving?: boolean;
}

/** One container: the use cases' dependencies and the deployed handlers around them. */
export interface ScenarioContainer {
  deps: ExportDependencies;
  handlers: LocalHandlers;
  invoke(handler: HandlerName, event: unknown): Promise<unknown>;
}

/**
 * The whole system for one scenario: dynalite, the simulator over HTTP, the real use cases
 * and handlers, an audited store shared by every container, and a workflow runner that a
 * restart can drop. With the stepped runner the clock is manual and the client's retry
 * sleeps advance it, so retries cost no real time and runs repeat.
 */
export class FaultScenario {
  readonly seed: number;
  readonly harness: ExportHarness;
  readonly audit = new StoreAudit();
  /** Faults the scenario itself caused (crashes, duplicate deliveries, restarts…), by kind. */
  readonly processFaults = new Map<string, number>();
  /** Token expiries the scenario forced, by spot; each allows one more auth call. */
  readonly forcedTokenExpiries = new Map<string, number>();
  /** Problems seen while driving the exports to their end (checked beside the invariants). */
  readonly observedViolations: string[] = [];
  /** Where the scenario's processes died: the I/O call, and whether before or after it. */
  readonly crashes: { step: string; placement: string }[] = [];
  /** Known, documented departures from an invariant that block nothing (listed in the summary). */
  readonly toleratedFindings: string[] = [];
  /** Every token an upstream client of the scenario received from the auth endpoint. */
  readonly tokensReceived: readonly ReceivedToken[];
  /** The AWS-side faults, when the scenario has them. */
  readonly aws: AwsFaultInjector | undefined;
  /** The bus the system's events reach when the scenario has AWS-side faults. */
  readonly eventBus: EventBusStandIn | undefined;
  /** The archive bucket's stand-in, when the scenario archives. */
  readonly archiveStorage: LocalS3 | undefined;
  readonly #options: FaultScenarioOptions;
  #runtime: ScenarioRuntime;

  private constructor(
    options: FaultScenarioOptions,
    harness: ExportHarness,
    tokensReceived: readonly ReceivedToken[],
    archiveStorage: LocalS3 | undefined,
  ) {
    this.seed = options.seed;
    this.archiveStorage = archiveStorage;
    this.tokensReceived = tokensReceived;
    this.#options = options;
    this.harness = harness;
    this.aws = options.aws;
    if (options.aws !== undefined) {
      const aws = options.aws;
      aws.attach(harness.table.documentClient, 'DynamoDB');
      withoutRetryDelays(harness.table.documentClient);
      this.eventBus = new EventBusStandIn(() => aws.refusalNow('EventBridge', 'PutEventsEntry'));
      aws.attach(this.eventBus.client, 'EventBridge');
      withoutRetryDelays(this.eventBus.client);
      if (archiveStorage !== undefined) {
        aws.attach(archiveStorage.client, 'S3');
        withoutRetryDelays(archiveStorage.client);
      }
    }
    this.#runtime = this.#newRuntime();
  }

  static async start(options: FaultScenarioOptions): Promise<FaultScenario> {
    const realTime = options.workflows?.kind === 'local';
    const clock = new ManualClock();
    const tokensReceived: ReceivedToken[] = [];
    const harness = await startExportHarness({
      clock,
      realTime,
      ...(options.settings !== undefined && { settings: options.settings }),
      simulator: { seed: options.seed, ...options.simulator },
      client: {
        retry: SCENARIO_RETRY_POLICY,
        requestTimeoutMs: SCENARIO_REQUEST_TIMEOUT_MS,
        random: createSeededRandom(deriveSeed(options.seed, 'client:jitter')),
        onEvent: (event) => {
          if (event.type === 'authenticated')
            tokensReceived.push({ spotId: event.spotId, expiresAtMs: event.expiresAt });
        },
        // Retry backoff, token waits and timed-out requests pass on the scenario's clock too,
        // so the retry budget sees the time they took.
        ...(!realTime && {
          sleep: async (ms: number) => {
            clock.advance(ms);
            await yieldToEventLoop();
          },
          fetch: async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
            try {
              return await fetch(input, init);
            } catch (error) {
              if (init?.signal?.aborted)
                clock.advance(options.client?.requestTimeoutMs ?? SCENARIO_REQUEST_TIMEOUT_MS);
              throw error;
            }
          },
        }),
        ...options.client,
      },
    });
    const archiveStorage = options.archiving === true ? await startLocalS3() : undefined;
    return new FaultScenario(options, harness, tokensReceived, archiveStorage);
  }

  get realTime(): boolean {
    return this.#options.workflows?.kind === 'local';
  }

  get clock(): ManualClock {
    return this.harness.clock;
  }

  get settings(): ExportSettings {
    return this.harness.deps.settings;
  }

  /** The current runtime's workflow runner. */
  get workflows(): PollingWorkflows {
    return this.#runtime.workflows;
  }

  /** Executions of the current runtime that have not ended. */
  get runningExecutions(): ReadonlyMap<string, PollingWorkflowInput> {
    return this.#runtime.running;
  }

  /** The current runtime's first container. */
  get main(): ScenarioContainer {
    return this.#runtime.main;
  }

  /** Another container of the current runtime: own upstream client and token cache. */
  container(): ScenarioContainer {
    return this.#container(this.#runtime.workflows);
  }

  /** A container with other settings, e.g. a reconciler that treats everything as stale. */
  containerWith(settings: Partial<ExportSettings>): ScenarioContainer {
    const container = this.#container(this.#runtime.workflows);
    const deps = { ...container.deps, settings: { ...container.deps.settings, ...settings } };
    return this.#wrap(deps);
  }

  /**
   * A container in a process of its own, which read `earlier` before another process wrote:
   * its first read of that export answers the earlier copy. In one Node process concurrent
   * checks of an export share one call, so this is how two Lambda containers racing look here.
   */
  containerThatRead(earlier: ExportRecord): ScenarioContainer {
    const container = this.#container(this.#runtime.workflows);
    return this.#wrap({ ...container.deps, store: readsFirst(container.deps.store, earlier) });
  }

  countFault(kind: string, times = 1): void {
    this.processFaults.set(kind, (this.processFaults.get(kind) ?? 0) + times);
  }

  /**
   * A new runtime on the same table and upstream: every container and its token cache
   * gone, every workflow of the old runtime dropped, as after a deploy or a host restart.
   */
  async restartRuntime(): Promise<void> {
    this.countFault('runtimeRestart');
    const old = this.#runtime;
    this.#runtime = this.#newRuntime();
    await old.dropWorkflows();
  }

  /** Forgets the spot's shared upstream token everywhere, as if the upstream had revoked it. */
  async forceTokenExpiry(spotId: string): Promise<void> {
    this.forcedTokenExpiries.set(spotId, (this.forcedTokenExpiries.get(spotId) ?? 0) + 1);
    this.countFault('forcedTokenExpiry');
    await this.harness.table.documentClient.send(
      new DeleteCommand({ TableName: this.harness.table.tableName, Key: upstreamTokenKey(spotId) }),
    );
    await this.restartRuntime();
  }

  /** Every export record of every scenario spot, read from the table. */
  async records(): Promise<ExportRecord[]> {
    const records: ExportRecord[] = [];
    for (const spotId of SCENARIO_SPOTS) {
      let nextToken: string | undefined;
      do {
        const page = await this.harness.store.listExports(spotId, {
          limit: LIST_PAGE_SIZE,
          ...(nextToken !== undefined && { nextToken }),
        });
        records.push(...page.items);
        nextToken = page.nextToken;
      } while (nextToken !== undefined);
    }
    // Ids end in random characters: order by what the scenario controls, so picks repeat.
    return records.sort((a, b) => orderKey(a).localeCompare(orderKey(b)));
  }

  /** Waits (bounded) until the current runtime's local executions have ended; true if they did. */
  async waitForWorkflows(timeoutMs: number): Promise<boolean> {
    return this.#runtime.waitForWorkflows(timeoutMs);
  }

  async close(): Promise<void> {
    await this.#runtime.dropWorkflows();
    await this.harness.close();
    await this.archiveStorage?.close();
  }

  #newRuntime(): ScenarioRuntime {
    const workflows = this.#options.workflows ?? { kind: 'stepped' };
    return new ScenarioRuntime(workflows, (runner) => this.#container(runner));
  }

  #container(workflows: PollingWorkflows): ScenarioContainer {
    const store = auditedStore(this.harness.store, this.audit);
    return this.#wrap({
      ...this.harness.newContainer(),
      store: this.realTime ? store : timePassingOnReads(store, this.clock, SIMULATED_MS_PER_RECORD_READ),
      workflows,
      ...this.#awsAdapters(workflows),
    });
  }

  /** With AWS-side faults: the Step Functions and EventBridge adapters, on stand-in services. */
  #awsAdapters(workflows: PollingWorkflows): Partial<ExportDependencies> {
    if (this.aws === undefined || this.eventBus === undefined) return {};
    const stepFunctions = stepFunctionsStandIn(() => workflows);
    this.aws.attach(stepFunctions, 'SFN');
    withoutRetryDelays(stepFunctions);
    return {
      workflows: new StepFunctionsPollingWorkflows({
        client: stepFunctions,
        stateMachineArn: SUITE_STATE_MACHINE_ARN,
      }),
      events: new EventBridgeExportEvents({
        client: this.eventBus.client,
        eventBusName: SUITE_EVENT_BUS_NAME,
      }),
    };
  }

  /** The archive task's and `/files`' dependencies, on the container's own. */
  #archiving(deps: ExportDependencies): LocalArchiving | undefined {
    const storage = this.archiveStorage;
    if (storage === undefined) return undefined;
    const { documentClient, tableName } = this.harness.table;
    const archiveSettings = testArchiveSettings(this.harness.simulator.exportBaseUrl, { writeTable: false });
    const suppressions = new DynamoDbSuppressionList({ client: documentClient, tableName });
    const archive: ArchiveDependencies = {
      store: deps.store,
      archives: new DynamoDbArchiveRecords({ client: documentClient, tableName }),
      archiveWriter: new S3ArchiveWriter({ client: storage.client, bucketName: storage.bucketName }),
      suppressions,
      partitions: PATH_TABLE_PARTITIONS,
      archiveEvents:
        deps.events instanceof EventBridgeExportEvents ? deps.events : { publishArchived: async () => {} },
      coverage: deps.coverage,
      events: deps.events,
      metrics: deps.metrics,
      settings: deps.settings,
      archiveSettings,
      now: deps.now,
    };
    const files = {
      store: deps.store,
      archiveReader: storage.archiveReader(),
      archiveSettings,
      now: deps.now,
    };
    const erasure = {
      erasures: new DynamoDbErasureStore({ client: documentClient, tableName }),
      suppressions,
      // The suite runs each erasure itself (erasureSteps.ts): no workflow is started.
      erasureWorkflows: { start: async () => {} },
      now: deps.now,
    };
    return { archive, files, erasure };
  }

  #wrap(deps: ExportDependencies): ScenarioContainer {
    const handlers = localHandlers(
      handlerRuntimeFor(deps, { logger: silentLogger() }),
      this.#archiving(deps),
    );
    const aws = this.aws;
    const invoke = (handler: HandlerName, event: unknown) =>
      handlers[handler](event, lambdaContext()) as Promise<unknown>;
    return {
      deps,
      handlers,
      // A handler's AWS calls are the system's: they meet the AWS-side faults.
      invoke: aws === undefined ? invoke : (handler, event) => aws.within(() => invoke(handler, event)),
    };
  }
}

function orderKey(record: ExportRecord): string {
  const { requestedAt, spotId, source, idempotencyKey = '', request } = record;
  return [requestedAt, spotId, source, idempotencyKey, JSON.stringify(request)].join('|');
}
