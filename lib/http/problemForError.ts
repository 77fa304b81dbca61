import { ExportAlreadyFinishedError, IllegalTransitionError } from '../exports/errors';
import {
  ExportNotFoundError,
  IdempotencyKeyReusedError,
  InvalidPaginationTokenError,
  SpotBusyError,
  TransitionConflictError,
} from '../exports/storeErrors';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  AuthRejectedError,
  ExportConflictError,
  InvalidExportRequestError,
  OpenWebError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamUnavailableError,
} from '../openweb/errors';
import {
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  InvalidCredentialsError,
} from '../secrets/errors';
import { exportNotFound } from './exportNotFound';
import { invalidRequest } from './invalidRequest';
import { ProblemError, type ProblemInit } from './ProblemError';
import { ProblemType } from './ProblemType';

const MS_PER_SECOND = 1000;

/**
 * The problem a known error means for the API caller, or undefined for anything
 * unknown (which the caller only ever sees as a generic 500).
 */
export function problemForError(error: unknown): ProblemInit | undefined {
  if (error instanceof ProblemError) return error.problem;
  if (error instanceof ExportNotFoundError) return exportNotFound().problem;
  if (error instanceof SpotBusyError) {
    return {
      status: 409,
      type: ProblemType.SPOT_BUSY,
      title: 'Spot busy',
      detail: 'Another export of this spot is in progress; the upstream runs one at a time.',
      ...(error.activeExportId !== undefined && { extensions: { activeExportId: error.activeExportId } }),
    };
  }
  if (error instanceof ExportAlreadyFinishedError) {
    return {
      status: 409,
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      title: 'Export already finished',
      detail: `The export finished with status ${error.current.status} and can no longer be aborted.`,
      extensions: { exportId: error.current.exportId, exportStatus: error.current.status },
    };
  }
  if (error instanceof IdempotencyKeyReusedError) {
    return {
      status: 422,
      type: ProblemType.IDEMPOTENCY_KEY_REUSED,
      title: 'Idempotency key reused',
      detail: 'This idempotency key was already used with a different request; use a new key.',
    };
  }
  if (error instanceof InvalidPaginationTokenError) {
    return invalidRequest([{ field: 'query.nextToken', message: 'is not a token of this listing' }]).problem;
  }
  if (error instanceof TransitionConflictError || error instanceof IllegalTransitionError) {
    return {
      status: 409,
      type: ProblemType.EXPORT_CHANGED_CONCURRENTLY,
      title: 'Export changed concurrently',
      detail: 'The export changed while this request was handled; read it again and retry if still needed.',
    };
  }
  return upstreamProblem(error);
}

/** Errors of the upstream and of the spot's credentials. */
function upstreamProblem(error: unknown): ProblemInit | undefined {
  // Where they were looked up is configuration the operator needs to fix it; no value is quoted.
  if (error instanceof CredentialsNotFoundError) {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `No OpenWeb credentials are configured for spot ${error.spotId}: looked in ${error.source}.`,
    };
  }
  if (error instanceof InvalidCredentialsError) {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `The OpenWeb credentials of spot ${error.spotId} in ${error.source} are not usable.`,
    };
  }
  if (error instanceof CredentialsUnavailableError) {
    return {
      status: 503,
      type: ProblemType.CREDENTIALS_UNAVAILABLE,
      title: 'Credentials unavailable',
      detail: "The spot's credentials could not be read; retry later.",
    };
  }
  if (error instanceof AuthRejectedError || error instanceof SpotForbiddenError) {
    return {
      status: 502,
      type: ProblemType.UPSTREAM_CREDENTIALS_REJECTED,
      title: 'Upstream rejected the credentials',
      detail: "OpenWeb refused this spot's configured credentials.",
    };
  }
  if (error instanceof ExportConflictError) {
    return {
      status: 409,
      type: ProblemType.UPSTREAM_EXPORT_IN_PROGRESS,
      title: 'Upstream export in progress',
      detail: 'OpenWeb is already running an export for this spot that was not started here; retry later.',
    };
  }
  if (error instanceof InvalidExportRequestError) {
    return {
      status: 422,
      type: ProblemType.UPSTREAM_REJECTED_REQUEST,
      title: 'Upstream rejected the request',
      detail: error.upstreamMessage ?? 'OpenWeb refused the export request.',
    };
  }
  if (error instanceof UpstreamRateLimitedError) {
    return {
      status: 503,
      type: ProblemType.UPSTREAM_RATE_LIMITED,
      title: 'Upstream rate limited',
      detail: 'OpenWeb is limiting requests; retry later.',
      ...(error.retryAfterMs !== undefined && {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterMs / MS_PER_SECOND))) },
      }),
    };
  }
  if (isUpstreamTimeout(error)) {
    return {
      status: 504,
      type: ProblemType.UPSTREAM_TIMEOUT,
      title: 'Upstream timeout',
      detail: 'OpenWeb did not answer in time; retry later.',
    };
  }
  if (error instanceof UpstreamUnavailableError || error instanceof TokenUnavailableError) {
    return {
      status: 503,
      type: ProblemType.UPSTREAM_UNAVAILABLE,
      title: 'Upstream unavailable',
      detail: 'OpenWeb could not be reached; retry later.',
    };
  }
  if (error instanceof UpstreamProtocolError) {
    return {
      status: 502,
      type: ProblemType.UPSTREAM_PROTOCOL_ERROR,
      title: 'Unexpected upstream answer',
      detail: 'OpenWeb answered in a way this service does not understand.',
    };
  }
  if (error instanceof OpenWebError) {
    return {
      status: 502,
      type: ProblemType.UPSTREAM_ERROR,
      title: 'Upstream error',
      detail: 'OpenWeb refused or failed the request.',
    };
  }
  return undefined;
}

/** The client's own per-attempt timeout aborts the fetch; its cause is the abort. */
function isUpstreamTimeout(error: unknown): boolean {
  if (error instanceof AmbiguousCreateError) return error.reason === AmbiguousCreateReason.TIMEOUT;
  if (!(error instanceof UpstreamUnavailableError) || error.statusCode !== undefined) return false;
  const causeName = (error.cause as { name?: unknown } | undefined)?.name;
  return causeName === 'AbortError' || causeName === 'TimeoutError';
}
