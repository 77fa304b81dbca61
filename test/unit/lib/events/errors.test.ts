import { describe, expect, it } from 'vitest';
import { isClassified } from '../../../../lib/errors/ClassifiedError';
import { ExportEventPublishError, InvalidScheduledExportEventError } from '../../../../lib/events/errors';

describe('event errors', () => {
  it("ExportEventPublishError keeps EventBridge's error code and names the export, never shown to a caller", () => {
    // Act
    const coded = new ExportEventPublishError('ex_1', 'ThrottlingException');
    const uncoded = new ExportEventPublishError('ex_2', undefined);

    // Assess
    expect(coded.errorCode).toBe('ThrottlingException');
    expect(coded.message).toContain('ex_1');
    expect(coded.message).toContain('ThrottlingException');
    expect(uncoded.errorCode).toBeUndefined();
    expect(uncoded.message).toContain('no error code');
    expect(isClassified(coded) && coded.problem).toBeUndefined();
    expect(uncoded.retryable).toBe(false);
  });

  it.each([
    ['ThrottlingException', true],
    ['InternalFailure', true],
    ['MalformedDetail', false],
    ['AccessDeniedException', false],
  ])('ExportEventPublishError for an entry refused with %s is passing: %s', (code, passing) => {
    // Act
    const error = new ExportEventPublishError('ex_1', code, 3);

    // Assess
    expect(error.retryable).toBe(passing);
    expect(error.sends).toBe(3);
    expect(error.message).toContain('3 send(s)');
  });

  it('InvalidScheduledExportEventError lists every problem of the schedule input', () => {
    // Act
    const error = new InvalidScheduledExportEventError(['spotId is missing', 'windowHours is not a number']);

    // Assess
    expect(error.name).toBe('InvalidScheduledExportEventError');
    expect(error.problems).toEqual(['spotId is missing', 'windowHours is not a number']);
    expect(error.message).toBe(
      'Invalid scheduled export event: spotId is missing; windowHours is not a number',
    );
    expect(error.retryable).toBe(false);
  });
});
