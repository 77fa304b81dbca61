import {
  ExportConflictError,
  ExportNotAbortableError,
  InvalidExportRequestError,
  SpotForbiddenError,
  type UpstreamError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
  UpstreamRequestRejectedError,
} from '../exports/upstream/errors';
import { OpenWebOperation } from './OpenWebOperation';
import { bodySnippet, readUpstreamMessage, type UpstreamReply } from './responses';

export interface RejectionContext {
  operation: OpenWebOperation;
  spotId: string;
  /** The export the call was about (status, abort). */
  exportId?: string;
}

/**
 * How OpenWeb's HTTP answers map to the upstream port's errors (lib/exports/upstream/errors.ts):
 * - 400 / 422 → `InvalidExportRequestError` (400 on abort → `ExportNotAbortableError`)
 * - 401 → one re-authentication and one resend, then `AuthRejectedError`
 * - 403 → `SpotForbiddenError` (not retried)
 * - 404 on status/abort → `UpstreamExportNotFoundError`
 * - 409 → `ExportConflictError`
 * - 429 → retried, then `UpstreamRateLimitedError`
 * - 5xx, network failures, timeouts → retried, then `UpstreamUnavailableError`
 *   (on create: `AmbiguousCreateError` at once: the request may have been processed)
 * - any other 4xx → `UpstreamRequestRejectedError`
 *
 * This builds the typed error for an export call's answer that is neither success nor
 * retryable (401, 429 and 5xx are handled by the caller before this).
 */
export function rejectionError(reply: UpstreamReply, context: RejectionContext): UpstreamError {
  const { statusCode } = reply;
  const { operation, spotId, exportId } = context;
  if (statusCode < 400 || statusCode >= 500) {
    return new UpstreamProtocolError(
      `The upstream answered ${operation} with unexpected HTTP ${statusCode}`,
      statusCode,
      bodySnippet(reply.bodyText),
    );
  }
  const message = readUpstreamMessage(reply.bodyText);
  switch (statusCode) {
    case 400:
    case 422:
      return operation === OpenWebOperation.ABORT_EXPORT && exportId !== undefined
        ? new ExportNotAbortableError(exportId, message, { statusCode })
        : new InvalidExportRequestError(message, { statusCode });
    case 403:
      return new SpotForbiddenError(spotId);
    case 404:
      return exportId === undefined
        ? new UpstreamRequestRejectedError(statusCode, message)
        : new UpstreamExportNotFoundError(spotId, exportId);
    case 409:
      return new ExportConflictError(spotId, message);
    default:
      return new UpstreamRequestRejectedError(statusCode, message);
  }
}
