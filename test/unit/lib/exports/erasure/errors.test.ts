import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../../lib/errors/problems';
import {
  ErasureAlreadyExistsError,
  ErasureChangedError,
  InvalidUserIdError,
} from '../../../../../lib/exports/erasure/errors';

describe('erasure errors', () => {
  it('answer a malformed user id as an invalid request naming the field, and are not retryable', () => {
    const error = new InvalidUserIdError();
    expect(error.problem).toMatchObject({
      type: ProblemType.INVALID_REQUEST,
      errors: [{ field: 'body.userId' }],
    });
    expect(error.retryable).toBe(false);
    expect(error.name).toBe('InvalidUserIdError');
  });

  it('carry the record that stands', () => {
    expect(new ErasureAlreadyExistsError(undefined).existing).toBeUndefined();
    expect(new ErasureChangedError('sp_a', 'er_1', undefined).message).toContain('er_1');
  });
});
