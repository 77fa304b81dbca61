import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../../lib/errors/problems';
import {
  ErasureAlreadyExistsError,
  ErasureChangedError,
  ErasureNotFoundError,
} from '../../../../../lib/exports/erasure/errors';

describe('erasure errors', () => {
  it('answer an unknown erasure as erasure-not-found, and are not retryable', () => {
    const error = new ErasureNotFoundError('sp_a', 'er_1');
    expect(error.problem).toEqual({ type: ProblemType.ERASURE_NOT_FOUND });
    expect(error.retryable).toBe(false);
    expect(error.name).toBe('ErasureNotFoundError');
  });

  it('carry the record that stands', () => {
    expect(new ErasureAlreadyExistsError(undefined).existing).toBeUndefined();
    expect(new ErasureChangedError('sp_a', 'er_1', undefined).message).toContain('er_1');
  });
});
