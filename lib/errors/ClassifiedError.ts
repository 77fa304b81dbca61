import type { CreateFailure } from './CreateFailure';
import type { ProblemInit } from './ProblemInit';

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
   * The problem an API caller is shown, its detail built from this error's own fields, never
   * its message; undefined when the caller may only see a generic 500.
   */
  abstract readonly problem: ProblemInit | undefined;

  /** What may be stored on an export and shown about this failure: its kind and message, never a body or a key. */
  get failureReason(): string {
    return `${this.name}: ${this.message}`;
  }
}

export function isClassified(error: unknown): error is ClassifiedError {
  return error instanceof ClassifiedError;
}
