import { describe, expect, it } from 'vitest';
import { readIdempotencyKey } from '../../../../lib/http/readIdempotencyKey';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readIdempotencyKey', () => {
  it('reads the key into its own namespace, apart from the scheduler keys', () => {
    // Act / Assess
    expect(readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': 'schedule:P1D:x' } }))).toBe(
      'api:schedule:P1D:x',
    );
    expect(readIdempotencyKey(apiEvent())).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a control character', 'key\u0000'],
    ['not ASCII', 'clé'],
  ])('answers 400 for a key that is %s', (_, key) => {
    // Act
    const problem = problemOf(() => readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': key } })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field: 'header.idempotency-key' }] });
  });

  it('accepts 255 printable characters', () => {
    // Prepare
    const key = '~'.repeat(255);

    // Act / Assess
    expect(readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': key } }))).toBe(`api:${key}`);
  });
});
