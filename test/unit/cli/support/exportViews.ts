import type { ExportList, ExportView } from '../../../../lib/http/exportViewSchema';

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
    linkCount: 0,
    requestedAt: REQUESTED_AT,
    startedAt: REQUESTED_AT,
    pollCount: 0,
    source: 'api',
    archive: { status: 'PENDING', files: 0 },
    usage: {
      stateTransitions: 0,
      taskInvocations: 1,
      billedGbSeconds: 0,
      upstreamCalls: 0,
      tableReads: 3,
      tableWrites: 8,
      archiveBytes: 0,
      archiveFiles: 0,
    },
    cost: {
      stepFunctionsUsd: 0,
      lambdaUsd: 0,
      dynamoDbUsd: 0,
      otherUsd: 0,
      totalUsd: 0,
      archivePerMonthUsd: 0,
      pricedFor: { region: 'us-east-1', asOf: '2026-01' },
    },
    ...overrides,
  };
}

/** A page of `GET /exports` as the API answers it: the views and their total. */
export function exportList(items: ExportView[], nextToken?: string): ExportList {
  const requested = items.map((item) => item.requestedAt).sort();
  const sum = (read: (item: ExportView) => number) => items.reduce((total, item) => total + read(item), 0);
  return {
    items,
    total: {
      exports: items.length,
      ...(requested.length > 0 && { from: requested[0], until: requested[requested.length - 1] }),
      usage: exportView().usage,
      cost: { ...exportView().cost, totalUsd: sum((item) => item.cost.totalUsd) },
    },
    ...(nextToken !== undefined && { nextToken }),
  };
}

export const COMPLETED_LINKS = [
  'https://exports.example.test/sp_demo/part-1.csv.gz',
  'https://exports.example.test/sp_demo/part-2.csv.gz',
];
