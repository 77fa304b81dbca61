import type { BackfillStore } from '../../lib/exports/backfill/BackfillStore';
import type { CoverageLedger, CoverageWindow } from '../../lib/exports/coverage/CoverageLedger';
import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import type { SpotLocks } from '../../lib/exports/queue/SpotLock';
import type { ExportRecord } from '../../lib/exports/record/ExportRecord';
import type { ExportSettings } from '../../lib/exports/record/ExportSettings';
import { DEFAULT_EXPORT_SETTINGS } from '../../lib/exports/record/ExportSettings';
import type { ExportStore } from '../../lib/exports/record/ExportStore';
import type { IdempotencyKeys } from '../../lib/exports/record/IdempotencyRecord';
import type { ExportMetricName } from '../../lib/exports/record/ports';
import type { CredentialsProvider } from '../../lib/exports/upstream/CredentialsProvider';
import { CredentialsNotFoundError } from '../../lib/exports/upstream/errors';
import type { PollingWorkflows } from '../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../lib/exports/workflow/workflowContract';
import { OpenWebClient, type OpenWebClientOptions } from '../../lib/openweb/OpenWebClient';
import { DynamoDbBackfillStore } from '../../lib/store/DynamoDbBackfillStore';
import { DynamoDbCoverageLedger } from '../../lib/store/DynamoDbCoverageLedger';
import { DynamoDbExportStore } from '../../lib/store/DynamoDbExportStore';
import { DynamoDbIdempotencyKeys } from '../../lib/store/DynamoDbIdempotencyKeys';
import { DynamoDbSpotLocks } from '../../lib/store/DynamoDbSpotLocks';
import { DynamoDbTokenStore } from '../../lib/store/DynamoDbTokenStore';
import {
  DEMO_SPOTS,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';
import { type DynaliteTable, startDynaliteTable } from './dynalite';

/** A clock tests move by hand; shared by the simulator, the client and the use cases. */
export class ManualClock {
  #nowMs: number;

  constructor(startMs = Date.parse('2026-11-01T00:00:00Z')) {
    this.#nowMs = startMs;
  }

  readonly now = (): number => this.#nowMs;

  advance(ms: number): void {
    this.#nowMs += ms;
  }
}

/** Records what the use cases asked of the workflow runner. */
export class RecordingWorkflows implements PollingWorkflows {
  readonly started = new Map<string, PollingWorkflowInput>();
  readonly stopped: string[] = [];
  readonly running = new Set<string>();

  async start(executionName: string, input: PollingWorkflowInput): Promise<void> {
    if (!this.started.has(executionName)) this.started.set(executionName, input);
    this.running.add(executionName);
  }

  async stop(executionName: string): Promise<void> {
    this.stopped.push(executionName);
    this.running.delete(executionName);
  }

  async isRunning(executionName: string): Promise<boolean> {
    return this.running.has(executionName);
  }
}

export class DemoCredentials implements CredentialsProvider {
  async getCredentials(spotId: string) {
    const spot = DEMO_SPOTS[spotId];
    if (spot === undefined) throw new CredentialsNotFoundError(spotId, 'demo spots');
    return { spotId, apiKey: spot.apiKey };
  }
}

export interface ExportHarness {
  deps: ExportDependencies;
  clock: ManualClock;
  simulator: OpenWebSimulator;
  table: DynaliteTable;
  store: ExportStore;
  coverage: CoverageLedger;
  backfills: BackfillStore;
  /** Every `Coverage Gap` announced. */
  gaps: CoverageWindow[];
  spotLocks: SpotLocks;
  idempotencyKeys: IdempotencyKeys;
  workflows: RecordingWorkflows;
  published: ExportRecord[];
  metrics: ExportMetricName[];
  /** Another container's dependencies: own client and token cache, same table and upstream. */
  newContainer(): ExportDependencies;
  close(): Promise<void>;
}

export interface ExportHarnessOptions {
  settings?: Partial<ExportSettings>;
  simulator?: OpenWebSimulatorOptions;
  /** Default: a manual clock. `realTime`: the wall clock, for runs where time must pass by itself. */
  realTime?: boolean;
  /** Replaces the recording fake, e.g. with the local workflow runner. */
  workflows?: PollingWorkflows;
  /** A clock made by the caller (e.g. one the client's retry sleeps advance); default a new one. */
  clock?: ManualClock;
  /** Overrides of the upstream client's options (retry policy, timeouts, sleep). */
  client?: Partial<OpenWebClientOptions>;
}

/** The use cases wired to dynalite and the simulator over real HTTP, with a manual clock. */
export async function startExportHarness(options: ExportHarnessOptions = {}): Promise<ExportHarness> {
  const clock = options.clock ?? new ManualClock();
  const now = options.realTime ? Date.now : clock.now;
  const simulator = await startOpenWebSimulator({
    now,
    authRequestsPerSecond: 0,
    ...options.simulator,
  });
  const table = await startDynaliteTable();
  const workflows = new RecordingWorkflows();
  const published: ExportRecord[] = [];
  const metrics: ExportMetricName[] = [];
  const store = new DynamoDbExportStore({ client: table.documentClient, tableName: table.tableName });
  const spotLocks = new DynamoDbSpotLocks({ client: table.documentClient, tableName: table.tableName, now });
  const coverage = new DynamoDbCoverageLedger({ client: table.documentClient, tableName: table.tableName });
  const backfills = new DynamoDbBackfillStore({ client: table.documentClient, tableName: table.tableName });
  const gaps: CoverageWindow[] = [];
  const idempotencyKeys = new DynamoDbIdempotencyKeys({
    client: table.documentClient,
    tableName: table.tableName,
    now,
  });
  const settings = { ...DEFAULT_EXPORT_SETTINGS, ...options.settings };
  const newContainer = (): ExportDependencies => ({
    store,
    coverage,
    backfills,
    spotLocks,
    idempotencyKeys,
    credentials: new DemoCredentials(),
    upstream: new OpenWebClient({
      authBaseUrl: simulator.authBaseUrl,
      exportBaseUrl: simulator.exportBaseUrl,
      credentials: new DemoCredentials(),
      tokenStore: new DynamoDbTokenStore({
        client: table.documentClient,
        tableName: table.tableName,
        now,
      }),
      now,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5, totalBudgetMs: 1_000 },
      requestTimeoutMs: 2_000,
      ...options.client,
    }),
    workflows: options.workflows ?? workflows,
    events: {
      publishTerminal: async (record) => void published.push(record),
      publishCoverageGap: async (window) => void gaps.push(window),
    },
    metrics: { count: (name) => void metrics.push(name) },
    settings,
    now,
  });
  return {
    deps: newContainer(),
    clock,
    coverage,
    backfills,
    gaps,
    spotLocks,
    idempotencyKeys,
    simulator,
    table,
    store,
    workflows,
    published,
    metrics,
    newContainer,
    close: async () => {
      await simulator.close();
      await table.close();
    },
  };
}
