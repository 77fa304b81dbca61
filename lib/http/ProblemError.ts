import { ClassifiedError, CREATE_AMBIGUOUS, type CreateFailure } from '../errors/ClassifiedError';
import type { Problem } from '../errors/problems';

/**
 * A refusal of the API's own (a bad header, a body too large, a spot not allowed), rendered as
 * `application/problem+json` (RFC 9457) like the domain's errors, from the problems' table.
 */
export class ProblemError extends ClassifiedError {
  override name = 'ProblemError';
  readonly problem: Problem;

  constructor(problem: Problem, options?: ErrorOptions) {
    super(`The request was refused: ${problem.type}`, options);
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
