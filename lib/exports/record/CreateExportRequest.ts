import type { ExportRequest } from './ExportRecord';

/** A date-range export: RFC 3339 instants (`YYYY-MM-DDTHH:MM:SSZ`); the upstream allows at most 730 hours. */
export interface DateRangeExportRequest {
  from: string;
  until: string;
}

/** A single-conversation export; `conversationId` is `<spotId>_<postId>`. */
export interface ConversationExportRequest {
  conversationId: string;
}

export interface ExportFileOptions {
  /** CSV separator (upstream default `,`). */
  delimiter?: string;
  /** Rows per CSV file (upstream maximum 100 000). */
  maxRecordsInFile?: number;
}

export type CreateExportRequest = (DateRangeExportRequest | ConversationExportRequest) & ExportFileOptions;

/** What the upstream is asked for an export's request. */
export function toUpstreamRequest(request: ExportRequest): CreateExportRequest {
  const options = {
    ...(request.delimiter !== undefined && { delimiter: request.delimiter }),
    ...(request.maxRecordsInFile !== undefined && { maxRecordsInFile: request.maxRecordsInFile }),
  };
  return request.kind === 'conversation'
    ? { conversationId: request.conversationId, ...options }
    : { from: request.from, until: request.until, ...options };
}
