import { Metrics } from '@aws-lambda-powertools/metrics';
import { describe, expect, it, vi } from 'vitest';
import { PowertoolsExportMetrics } from '../../../../lib/observability/PowertoolsExportMetrics';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';

function metricsUnderTest() {
  const metrics = new Metrics({ namespace: 'Test', serviceName: 'test' });
  const published = vi.spyOn(metrics, 'publishStoredMetrics').mockReturnValue(metrics);
  const added = vi.spyOn(metrics, 'addMetric');
  return { metrics, published, added };
}

describe('PowertoolsExportMetrics', () => {
  it('counts into Powertools Metrics and publishes them at the end of the invocation', () => {
    // Prepare
    const { metrics, published, added } = metricsUnderTest();
    const exportMetrics = new PowertoolsExportMetrics(metrics);

    // Act
    exportMetrics.count('ExportsStarted');
    exportMetrics.count('UpstreamPolls', 3);
    exportMetrics.publish();

    // Assess
    expect(added).toHaveBeenCalledWith('ExportsStarted', 'Count', 1);
    expect(added).toHaveBeenCalledWith('UpstreamPolls', 'Count', 3);
    expect(published).toHaveBeenCalledTimes(1);
  });

  it('publishes nothing for an invocation that counted nothing', () => {
    // Prepare
    const { metrics, published } = metricsUnderTest();

    // Act
    new PowertoolsExportMetrics(metrics).publish();

    // Assess
    expect(published).not.toHaveBeenCalled();
  });
});

describe('InMemoryExportMetrics', () => {
  it('keeps counts pending until published', () => {
    // Prepare
    const metrics = new InMemoryExportMetrics();

    // Act
    metrics.count('ExportsFailed');
    metrics.count('ExportsFailed');
    const pendingBefore = metrics.pending.get('ExportsFailed');
    metrics.publish();

    // Assess
    expect(pendingBefore).toBe(2);
    expect(metrics.pending.size).toBe(0);
    expect(metrics.published.get('ExportsFailed')).toBe(2);
  });
});
