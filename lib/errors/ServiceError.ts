import { ClassifiedError } from './ClassifiedError';
import { CREATE_AMBIGUOUS, type CreateFailure } from './CreateFailure';
import type { ProblemInit } from './ProblemInit';

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

  get problem(): ProblemInit | undefined {
    return undefined;
  }
}
