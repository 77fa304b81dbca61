import type { ExportMetrics } from '../exports/record/ports';

/** Counters that are buffered during an invocation and published once at its end. */
export interface PublishableExportMetrics extends ExportMetrics {
  /** Emits what was counted since the last call; a no-op when nothing was. */
  publish(): void;
}
