import type { ExportMetricName } from '../lib/exports/record/ports';
import type { PublishableExportMetrics } from '../lib/observability/PublishableExportMetrics';

/** Counters kept in memory: the local runtime's metrics (`/_local/metrics`), and the tests'. */
export class InMemoryExportMetrics implements PublishableExportMetrics {
  /** Counted and not yet published. */
  readonly pending = new Map<ExportMetricName, number>();
  /** Totals of everything published so far. */
  readonly published = new Map<ExportMetricName, number>();

  count(name: ExportMetricName, value = 1): void {
    this.pending.set(name, (this.pending.get(name) ?? 0) + value);
  }

  publish(): void {
    for (const [name, value] of this.pending)
      this.published.set(name, (this.published.get(name) ?? 0) + value);
    this.pending.clear();
  }
}
