import { describe, expect, it } from 'vitest';
import {
  CREATE_AMBIGUOUS,
  CREATE_REFUSED,
  CREATE_REQUEST_REJECTED,
  createDeferred,
  isClassified,
  ServiceError,
  UpstreamWaitKind,
} from '../../../../lib/errors/ClassifiedError';

class PlainServiceError extends ServiceError {
  override name = 'PlainServiceError';
}

describe('ClassifiedError', () => {
  it('a service error is, unless it says otherwise, lasting, ambiguous for a create, never shown, and logged at ERROR', () => {
    // Act
    const error = new PlainServiceError('the table is gone');

    // Assess
    expect(isClassified(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.createFailure).toBe(CREATE_AMBIGUOUS);
    expect(error.problem).toBeUndefined();
    expect(error.logLevel).toBe('error');
    expect(error.failureReason).toBe('PlainServiceError: the table is gone');
  });

  it('tells classified errors from any other thrown value', () => {
    // Act / Assess
    expect(isClassified(new Error('plain'))).toBe(false);
    expect(isClassified('a string')).toBe(false);
    expect(isClassified(undefined)).toBe(false);
  });

  it('a deferred create says why it waits, and for how long only when known', () => {
    // Act / Assess
    expect(createDeferred(UpstreamWaitKind.THROTTLED, 1500)).toEqual({
      kind: 'deferred',
      wait: 'throttled',
      retryAfterMs: 1500,
    });
    expect(createDeferred(UpstreamWaitKind.TIMEOUT)).toEqual({ kind: 'deferred', wait: 'timeout' });
    expect(createDeferred(UpstreamWaitKind.TIMEOUT)).not.toHaveProperty('retryAfterMs');
  });

  it('the fixed create failures cannot be changed by whoever holds them', () => {
    // Act / Assess
    expect(CREATE_REFUSED).toEqual({ kind: 'refused' });
    expect(CREATE_REQUEST_REJECTED).toEqual({ kind: 'refused', requestRejected: true });
    for (const failure of [CREATE_REFUSED, CREATE_REQUEST_REJECTED, CREATE_AMBIGUOUS]) {
      expect(Object.isFrozen(failure)).toBe(true);
    }
  });
});
