import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ExportLevelName, ExportMetricName } from '../exports/record/ports';
import { SETTINGS } from '../settings/settingsTable';
import { SERVICE_NAME } from './createLogger';
import type { PublishableExportMetrics } from './PublishableExportMetrics';

/** CloudWatch namespace of the metrics (Powertools' `POWERTOOLS_METRICS_NAMESPACE` overrides it). */
export const METRICS_NAMESPACE = SETTINGS.powertoolsMetricsNamespace.default;

/** Powertools Metrics (CloudWatch embedded metric format on stdout) behind the use cases' port. */
export class PowertoolsExportMetrics implements PublishableExportMetrics {
  readonly #metrics: Metrics;

  constructor(metrics: Metrics = createMetrics()) {
    this.#metrics = metrics;
  }

  count(name: ExportMetricName, value = 1): void {
    this.#metrics.addMetric(name, MetricUnit.Count, value);
  }

  level(name: ExportLevelName, value: number, dimensions: Readonly<Record<string, string>>): void {
    // A metric line of its own: its dimensions (the spot) are not the invocation's.
    const single = this.#metrics.singleMetric();
    for (const [dimension, dimensionValue] of Object.entries(dimensions))
      single.addDimension(dimension, dimensionValue);
    single.addMetric(name, MetricUnit.Count, value);
  }

  publish(): void {
    // Publishing nothing makes Powertools warn on every invocation that counted nothing.
    if (this.#metrics.hasStoredMetrics()) this.#metrics.publishStoredMetrics();
  }
}

function createMetrics(): Metrics {
  return new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  });
}
