import type { ExportView } from '../../../../cli/ExportView';

export const SPOT_ID = 'sp_demo';
export const EXPORT_ID = 'ex_01kak3f4v2qz7m9d8c5b4a3e2f';
export const REQUESTED_AT = '2026-05-01T12:00:00Z';

/** An export view as the API answers it; a fresh PROCESSING export unless overridden. */
export function exportView(overrides: Partial<ExportView> = {}): ExportView {
  return {
    exportId: EXPORT_ID,
    spotId: SPOT_ID,
    status: 'PROCESSING',
    upstreamStatus: 'processing',
    upstreamExportId: 'up-123',
    request: { kind: 'dateRange', from: '2026-04-30T00:00:00Z', until: '2026-05-01T00:00:00Z' },
    links: [],
    requestedAt: REQUESTED_AT,
    startedAt: REQUESTED_AT,
    pollCount: 0,
    source: 'api',
    ...overrides,
  };
}

export const COMPLETED_LINKS = [
  'https://exports.example.test/sp_demo/part-1.csv.gz',
  'https://exports.example.test/sp_demo/part-2.csv.gz',
];
