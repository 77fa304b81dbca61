import type { Problem } from './problems';

/** Why a create the workflow could not send yet is waiting: the kinds a caller is told. */
export const UpstreamWaitKind = {
  THROTTLED: 'throttled',
  UNAVAILABLE: 'unavailable',
  AUTH_PACED: 'auth-paced',
  TIMEOUT: 'timeout',
} as const;

export type UpstreamWaitKind = (typeof UpstreamWaitKind)[keyof typeof UpstreamWaitKind];

/**
 * What a failure met while creating an export means for it, by whether the create may have
 * reached the upstream:
 * - `deferred`: nothing reached the upstream and the cause is passing: try again later
 *   (`wait` says why; `retryAfterMs` when the upstream or the pacer said when);
 * - `refused`: the upstream (or the spot's configuration) said no: nothing was created;
 *   `requestRejected` when it refused the request itself (sending it again would be refused again),
 *   rather than the spot's credentials or access, which an operator may fix;
 * - `ambiguous`: the create may have reached the upstream: recover, never re-send blindly.
 *   The safe answer for any error that cannot tell.
 */
export type CreateFailure =
  | { readonly kind: 'deferred'; readonly wait: UpstreamWaitKind; readonly retryAfterMs?: number }
  | { readonly kind: 'refused'; readonly requestRejected?: true }
  | { readonly kind: 'ambiguous' };

export type CreateFailureKind = CreateFailure['kind'];

export const CREATE_REFUSED: CreateFailure = Object.freeze({ kind: 'refused' });
/** The upstream refused the request itself: the same request would be refused again. */
export const CREATE_REQUEST_REJECTED: CreateFailure = Object.freeze({
  kind: 'refused',
  requestRejected: true,
});
export const CREATE_AMBIGUOUS: CreateFailure = Object.freeze({ kind: 'ambiguous' });

export function createDeferred(wait: UpstreamWaitKind, retryAfterMs?: number): CreateFailure {
  return retryAfterMs === undefined ? { kind: 'deferred', wait } : { kind: 'deferred', wait, retryAfterMs };
}

/**
 * An error that says itself what it means, so no caller keeps a list of classes: whether
 * trying again later may help, what it means for a create, and what an API caller is shown.
 * The error classes of the domain and its adapters extend it; anything else is an unknown
 * error, which callers judge by its shape (an AWS fault, a network code) or treat as a
 * generic failure.
 */
export abstract class ClassifiedError extends Error {
  /**
   * Passing trouble (throttling, an outage, an unreadable answer): worth another attempt on the
   * caller's own schedule. False for refusals and for errors that already carry a decision
   * (the workflow's own errors, which the state machine acts on by name).
   */
  abstract readonly retryable: boolean;

  /** What this failure means when it ended a create: whether the create may have reached the upstream. */
  abstract readonly createFailure: CreateFailure;

  /**
   * The problem an API caller is shown: its type and the data it is told from (this error's own
   * fields, never its message), read through the table of ./problems.ts; undefined when the
   * caller may only see a generic 500.
   */
  abstract readonly problem: Problem | undefined;

  /**
   * How loud this failure is in the logs when it ends an invocation: `info` for an outcome a
   * caller acts on by design (the workflow's own errors), `warn` for a failure someone may need to
   * look at, `error` for the unexpected (the alarm counts ERROR lines). Unless a class says otherwise: `error`.
   */
  get logLevel(): LogLevel {
    return 'error';
  }

  /** What may be stored on an export and shown about this failure: its kind and message, never a body or a key. */
  get failureReason(): string {
    return `${this.name}: ${this.message}`;
  }
}

/** The log levels an error may ask for. */
export type LogLevel = 'info' | 'warn' | 'error';

export function isClassified(error: unknown): error is ClassifiedError {
  return error instanceof ClassifiedError;
}

/**
 * Base of this service's own errors (its domain, store, workflow, events and archives; not the
 * upstream's nor the credentials'). Unless a subclass says otherwise: not passing trouble, nothing
 * an API caller is shown (a generic 500), and ambiguous for a create (the safe answer: they say
 * nothing about the upstream).
 */
export abstract class ServiceError extends ClassifiedError {
  get retryable(): boolean {
    return false;
  }

  get createFailure(): CreateFailure {
    return CREATE_AMBIGUOUS;
  }

  get problem(): Problem | undefined {
    return undefined;
  }
}
