import { describe, expect, it } from 'vitest';
import { formatUpstreamWait } from '../../../cli/formatUpstreamWait';
import { exportView } from './support/exportViews';

const NOW_MS = Date.parse('2026-05-01T12:00:40Z');

function waiting(upstreamWait: Record<string, unknown>) {
  return exportView({
    status: 'REQUESTED',
    upstreamStatus: undefined,
    upstreamExportId: undefined,
    upstreamWait: {
      attempts: 3,
      lastErrorKind: 'throttled',
      lastErrorAt: '2026-05-01T12:00:30Z',
      ...upstreamWait,
    },
  });
}

describe('formatUpstreamWait', () => {
  it('says why a REQUESTED export waits and when it tries next', () => {
    // Act
    const line = formatUpstreamWait(waiting({ nextAttemptAt: '2026-05-01T12:01:00Z' }), NOW_MS);

    // Assess
    expect(line).toBe('waiting for upstream: throttled, next try in 20s (3 attempts)');
  });

  it.each([
    ['auth-paced', 'auth paced'],
    ['unavailable', 'unavailable'],
    ['timeout', 'timed out'],
    ['brand-new-kind', 'brand-new-kind'],
  ])('names the kind %s as "%s"', (kind, words) => {
    // Act
    const line = formatUpstreamWait(waiting({ lastErrorKind: kind, attempts: 1 }), NOW_MS);

    // Assess
    expect(line).toBe(`waiting for upstream: ${words} (1 attempt)`);
  });

  it('says "now" once the next attempt time has passed', () => {
    // Act
    const line = formatUpstreamWait(waiting({ nextAttemptAt: '2026-05-01T12:00:10Z' }), NOW_MS);

    // Assess
    expect(line).toBe('waiting for upstream: throttled, next try now (3 attempts)');
  });

  it('shows nothing for an export that is not waiting on the upstream', () => {
    // Act / Assess
    expect(formatUpstreamWait(exportView({ status: 'REQUESTED' }), NOW_MS)).toBeUndefined();
    expect(
      formatUpstreamWait(
        exportView({ status: 'PROCESSING', upstreamWait: { attempts: 2, lastErrorKind: 'throttled' } }),
        NOW_MS,
      ),
    ).toBeUndefined();
  });
});
