import { ClassifiedError, CREATE_AMBIGUOUS, type CreateFailure } from '../errors/ClassifiedError';
import type { ProblemInit } from '../errors/problems';

/**
 * An error meant for the API caller, rendered as `application/problem+json`
 * (RFC 9457). Anything that is not a ProblemError never reaches the caller as is.
 */
export class ProblemError extends ClassifiedError {
  readonly problem: ProblemInit;

  constructor(problem: ProblemInit, options?: ErrorOptions) {
    super(problem.detail ?? problem.title, options);
    this.name = 'ProblemError';
    this.problem = problem;
  }

  get retryable(): boolean {
    return false;
  }

  /** Never met while creating upstream; ambiguous is the safe answer for what cannot tell. */
  get createFailure(): CreateFailure {
    return CREATE_AMBIGUOUS;
  }
}
