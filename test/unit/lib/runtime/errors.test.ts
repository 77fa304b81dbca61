import { describe, expect, it } from 'vitest';
import { isClassified } from '../../../../lib/errors/ClassifiedError';
import { UnrecognisedEventError } from '../../../../lib/runtime/errors';

describe('UnrecognisedEventError', () => {
  it('names the handler and nothing of the event, and is no classified error (a 500 if it ever reached the API)', () => {
    // Act
    const error = new UnrecognisedEventError('workflow-task');

    // Assess
    expect(error.name).toBe('UnrecognisedEventError');
    expect(error.handlerName).toBe('workflow-task');
    expect(error.message).toBe('The workflow-task handler received an event of no source it serves');
    expect(isClassified(error)).toBe(false);
  });
});
