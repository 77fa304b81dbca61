import type { CreateExportRequest } from '../record/CreateExportRequest';

/** The upstream's export state, normalised from whatever spelling it used. */
export const UpstreamExportStatus = {
  PROCESSING: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
  ABORTED: 'aborted',
  UNKNOWN: 'unknown',
} as const;
export type UpstreamExportStatus = (typeof UpstreamExportStatus)[keyof typeof UpstreamExportStatus];

/**
 * The upstream export API as the use cases need it, and what it answers. The OpenWeb client
 * (lib/openweb) implements it; its failures are the errors of ./errors.ts.
 */
/** The upstream as the use cases need it; `OpenWebClient` satisfies it. */
export interface UpstreamExports {
  /**
   * Makes sure a token for the spot is at hand, authenticating if no process has one; a
   * create can then be tried without the auth in its way. Sends nothing but the auth.
   */
  ensureAuthenticated(spotId: string): Promise<void>;
  createExport(spotId: string, request: CreateExportRequest): Promise<CreatedExport>;
  getExportStatus(spotId: string, exportId: string): Promise<ExportStatusReport>;
  abortExport(spotId: string, exportId: string): Promise<void>;
  listExports(spotId: string, options?: ListExportsOptions): Promise<ListedExport[]>;
}

export interface ListExportsOptions {
  limit?: number;
  offset?: number;
}

export interface CreatedExport {
  exportId: string;
  /** The status URL the upstream returned, when it returned one. */
  statusLink: string | undefined;
  raw: unknown;
}

export interface ExportStatusReport {
  exportId: string;
  status: UpstreamExportStatus;
  rawStatus: string | undefined;
  /** Only links the download link policy allows; the others are dropped and counted. */
  links: string[];
  rejectedLinkCount: number;
  /** The body as received, for diagnosis in memory only: never stored or shown (it may hold rejected links). */
  raw: unknown;
}

export interface ListedExport {
  exportId: string;
  status: UpstreamExportStatus;
  rawStatus: string | undefined;
  /** Only links the download link policy allows; the others are dropped and counted. */
  links: string[];
  rejectedLinkCount: number;
  /** ISO 8601 when the upstream sent a creation time (string kept as sent, epoch numbers converted). */
  createdAt: string | undefined;
  raw: unknown;
}
