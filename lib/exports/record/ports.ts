import type { ExportSettings } from './ExportSettings';
import type { ExportStore } from './ExportStore';

/** Counters the use cases report (Powertools Metrics in the cloud). */
export interface ExportMetrics {
  count(name: ExportMetricName, value?: number): void;
  /** A level, not a count (how far a spot is behind), with its dimensions; where the adapter keeps levels. */
  level?(name: ExportLevelName, value: number, dimensions: Readonly<Record<string, string>>): void;
}

/** The levels the reconciler reports, per spot. */
export type ExportLevelName = 'HoursBehind';

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
  | 'CatalogRegistrationsDeferred'
  | 'CatalogRegistrationsCaughtUp'
  | 'PartitionsRepaired'
  | 'PartitionRepairsFailed'
  | 'RestatementsStarted'
  | 'RestatementsWaiting'
  | 'RestatementsRetried'
  | 'RestatementsArchived'
  | 'RestatementsGivenUp'
  | 'BackfillsCreated'
  | 'BackfillsAborted'
  | 'StaleSpots'
  | 'FreshnessEventsUnannounced'
  | 'EventsNotPublished';

/** What the record's own use cases touch; each concept's dependencies extend it with its ports. */
export interface RecordDependencies {
  store: ExportStore;
  metrics: ExportMetrics;
  settings: ExportSettings;
  now: () => number;
}
