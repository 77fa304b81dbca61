import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidPaginationTokenError } from '../../../../lib/exports/record/errors';
import {
  decodePaginationToken,
  encodePaginationToken,
  nextTableKeyToken,
} from '../../../../lib/store/paginationToken';

const shape = {
  attributeNames: ['pk', 'sk'],
  fixedValues: { pk: 'SPOT#sp_a' },
  prefixes: { sk: 'EXPORT#' },
};

describe('paginationToken', () => {
  it('round-trips a key of the listing', () => {
    // Prepare
    const key = { pk: 'SPOT#sp_a', sk: 'EXPORT#ex_1' };

    // Act
    const decoded = decodePaginationToken(encodePaginationToken(key), shape);

    // Assess
    expect(decoded).toEqual(key);
  });

  it('is URL-safe', () => {
    // Act
    const token = encodePaginationToken({ pk: 'SPOT#sp_a', sk: 'EXPORT#ex_1?>>>' });

    // Assess
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('rejects an extra attribute', () => {
    // Prepare
    const token = encodePaginationToken({ pk: 'SPOT#sp_a', sk: 'EXPORT#ex_1', extra: 'x' });

    // Act / Assess
    expect(() => decodePaginationToken(token, shape)).toThrow(InvalidPaginationTokenError);
  });

  it('rejects every arbitrary string with InvalidPaginationTokenError and nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (token) => {
        // Act
        let outcome: unknown;
        try {
          outcome = decodePaginationToken(token, shape);
        } catch (error) {
          outcome = error;
        }

        // Assess
        expect(outcome).toBeInstanceOf(InvalidPaginationTokenError);
      }),
    );
  });
});

describe('nextTableKeyToken', () => {
  it('answers a token of the table key a page stopped at, which decodes back to it', () => {
    const { nextToken } = nextTableKeyToken({ pk: 'SPOT#sp_a', sk: 'ERASURE#er_1', other: 'dropped' });
    expect(nextToken).toBeDefined();
    expect(
      decodePaginationToken(nextToken ?? '', {
        attributeNames: ['pk', 'sk'],
        fixedValues: { pk: 'SPOT#sp_a' },
      }),
    ).toEqual({ pk: 'SPOT#sp_a', sk: 'ERASURE#er_1' });
  });

  it('answers no token on the last page', () => {
    expect(nextTableKeyToken(undefined)).toEqual({});
  });
});
