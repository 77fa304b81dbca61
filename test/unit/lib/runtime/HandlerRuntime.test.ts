import { describe, expect, it } from 'vitest';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import type { ExportMetricName } from '../../../../lib/exports/record/ports';
import { handlerRuntimeFor } from '../../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';

class CountingMetrics {
  readonly counted: ExportMetricName[] = [];

  count(name: ExportMetricName): void {
    this.counted.push(name);
  }
}

describe('handlerRuntimeFor', () => {
  it('publishes through the dependencies’ own metrics when they can publish', () => {
    // Prepare
    const metrics = new InMemoryExportMetrics();
    const runtime = handlerRuntimeFor({ metrics } as unknown as ExportDependencies);

    // Act
    runtime.metrics.count('ExportsStarted');
    runtime.metrics.publish();

    // Assess
    expect(runtime.metrics).toBe(metrics);
    expect(metrics.published.get('ExportsStarted')).toBe(1);
  });

  it('still counts into metrics that cannot publish', () => {
    // Prepare
    const metrics = new CountingMetrics();
    const dependencies = { metrics } as unknown as ExportDependencies;
    const runtime = handlerRuntimeFor(dependencies);

    // Act
    runtime.metrics.count('UpstreamPolls');
    runtime.metrics.publish();

    // Assess
    expect(metrics.counted).toEqual(['UpstreamPolls']);
    expect(runtime.dependencies()).toBe(dependencies);
  });
});
