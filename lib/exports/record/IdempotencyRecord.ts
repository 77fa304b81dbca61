import { createHash } from 'node:crypto';
import type { ExportRequest } from './ExportRecord';

/** Binds a caller's idempotency key to the export it started. */
export interface IdempotencyRecord {
  spotId: string;
  key: string;
  exportId: string;
  /** Hash of the request body, to tell a retry from a reuse of the key for another request. */
  requestFingerprint: string;
  createdAt: string;
  /** Epoch seconds; also the item's TTL. Past values read as absent. */
  expiresAtEpochSeconds: number;
}

export interface PutIdempotencyRecordInput {
  exportId: string;
  requestFingerprint: string;
  expiresAtEpochSeconds: number;
}

/** The idempotency keys: one export per spot and key while the key lives. */
export interface IdempotencyKeys {
  /** Absent or expired keys only. @throws IdempotencyConflictError, IdempotencyKeyReusedError */
  put(spotId: string, key: string, input: PutIdempotencyRecordInput): Promise<IdempotencyRecord>;
  /**
   * Frees a key whose export never reached the upstream, so a retry starts afresh.
   * Only while the key still names `exportId`; true when this call deleted it.
   */
  delete(spotId: string, key: string, exportId: string): Promise<boolean>;
  /** Expired records read as absent. */
  get(spotId: string, key: string): Promise<IdempotencyRecord | undefined>;
}

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
