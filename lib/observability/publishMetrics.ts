import type { MiddlewareObj } from '@middy/core';
import type { PublishableExportMetrics } from './PublishableExportMetrics';

/** Publishes what an invocation counted when it ends, whether it succeeded or failed. */
export function publishMetrics(metrics: PublishableExportMetrics): MiddlewareObj {
  function publishMetricsAfter(): void {
    metrics.publish();
  }

  function publishMetricsOnError(): void {
    metrics.publish();
  }

  return { after: publishMetricsAfter, onError: publishMetricsOnError };
}
