import { describe, expect, it } from 'vitest';
import { UpstreamExportStatus } from '../../../../lib/exports/upstream/UpstreamExports';
import { normaliseUpstreamStatus } from '../../../../lib/openweb/normaliseUpstreamStatus';

describe('normaliseUpstreamStatus', () => {
  it('reports unknown when there is neither status nor links', () => {
    // Act / Assess
    expect(normaliseUpstreamStatus(undefined)).toBe(UpstreamExportStatus.UNKNOWN);
  });

  it('reports completed for links even with a failed status', () => {
    // Act / Assess
    expect(normaliseUpstreamStatus('Failed', ['https://f/1'])).toBe(UpstreamExportStatus.COMPLETED);
  });

  it('ignores case, surrounding spaces and separators', () => {
    // Act / Assess
    expect(normaliseUpstreamStatus('  In-Progress ')).toBe(UpstreamExportStatus.PROCESSING);
    expect(normaliseUpstreamStatus('CANCELED')).toBe(UpstreamExportStatus.ABORTED);
  });
});
