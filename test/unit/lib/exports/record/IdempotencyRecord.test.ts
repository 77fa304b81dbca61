import { describe, expect, it } from 'vitest';
import type { ExportRequest } from '../../../../../lib/exports/record/ExportRecord';
import { requestFingerprint } from '../../../../../lib/exports/record/IdempotencyRecord';

const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' };

describe('requestFingerprint', () => {
  it('is the same for the same spot and request, however its fields are ordered', () => {
    // Act / Assess
    expect(
      requestFingerprint('sp_a', { until: DAY.until, from: DAY.from, kind: 'dateRange' } as ExportRequest),
    ).toBe(requestFingerprint('sp_a', DAY));
  });

  it('differs when the spot or any part of the request differs', () => {
    // Act
    const fingerprints = [
      requestFingerprint('sp_a', DAY),
      requestFingerprint('sp_b', DAY),
      requestFingerprint('sp_a', { ...DAY, until: '2026-10-03T00:00:00Z' }),
      requestFingerprint('sp_a', { ...DAY, delimiter: ';' }),
      requestFingerprint('sp_a', { ...DAY, maxRecordsInFile: 10 }),
      requestFingerprint('sp_a', { kind: 'conversation', conversationId: 'sp_a_1' }),
    ];

    // Assess
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    expect(fingerprints[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
