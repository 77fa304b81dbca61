/**
 * Errors of the OpenWeb client. Every error the client throws is an
 * `OpenWebError`; subclasses carry what a caller needs to decide what to do.
 * Messages never contain API keys or tokens, and auth-call failures never
 * echo the upstream body (it may hold a token).
 *
 * HTTP mapping of an export call's error response:
 * - 400 / 422 → `InvalidExportRequestError` (400 on abort → `ExportNotAbortableError`)
 * - 401 → one re-authentication and one resend, then `AuthRejectedError`
 * - 403 → `SpotForbiddenError` (not retried)
 * - 404 on status/abort → `ExportNotFoundError`
 * - 409 → `ExportConflictError`
 * - 429 → retried, then `UpstreamRateLimitedError`
 * - 5xx, network failures, timeouts → retried, then `UpstreamUnavailableError`
 *   (on create: `AmbiguousCreateError` at once, see below)
 * - any other 4xx → `UpstreamRequestRejectedError`
 */

interface OpenWebErrorOptions {
  cause?: unknown;
  statusCode?: number;
}

export class OpenWebError extends Error {
  /** HTTP status of the upstream answer behind this error, when there was one. */
  readonly statusCode: number | undefined;

  constructor(message: string, options: OpenWebErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OpenWebError';
    this.statusCode = options.statusCode;
  }
}

/** The upstream rejected the spot's API key (after one forced credential refresh) or its token (twice in a row). */
export class AuthRejectedError extends OpenWebError {
  readonly spotId: string;

  constructor(spotId: string, options: OpenWebErrorOptions = {}) {
    super(`The upstream rejected the credentials of spot ${spotId}`, options);
    this.name = 'AuthRejectedError';
    this.spotId = spotId;
  }
}

/** No token could be obtained while another process held the spot's refresh lease. Transient: retry later. */
export class TokenUnavailableError extends OpenWebError {
  readonly spotId: string;

  constructor(spotId: string, options: OpenWebErrorOptions = {}) {
    super(`No upstream token became available for spot ${spotId}`, options);
    this.name = 'TokenUnavailableError';
    this.spotId = spotId;
  }
}

/**
 * No auth slot is free soon: the fleet already spends the upstream's auth budget. Nothing was
 * sent; `retryAfterMs` is when the next slot is free. Transient: the caller retries later.
 */
export class UpstreamAuthPacedError extends OpenWebError {
  readonly spotId: string;
  readonly retryAfterMs: number;

  constructor(spotId: string, retryAfterMs: number, options: OpenWebErrorOptions = {}) {
    super(`No upstream auth slot is free for spot ${spotId} for ${retryAfterMs} ms`, options);
    this.name = 'UpstreamAuthPaced';
    this.spotId = spotId;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A spot id that cannot be sent in a header (empty, spaces or control characters). Nothing was sent. */
export class InvalidSpotIdError extends OpenWebError {
  constructor() {
    super('The spot id must be non-empty printable ASCII without spaces');
    this.name = 'InvalidSpotIdError';
  }
}

/** 403 on an export call: this key/token may not act on this spot. Not retried. */
export class SpotForbiddenError extends OpenWebError {
  readonly spotId: string;

  constructor(spotId: string, options: OpenWebErrorOptions = {}) {
    super(`The upstream forbids access to spot ${spotId}`, { statusCode: 403, ...options });
    this.name = 'SpotForbiddenError';
    this.spotId = spotId;
  }
}

/** 409 on create: the spot already has an export in progress (the upstream allows one at a time). */
export class ExportConflictError extends OpenWebError {
  readonly spotId: string;
  readonly upstreamMessage: string | undefined;

  constructor(spotId: string, upstreamMessage: string | undefined, options: OpenWebErrorOptions = {}) {
    super(`Spot ${spotId} already has an export in progress`, { statusCode: 409, ...options });
    this.name = 'ExportConflictError';
    this.spotId = spotId;
    this.upstreamMessage = upstreamMessage;
  }
}

/** 404 on status/abort: the upstream does not know this export (for this spot). */
export class ExportNotFoundError extends OpenWebError {
  readonly spotId: string;
  readonly exportId: string;

  constructor(spotId: string, exportId: string, options: OpenWebErrorOptions = {}) {
    super(`The upstream does not know export ${exportId} of spot ${spotId}`, { statusCode: 404, ...options });
    this.name = 'ExportNotFoundError';
    this.spotId = spotId;
    this.exportId = exportId;
  }
}

/** 400 (or 422): the upstream refused the request as invalid; `upstreamMessage` says why when it told us. */
export class InvalidExportRequestError extends OpenWebError {
  readonly upstreamMessage: string | undefined;

  constructor(upstreamMessage: string | undefined, options: OpenWebErrorOptions = {}) {
    super(
      upstreamMessage === undefined
        ? 'The upstream rejected the export request as invalid'
        : `The upstream rejected the export request as invalid: ${upstreamMessage}`,
      { statusCode: 400, ...options },
    );
    this.name = 'InvalidExportRequestError';
    this.upstreamMessage = upstreamMessage;
  }
}

/** 400 on abort: typically the export already finished, failed or was aborted; check its status. */
export class ExportNotAbortableError extends InvalidExportRequestError {
  readonly exportId: string;

  constructor(exportId: string, upstreamMessage: string | undefined, options: OpenWebErrorOptions = {}) {
    super(upstreamMessage, options);
    this.name = 'ExportNotAbortableError';
    this.message = `The upstream refused to abort export ${exportId}${upstreamMessage === undefined ? '' : `: ${upstreamMessage}`}`;
    this.exportId = exportId;
  }
}

/** Any other 4xx the client has no specific meaning for. Not retried. */
export class UpstreamRequestRejectedError extends OpenWebError {
  readonly upstreamMessage: string | undefined;

  constructor(statusCode: number, upstreamMessage: string | undefined, options: OpenWebErrorOptions = {}) {
    super(
      `The upstream rejected the request with HTTP ${statusCode}${upstreamMessage === undefined ? '' : `: ${upstreamMessage}`}`,
      { statusCode, ...options },
    );
    this.name = 'UpstreamRequestRejectedError';
    this.upstreamMessage = upstreamMessage;
  }
}

/** 429 until the retries ran out. `retryAfterMs` is the upstream's last `Retry-After`, when it sent one. */
export class UpstreamRateLimitedError extends OpenWebError {
  readonly retryAfterMs: number | undefined;

  constructor(retryAfterMs: number | undefined, options: OpenWebErrorOptions = {}) {
    super(
      retryAfterMs === undefined
        ? 'The upstream is rate limiting requests'
        : `The upstream is rate limiting requests (retry after ${retryAfterMs} ms)`,
      { statusCode: 429, ...options },
    );
    this.name = 'UpstreamRateLimitedError';
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx, network failure or timeout until the retries ran out. `statusCode` is unset for network failures. */
export class UpstreamUnavailableError extends OpenWebError {
  constructor(message: string, options: OpenWebErrorOptions = {}) {
    super(message, options);
    this.name = 'UpstreamUnavailableError';
  }
}

export const AmbiguousCreateReason = {
  /** The request timed out after it may have been sent. */
  TIMEOUT: 'timeout',
  /** The connection broke after the request may have been sent (reset, socket closed). */
  CONNECTION_LOST: 'connectionLost',
  /** The upstream answered 5xx: a backend may have processed the request before failing. */
  SERVER_ERROR: 'serverError',
  /** The upstream answered 2xx (so the export exists) but its id could not be read. */
  UNREADABLE_RESPONSE: 'unreadableResponse',
} as const;
export type AmbiguousCreateReason = (typeof AmbiguousCreateReason)[keyof typeof AmbiguousCreateReason];

/**
 * A create failed after the request may have reached the upstream, so an export
 * may exist. The client never resends such a create (creates are not
 * idempotent); recover the id via 409 + `listExports` / status instead.
 */
export class AmbiguousCreateError extends OpenWebError {
  readonly spotId: string;
  readonly reason: AmbiguousCreateReason;

  constructor(spotId: string, reason: AmbiguousCreateReason, options: OpenWebErrorOptions = {}) {
    super(`Creating an export for spot ${spotId} may or may not have succeeded (${reason})`, options);
    this.name = 'AmbiguousCreateError';
    this.spotId = spotId;
    this.reason = reason;
  }
}

/** The upstream answered something the client cannot understand (not JSON, or no usable fields). */
export class UpstreamProtocolError extends OpenWebError {
  /** The start of the body, for diagnosis; empty for auth responses, which may hold a token. */
  readonly bodySnippet: string;

  constructor(
    message: string,
    statusCode: number | undefined,
    bodySnippet: string,
    options: OpenWebErrorOptions = {},
  ) {
    super(message, { statusCode, ...options });
    this.name = 'UpstreamProtocolError';
    this.bodySnippet = bodySnippet;
  }
}
