import {
  CREATE_AMBIGUOUS,
  type CreateFailure,
  type CreateFailureKind,
  isClassified,
  UpstreamWaitKind,
} from '../../errors/ClassifiedError';
import { CREATE_REFUSED_REASON_PREFIX, REQUEST_REJECTED_REASON_PREFIX } from '../record/failureReasons';

/** What a failed create attempt means for the export, as the error says; ambiguous for an unknown error. */
function createFailureOf(error: unknown): CreateFailure {
  return isClassified(error) ? error.createFailure : CREATE_AMBIGUOUS;
}

/**
 * - `deferred`: nothing reached the upstream and the cause is passing: try again later;
 * - `refused`: the upstream (or the spot's configuration) said no: nothing was created;
 * - `ambiguous`: the create may have reached the upstream: recover, never re-send blindly.
 */
export function createFailureKind(error: unknown): CreateFailureKind {
  return createFailureOf(error).kind;
}

/** Why a deferred create waits, in the words a caller is shown. */
export function upstreamWaitKindOf(error: unknown): UpstreamWaitKind {
  const failure = createFailureOf(error);
  return failure.kind === 'deferred' ? failure.wait : UpstreamWaitKind.UNAVAILABLE;
}

/** When the upstream (or the pacer) said the next attempt may go, in epoch ms; undefined when it did not say. */
export function retryAtMsOf(error: unknown, nowMs: number): number | undefined {
  const failure = createFailureOf(error);
  if (failure.kind !== 'deferred' || failure.retryAfterMs === undefined) return undefined;
  return nowMs + failure.retryAfterMs;
}

/** Whether a refused create was refused for the request itself (the same request would be refused again). */
export function isRequestRejected(error: unknown): boolean {
  const failure = createFailureOf(error);
  return failure.kind === 'refused' && failure.requestRejected === true;
}

/** The failure reason of an export whose create was refused, beginning with what kind of refusal it was. */
export function refusalReason(error: unknown): string {
  return `${isRequestRejected(error) ? REQUEST_REJECTED_REASON_PREFIX : CREATE_REFUSED_REASON_PREFIX}${describeCreateFailure(error)}`;
}

/** A reason safe to store and show: the error's kind and message, never a body or a key. */
export function describeCreateFailure(error: unknown): string {
  if (isClassified(error)) return error.failureReason;
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}
