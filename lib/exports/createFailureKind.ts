import {
  AuthRejectedError,
  ExportConflictError,
  InvalidExportRequestError,
  InvalidSpotIdError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamAuthPacedError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from '../openweb/errors';
import { CredentialsError, CredentialsUnavailableError } from '../secrets/errors';
import { UpstreamWaitKind } from './ExportRecord';

/**
 * What a failed create attempt means for the export:
 * - `deferred`: nothing reached the upstream and the cause is passing: try again later;
 * - `refused`: the upstream (or the spot's configuration) said no: nothing was created;
 * - `ambiguous`: the create may have reached the upstream: recover, never re-send blindly.
 */
export type CreateFailureKind = 'deferred' | 'refused' | 'ambiguous';

export function createFailureKind(error: unknown): CreateFailureKind {
  if (isDeferred(error)) return 'deferred';
  if (isRefusal(error)) return 'refused';
  return 'ambiguous';
}

/** The client reports every maybe-sent create as AmbiguousCreateError; these mean nothing went out. */
function isDeferred(error: unknown): boolean {
  return (
    error instanceof UpstreamUnavailableError ||
    error instanceof UpstreamRateLimitedError ||
    error instanceof TokenUnavailableError ||
    error instanceof CredentialsUnavailableError ||
    error instanceof UpstreamAuthPacedError
  );
}

/** The upstream (or our credentials) said no: nothing was created. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof InvalidExportRequestError ||
    error instanceof ExportConflictError ||
    error instanceof SpotForbiddenError ||
    error instanceof AuthRejectedError ||
    error instanceof InvalidSpotIdError ||
    error instanceof UpstreamRequestRejectedError ||
    (error instanceof CredentialsError && !(error instanceof CredentialsUnavailableError))
  );
}

/** Why a deferred create waits, in the words a caller is shown. */
export function upstreamWaitKindOf(error: unknown): UpstreamWaitKind {
  if (error instanceof UpstreamAuthPacedError) return UpstreamWaitKind.AUTH_PACED;
  if (error instanceof UpstreamRateLimitedError) return UpstreamWaitKind.THROTTLED;
  if (error instanceof UpstreamUnavailableError && error.statusCode === undefined) {
    const causeName = (error.cause as { name?: unknown } | undefined)?.name;
    if (causeName === 'AbortError' || causeName === 'TimeoutError') return UpstreamWaitKind.TIMEOUT;
  }
  if (error instanceof TokenUnavailableError && error.cause instanceof UpstreamRateLimitedError)
    return UpstreamWaitKind.THROTTLED;
  return UpstreamWaitKind.UNAVAILABLE;
}

/** When the upstream (or the pacer) said the next attempt may go, in epoch ms; undefined when it did not say. */
export function retryAtMsOf(error: unknown, nowMs: number): number | undefined {
  if (error instanceof UpstreamRateLimitedError || error instanceof UpstreamAuthPacedError) {
    return error.retryAfterMs === undefined ? undefined : nowMs + error.retryAfterMs;
  }
  return undefined;
}

/** A reason safe to store and show: the error's kind and message, never a body or a key. */
export function describeCreateFailure(error: unknown): string {
  if (error instanceof CredentialsError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}
