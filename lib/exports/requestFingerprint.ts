import { createHash } from 'node:crypto';
import type { ExportRequest } from './ExportRecord';

/** Stable hash of what was asked, to tell a retry (same fingerprint) from a reused key (different one). */
export function requestFingerprint(spotId: string, request: ExportRequest): string {
  const canonical = JSON.stringify([
    spotId,
    request.kind,
    request.kind === 'dateRange' ? [request.from, request.until] : [request.conversationId],
    request.delimiter ?? null,
    request.maxRecordsInFile ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}
