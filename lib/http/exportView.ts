import type { ExportRecord, ExportRequest, ExportSource } from '../exports/ExportRecord';
import type { ExportStatus } from '../exports/ExportStatus';

/** An export as the API shows it: no storage bookkeeping (version) and no idempotency key. */
export interface ExportView {
  exportId: string;
  spotId: string;
  status: ExportStatus;
  upstreamStatus?: string;
  upstreamExportId?: string;
  request: ExportRequest;
  links: string[];
  requestedAt: string;
  startedAt?: string;
  completedAt?: string;
  lastPolledAt?: string;
  pollCount: number;
  source: ExportSource;
  failureReason?: string;
}

export function exportView(record: ExportRecord): ExportView {
  return {
    exportId: record.exportId,
    spotId: record.spotId,
    status: record.status,
    ...(record.upstreamStatus !== undefined && { upstreamStatus: record.upstreamStatus }),
    ...(record.upstreamExportId !== undefined && { upstreamExportId: record.upstreamExportId }),
    request: record.request,
    links: record.links,
    requestedAt: record.requestedAt,
    ...(record.startedAt !== undefined && { startedAt: record.startedAt }),
    ...(record.completedAt !== undefined && { completedAt: record.completedAt }),
    ...(record.lastPolledAt !== undefined && { lastPolledAt: record.lastPolledAt }),
    pollCount: record.pollCount,
    source: record.source,
    ...(record.failureReason !== undefined && { failureReason: record.failureReason }),
  };
}

/** Where an export can be read back. */
export function exportLocation(exportId: string): string {
  return `/exports/${exportId}`;
}
