import {
  ClassifiedError,
  CREATE_AMBIGUOUS,
  CREATE_REFUSED,
  CREATE_REQUEST_REJECTED,
  type CreateFailure,
  createDeferred,
  UpstreamWaitKind,
} from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';

/**
 * The upstream port's errors (./UpstreamExports.ts). Every error the upstream client throws is
 * an `UpstreamError`; subclasses carry what a caller needs to decide what to do, and each says
 * what it means for a retry, a create and an API caller (see ClassifiedError). Messages never
 * contain API keys or tokens, and auth failures never echo the upstream's body (it may hold a
 * token). How OpenWeb's HTTP answers map to them is lib/openweb's business (rejectionError.ts).
 */

interface UpstreamErrorOptions {
  cause?: unknown;
  statusCode?: number;
}

export class UpstreamError extends ClassifiedError {
  /** HTTP status of the upstream answer behind this error, when there was one. */
  readonly statusCode: number | undefined;

  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UpstreamError';
    this.statusCode = options.statusCode;
  }

  get retryable(): boolean {
    return false;
  }

  get createFailure(): CreateFailure {
    return CREATE_AMBIGUOUS;
  }

  get problem(): Problem {
    return { type: ProblemType.UPSTREAM_ERROR };
  }
}

/** The upstream rejected the spot's API key (after one forced credential refresh) or its token (twice in a row). */
export class AuthRejectedError extends UpstreamError {
  readonly spotId: string;

  constructor(spotId: string, options: UpstreamErrorOptions = {}) {
    super(`The upstream rejected the credentials of spot ${spotId}`, options);
    this.name = 'AuthRejectedError';
    this.spotId = spotId;
  }

  override get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_CREDENTIALS_REJECTED };
  }
}

/** No token could be obtained while another process held the spot's refresh lease. Transient: retry later. */
export class TokenUnavailableError extends UpstreamError {
  readonly spotId: string;

  constructor(spotId: string, options: UpstreamErrorOptions = {}) {
    super(`No upstream token became available for spot ${spotId}`, options);
    this.name = 'TokenUnavailableError';
    this.spotId = spotId;
  }

  override get retryable(): boolean {
    return true;
  }

  /** Nothing was sent; throttled when the auth it waited for was rate limited. */
  override get createFailure(): CreateFailure {
    return createDeferred(
      this.cause instanceof UpstreamRateLimitedError
        ? UpstreamWaitKind.THROTTLED
        : UpstreamWaitKind.UNAVAILABLE,
    );
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_UNAVAILABLE };
  }
}

/**
 * The upstream, or the fleet's auth pacing in front of it, asks the caller to wait: passing (a
 * retry may go once `retryAfterMs` has passed, when known), a deferred create, and to an API
 * caller a 503 with `Retry-After`. Subclasses say which wait it is.
 */
abstract class UpstreamWaitError extends UpstreamError {
  abstract readonly wait: typeof UpstreamWaitKind.THROTTLED | typeof UpstreamWaitKind.AUTH_PACED;
  abstract readonly retryAfterMs: number | undefined;

  override get retryable(): boolean {
    return true;
  }

  override get createFailure(): CreateFailure {
    return createDeferred(this.wait, this.retryAfterMs);
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_RATE_LIMITED, wait: this.wait, retryAfterMs: this.retryAfterMs };
  }
}

/**
 * No auth slot is free soon: the fleet already spends the upstream's auth budget. Nothing was
 * sent; `retryAfterMs` is when the next slot is free. Another request holds the fleet's auth
 * slot: passing, like a 429 with Retry-After.
 */
export class UpstreamAuthPacedError extends UpstreamWaitError {
  readonly wait = UpstreamWaitKind.AUTH_PACED;
  readonly spotId: string;
  readonly retryAfterMs: number;

  constructor(spotId: string, retryAfterMs: number, options: UpstreamErrorOptions = {}) {
    super(`No upstream auth slot is free for spot ${spotId} for ${retryAfterMs} ms`, options);
    this.name = 'UpstreamAuthPaced';
    this.spotId = spotId;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A spot id that cannot be sent in a header (empty, spaces or control characters). Nothing was sent. */
export class InvalidSpotIdError extends UpstreamError {
  constructor() {
    super('The spot id must be non-empty printable ASCII without spaces');
    this.name = 'InvalidSpotIdError';
  }

  override get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }
}

/** 403 on an export call: this key/token may not act on this spot. Not retried. */
export class SpotForbiddenError extends UpstreamError {
  readonly spotId: string;

  constructor(spotId: string, options: UpstreamErrorOptions = {}) {
    super(`The upstream forbids access to spot ${spotId}`, { statusCode: 403, ...options });
    this.name = 'SpotForbiddenError';
    this.spotId = spotId;
  }

  override get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_CREDENTIALS_REJECTED };
  }
}

/** 409 on create: the spot already has an export in progress (the upstream allows one at a time). */
export class ExportConflictError extends UpstreamError {
  readonly spotId: string;
  readonly upstreamMessage: string | undefined;

  constructor(spotId: string, upstreamMessage: string | undefined, options: UpstreamErrorOptions = {}) {
    super(`Spot ${spotId} already has an export in progress`, { statusCode: 409, ...options });
    this.name = 'ExportConflictError';
    this.spotId = spotId;
    this.upstreamMessage = upstreamMessage;
  }

  override get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_EXPORT_IN_PROGRESS };
  }
}

/** 404 on status/abort: the upstream does not know this export (for this spot). */
export class UpstreamExportNotFoundError extends UpstreamError {
  readonly spotId: string;
  readonly exportId: string;

  constructor(spotId: string, exportId: string, options: UpstreamErrorOptions = {}) {
    super(`The upstream does not know export ${exportId} of spot ${spotId}`, { statusCode: 404, ...options });
    this.name = 'UpstreamExportNotFoundError';
    this.spotId = spotId;
    this.exportId = exportId;
  }
}

/** 400 (or 422): the upstream refused the request as invalid; `upstreamMessage` says why when it told us. */
export class InvalidExportRequestError extends UpstreamError {
  readonly upstreamMessage: string | undefined;

  constructor(upstreamMessage: string | undefined, options: UpstreamErrorOptions = {}) {
    super(
      upstreamMessage === undefined
        ? 'The upstream rejected the export request as invalid'
        : `The upstream rejected the export request as invalid: ${upstreamMessage}`,
      { statusCode: 400, ...options },
    );
    this.name = 'InvalidExportRequestError';
    this.upstreamMessage = upstreamMessage;
  }

  override get createFailure(): CreateFailure {
    return CREATE_REQUEST_REJECTED;
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_REJECTED_REQUEST, upstreamMessage: this.upstreamMessage };
  }
}

/** 400 on abort: typically the export already finished, failed or was aborted; check its status. */
export class ExportNotAbortableError extends InvalidExportRequestError {
  readonly exportId: string;

  constructor(exportId: string, upstreamMessage: string | undefined, options: UpstreamErrorOptions = {}) {
    super(upstreamMessage, options);
    this.name = 'ExportNotAbortableError';
    this.message = `The upstream refused to abort export ${exportId}${upstreamMessage === undefined ? '' : `: ${upstreamMessage}`}`;
    this.exportId = exportId;
  }
}

/** Any other 4xx the client has no specific meaning for. Not retried. */
export class UpstreamRequestRejectedError extends UpstreamError {
  readonly upstreamMessage: string | undefined;

  constructor(statusCode: number, upstreamMessage: string | undefined, options: UpstreamErrorOptions = {}) {
    super(
      `The upstream rejected the request with HTTP ${statusCode}${upstreamMessage === undefined ? '' : `: ${upstreamMessage}`}`,
      { statusCode, ...options },
    );
    this.name = 'UpstreamRequestRejectedError';
    this.upstreamMessage = upstreamMessage;
  }

  override get createFailure(): CreateFailure {
    return CREATE_REQUEST_REJECTED;
  }
}

/** 429 until the retries ran out. `retryAfterMs` is the upstream's last `Retry-After`, when it sent one. */
export class UpstreamRateLimitedError extends UpstreamWaitError {
  readonly wait = UpstreamWaitKind.THROTTLED;
  readonly retryAfterMs: number | undefined;

  constructor(retryAfterMs: number | undefined, options: UpstreamErrorOptions = {}) {
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
export class UpstreamUnavailableError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options);
    this.name = 'UpstreamUnavailableError';
  }

  /** No answer in time: the client's own per-attempt timeout aborted the fetch. */
  get timedOut(): boolean {
    if (this.statusCode !== undefined) return false;
    const causeName = (this.cause as { name?: unknown } | undefined)?.name;
    return causeName === 'AbortError' || causeName === 'TimeoutError';
  }

  override get retryable(): boolean {
    return true;
  }

  override get createFailure(): CreateFailure {
    return createDeferred(this.timedOut ? UpstreamWaitKind.TIMEOUT : UpstreamWaitKind.UNAVAILABLE);
  }

  override get problem(): Problem {
    return { type: this.timedOut ? ProblemType.UPSTREAM_TIMEOUT : ProblemType.UPSTREAM_UNAVAILABLE };
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
export class AmbiguousCreateError extends UpstreamError {
  readonly spotId: string;
  readonly reason: AmbiguousCreateReason;

  constructor(spotId: string, reason: AmbiguousCreateReason, options: UpstreamErrorOptions = {}) {
    super(`Creating an export for spot ${spotId} may or may not have succeeded (${reason})`, options);
    this.name = 'AmbiguousCreateError';
    this.spotId = spotId;
    this.reason = reason;
  }

  override get problem(): Problem {
    return this.reason === AmbiguousCreateReason.TIMEOUT
      ? { type: ProblemType.UPSTREAM_TIMEOUT }
      : super.problem;
  }
}

/** The upstream answered something the client cannot understand (not JSON, or no usable fields). */
export class UpstreamProtocolError extends UpstreamError {
  /** The start of the body, for diagnosis; empty for auth responses, which may hold a token. */
  readonly bodySnippet: string;

  constructor(
    message: string,
    statusCode: number | undefined,
    bodySnippet: string,
    options: UpstreamErrorOptions = {},
  ) {
    super(message, { statusCode, ...options });
    this.name = 'UpstreamProtocolError';
    this.bodySnippet = bodySnippet;
  }

  override get retryable(): boolean {
    return true;
  }

  override get problem(): Problem {
    return { type: ProblemType.UPSTREAM_PROTOCOL_ERROR };
  }
}

// ---- Credentials ------------------------------------------------------------------------------
/**
 * Base of every credentials error. Messages name the secret or file, never its value. Unusable
 * credentials refuse a create (nothing is sent without them) until the operator fixes them.
 */
export class CredentialsError extends ClassifiedError {
  readonly spotId: string;

  constructor(message: string, spotId: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CredentialsError';
    this.spotId = spotId;
  }

  get retryable(): boolean {
    return false;
  }

  get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  get problem(): Problem | undefined {
    return undefined;
  }

  /** The message alone: it names the spot and where its credentials were looked for. */
  override get failureReason(): string {
    return this.message;
  }
}

/** No credentials are configured for the spot: a caller mistake or a missing setup step, not an outage. */
export class CredentialsNotFoundError extends CredentialsError {
  readonly source: string;

  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`No credentials are configured for spot ${spotId} (looked in ${source})`, spotId, options);
    this.name = 'CredentialsNotFoundError';
    this.source = source;
  }

  override get problem(): Problem {
    return {
      type: ProblemType.SPOT_NOT_CONFIGURED,
      spotId: this.spotId,
      source: this.source,
      credentials: 'missing',
    };
  }
}

/** The stored credentials exist but do not have the expected shape. */
export class InvalidCredentialsError extends CredentialsError {
  readonly source: string;
  readonly problems: string[];

  constructor(spotId: string, source: string, problems: string[], options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} in ${source} are invalid: ${problems.join('; ')}`, spotId, options);
    this.name = 'InvalidCredentialsError';
    this.source = source;
    this.problems = problems;
  }

  // The problems found stay out of it: they describe the secret's value.
  override get problem(): Problem {
    return {
      type: ProblemType.SPOT_NOT_CONFIGURED,
      spotId: this.spotId,
      source: this.source,
      credentials: 'unusable',
    };
  }
}

/** The credentials store could not be read (permissions, throttling, outage). */
export class CredentialsUnavailableError extends CredentialsError {
  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} could not be read from ${source}`, spotId, options);
    this.name = 'CredentialsUnavailableError';
  }

  override get retryable(): boolean {
    return true;
  }

  override get createFailure(): CreateFailure {
    return createDeferred(UpstreamWaitKind.UNAVAILABLE);
  }

  override get problem(): Problem {
    return { type: ProblemType.CREDENTIALS_UNAVAILABLE };
  }
}
