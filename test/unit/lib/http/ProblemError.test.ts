import { describe, expect, it } from 'vitest';
import { CREATE_AMBIGUOUS, isClassified } from '../../../../lib/errors/ClassifiedError';
import { ProblemType } from '../../../../lib/errors/problems';
import { ProblemError } from '../../../../lib/http/ProblemError';
import { problemForError } from '../../../../lib/http/problemForError';

describe('ProblemError', () => {
  it('carries the problem as type and data, and names its type in the message', () => {
    // Prepare
    const problem = { type: ProblemType.PAYLOAD_TOO_LARGE, maxBodyBytes: 1024 } as const;

    // Act
    const error = new ProblemError(problem);

    // Assess
    expect(error.problem).toBe(problem);
    expect(error.message).toBe('The request was refused: payload-too-large');
    expect(error.name).toBe('ProblemError');
  });

  it('renders through the problems table, the data filling in the detail', () => {
    // Act
    const rendered = problemForError(
      new ProblemError({ type: ProblemType.PAYLOAD_TOO_LARGE, maxBodyBytes: 1024 }),
    );
    const unsupported = problemForError(new ProblemError({ type: ProblemType.UNSUPPORTED_MEDIA_TYPE }));

    // Assess
    expect(rendered?.status).toBe(413);
    expect(rendered?.type).toBe('payload-too-large');
    expect(rendered?.detail).toContain('1024');
    expect(unsupported?.status).toBe(415);
  });

  it('classifies itself as lasting, and as ambiguous should it ever meet a create', () => {
    // Act
    const error = new ProblemError(
      { type: ProblemType.INVALID_REQUEST, errors: [{ field: 'body.from', message: 'required' }] },
      { cause: new Error('x') },
    );

    // Assess
    expect(isClassified(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.createFailure).toBe(CREATE_AMBIGUOUS);
    expect(error.cause).toEqual(new Error('x'));
  });
});
