import type { ExportRecord, NewExportRecord } from '../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { newExportId } from '../../lib/exports/record/exportId';
import type { IdempotencyRecord } from '../../lib/exports/record/IdempotencyRecord';

export const FIXTURE_SPOT_ID = 'sp_fixture';

/** A freshly requested export, as a start would record it; override any field. */
export function newExportRecordFixture(overrides: Partial<NewExportRecord> = {}): NewExportRecord {
  const requestedAt = overrides.requestedAt ?? '2025-01-01T00:00:00.000Z';
  return {
    spotId: FIXTURE_SPOT_ID,
    exportId: newExportId(Date.parse(requestedAt)),
    status: ExportStatus.REQUESTED,
    request: { kind: 'dateRange', from: '2024-12-01T00:00:00Z', until: '2024-12-15T00:00:00Z' },
    links: [],
    requestedAt,
    pollCount: 0,
    source: 'api',
    ...overrides,
  };
}

export function exportRecordFixture(overrides: Partial<ExportRecord> = {}): ExportRecord {
  return { ...newExportRecordFixture(overrides), version: overrides.version ?? 1 };
}

/** An idempotency key's record, as a start stores it; override any field. */
export function idempotencyRecordFixture(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    spotId: FIXTURE_SPOT_ID,
    key: 'k',
    exportId: newExportId(Date.parse('2025-01-01T00:00:00.000Z')),
    requestFingerprint: 'f',
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAtEpochSeconds: 1,
    ...overrides,
  };
}
