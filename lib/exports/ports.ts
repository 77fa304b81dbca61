import type { BackfillStore } from './BackfillStore';
import type { CoverageLedger, CoverageWindow } from './CoverageLedger';
import type { CredentialsProvider } from './CredentialsProvider';
import type { ExportRecord } from './ExportRecord';
import type { ExportSettings } from './ExportSettings';
import type { ExportStore } from './ExportStore';
import type { IdempotencyKeys } from './IdempotencyRecord';
import type { SpotLocks } from './SpotLock';
import type { UpstreamExports } from './UpstreamExports';
import type { PollingWorkflowInput } from './workflowContract';

/** The polling workflow runner: Step Functions in the cloud, aws-local-stepfunctions locally. */
export interface PollingWorkflows {
  /** Idempotent per execution name: starting a running one again is not an error. */
  start(executionName: string, input: PollingWorkflowInput): Promise<void>;
  /** Stopping a finished or unknown execution is not an error. */
  stop(executionName: string, reason: string): Promise<void>;
  isRunning(executionName: string): Promise<boolean>;
}

/** Where terminal exports are announced (EventBridge), so users react without polling. */
export interface ExportEvents {
  publishTerminal(record: ExportRecord): Promise<void>;
  /** A window of a spot became a gap: it will not be exported again unless someone fills it. */
  publishCoverageGap(window: CoverageWindow): Promise<void>;
}

/** Counters the use cases report (Powertools Metrics in the cloud). */
export interface ExportMetrics {
  count(name: ExportMetricName, value?: number): void;
}

export type ExportMetricName =
  | 'ExportsStarted'
  | 'ExportsCompleted'
  | 'ExportsFailed'
  | 'ExportsAborted'
  | 'ExportsRecovered'
  | 'UpstreamPolls'
  | 'WorkflowsRestarted'
  | 'WorkflowStartsFailed'
  | 'ExportsQueued'
  | 'ExportsDequeued'
  | 'QueueStartsDeferred'
  | 'QueueStartsFailed'
  | 'ArchivesRestarted'
  | 'ArchivesExpired'
  | 'CoverageWindowsPlanned'
  | 'CoverageWindowsRetried'
  | 'CoverageGaps'
  | 'CoverageOutcomesDeferred'
  | 'BackfillsCreated'
  | 'BackfillsAborted';

/** Everything a use case may touch. Handlers build it once per container. */
export interface ExportDependencies {
  store: ExportStore;
  coverage: CoverageLedger;
  /** The backfills' plans; where their windows stand is the ledger's. */
  backfills: BackfillStore;
  spotLocks: SpotLocks;
  idempotencyKeys: IdempotencyKeys;
  upstream: UpstreamExports;
  /** The spots' upstream credentials; the start path checks a spot has them. */
  credentials: CredentialsProvider;
  workflows: PollingWorkflows;
  events: ExportEvents;
  metrics: ExportMetrics;
  settings: ExportSettings;
  now: () => number;
}
