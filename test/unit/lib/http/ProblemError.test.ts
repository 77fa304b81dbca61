import { describe, expect, it } from 'vitest';
import { CREATE_AMBIGUOUS, isClassified } from '../../../../lib/errors/ClassifiedError';
import { ProblemError } from '../../../../lib/http/ProblemError';

describe('ProblemError', () => {
  it('carries the problem shown to the caller, its detail as the message, or its title when it has none', () => {
    // Prepare
    const problem = {
      status: 404,
      type: 'export-not-found',
      title: 'Export not found',
      detail: 'No such export',
    } as const;

    // Act
    const withDetail = new ProblemError(problem);
    const titleOnly = new ProblemError({ status: 415, title: 'Unsupported media type' });

    // Assess
    expect(withDetail.problem).toBe(problem);
    expect(withDetail.message).toBe('No such export');
    expect(titleOnly.message).toBe('Unsupported media type');
    expect(withDetail.name).toBe('ProblemError');
  });

  it('classifies itself as lasting, and as ambiguous should it ever meet a create', () => {
    // Act
    const error = new ProblemError({ status: 400, title: 'Invalid request' }, { cause: new Error('x') });

    // Assess
    expect(isClassified(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.createFailure).toBe(CREATE_AMBIGUOUS);
    expect(error.cause).toEqual(new Error('x'));
  });
});
