import type { MiddlewareObj, Request } from '@middy/core';
import { ProblemType } from '../errors/problems';
import { isApiGatewayEvent } from './apiGatewayEvent';
import { claimValues, jwtClaimsOf } from './jwtClaimValues';
import { ProblemError } from './ProblemError';
import { readSpotId } from './readSpotId';

export interface SpotAuthorizationOptions {
  /**
   * The JWT claim listing the spots a caller may act for; undefined turns the check off
   * (IAM mode, local mode). Asked per request, so a bad configuration is reported inside
   * an invocation like any other.
   */
  spotClaim: () => string | undefined;
}

/**
 * Per-spot authorization of API requests in JWT mode: with a spot claim configured, a
 * request whose verified JWT claims do not list its spot (`x-spot-id`, or the `{spotId}` of its
 * path) is refused with 403
 * before anything is read or called. No claims at all (no JWT authorizer) is refused too.
 */
export function spotAuthorization(options: SpotAuthorizationOptions): MiddlewareObj {
  function authorizeSpot(request: Request): void {
    const { event } = request;
    if (!isApiGatewayEvent(event)) return;
    const spotClaim = options.spotClaim();
    if (spotClaim === undefined) return;
    const spotId = readSpotId(event);
    const allowedSpots = claimValues(jwtClaimsOf(event)?.[spotClaim]);
    if (!allowedSpots.includes(spotId)) throw spotNotAllowed();
  }

  return { before: authorizeSpot };
}

/** Says neither which spots the token lists nor whether the spot exists. */
function spotNotAllowed(): ProblemError {
  return new ProblemError({
    status: 403,
    type: ProblemType.SPOT_NOT_ALLOWED,
    title: 'Spot not allowed',
    detail: "The caller's token does not grant access to the spot named in x-spot-id or the path.",
  });
}
