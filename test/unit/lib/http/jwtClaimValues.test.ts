import { describe, expect, it } from 'vitest';
import { claimValues, jwtClaimsOf } from '../../../../lib/http/jwtClaimValues';
import { apiEvent } from '../../../support/apiGatewayEvents';

describe('jwtClaimsOf', () => {
  it("reads the JWT authorizer's claims, and nothing from an event without them", () => {
    // Prepare
    const event = apiEvent();
    const withJwt = {
      ...event,
      requestContext: { ...event.requestContext, authorizer: { jwt: { claims: { sub: 'u1' }, scopes: [] } } },
    };

    // Act / Assess
    expect(jwtClaimsOf(withJwt as never)).toEqual({ sub: 'u1' });
    expect(jwtClaimsOf(event)).toBeUndefined();
    expect(
      jwtClaimsOf({
        ...event,
        requestContext: { ...event.requestContext, authorizer: { jwt: { claims: [] } } },
      } as never),
    ).toBeUndefined();
  });
});

describe('claimValues', () => {
  it.each([
    ['API Gateway’s bracketed list', '[sp_a sp_b]', ['sp_a', 'sp_b']],
    ['a JSON array in a string', '["sp_a","sp_b"]', ['sp_a', 'sp_b']],
    ['a comma list', 'sp_a, sp_b', ['sp_a', 'sp_b']],
    ['a space list', ' sp_a  sp_b ', ['sp_a', 'sp_b']],
    ['one value', 'sp_a', ['sp_a']],
    ['an array claim', ['sp_a', 'sp_b c', 3], ['sp_a', 'sp_b', 'c']],
    ['an empty list', '[]', []],
    ['a number', 42, []],
    ['nothing', undefined, []],
  ])('reads %s', (_shape, claim, values) => {
    // Act / Assess
    expect(claimValues(claim)).toEqual(values);
  });
});
