import type { ExportSettings } from './ExportSettings';
import type { ExportStore } from './ExportStore';

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

/** What the record's own use cases touch; each concept's dependencies extend it with its ports. */
export interface RecordDependencies {
  store: ExportStore;
  metrics: ExportMetrics;
  settings: ExportSettings;
  now: () => number;
}
