import type { ExportLevelName, ExportMetricName } from '../lib/exports/record/ports';
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

  /** The latest level of each name and dimensions (`HoursBehind SpotId=sp_a`). */
  readonly levels = new Map<string, number>();

  level(name: ExportLevelName, value: number, dimensions: Readonly<Record<string, string>>): void {
    const key = [name, ...Object.entries(dimensions).map(([k, v]) => `${k}=${v}`)].join(' ');
    this.levels.set(key, value);
  }

  publish(): void {
    for (const [name, value] of this.pending)
      this.published.set(name, (this.published.get(name) ?? 0) + value);
    this.pending.clear();
  }
}
