import type { UpstreamWaitKind } from './UpstreamWaitKind';

/**
 * What a failure met while creating an export means for it, by whether the create may have
 * reached the upstream:
 * - `deferred`: nothing reached the upstream and the cause is passing: try again later
 *   (`wait` says why; `retryAfterMs` when the upstream or the pacer said when);
 * - `refused`: the upstream (or the spot's configuration) said no: nothing was created;
 * - `ambiguous`: the create may have reached the upstream: recover, never re-send blindly.
 *   The safe answer for any error that cannot tell.
 */
export type CreateFailure =
  | { readonly kind: 'deferred'; readonly wait: UpstreamWaitKind; readonly retryAfterMs?: number }
  | { readonly kind: 'refused' }
  | { readonly kind: 'ambiguous' };

export type CreateFailureKind = CreateFailure['kind'];

export const CREATE_REFUSED: CreateFailure = Object.freeze({ kind: 'refused' });
export const CREATE_AMBIGUOUS: CreateFailure = Object.freeze({ kind: 'ambiguous' });

export function createDeferred(wait: UpstreamWaitKind, retryAfterMs?: number): CreateFailure {
  return retryAfterMs === undefined ? { kind: 'deferred', wait } : { kind: 'deferred', wait, retryAfterMs };
}
