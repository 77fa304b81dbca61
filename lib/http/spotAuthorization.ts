import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType } from '../errors/problems';
import { isApiGatewayEvent } from './apiGatewayEvent';
import { iamPrincipalOf, principalKey } from './iamPrincipal';
import { claimValues, jwtClaimsOf } from './jwtClaimValues';
import { ProblemError } from './ProblemError';
import { readSpotId } from './readSpotId';
import { FLEET_ROUTE_KEYS } from './routeTable';

/** IAM mode: the spots each role or user may use, keyed by its ARN (`arn:…:iam::<account>:role/<name>`). */
export type SpotsByPrincipal = Readonly<Record<string, readonly string[]>>;

export interface SpotAuthorizationOptions {
  /**
   * The JWT claim listing the spots a caller may act for (JWT mode); undefined: no claim
   * check. Asked per request, so a bad configuration is reported inside an invocation like
   * any other.
   */
  spotClaim: () => string | undefined;
  /**
   * The spots each IAM role or user may act for (IAM mode); undefined: no principal check.
   * Without either, any authorized caller may use any spot (and locally there is no caller).
   */
  spotsByPrincipal?: () => SpotsByPrincipal | undefined;
}

/**
 * Per-spot authorization of API requests, before anything is read or called: in JWT mode with
 * a spot claim, a request whose verified claims do not list its `x-spot-id` is refused with
 * 403 (its spot: `x-spot-id`, or the `{spotId}` of its path); in IAM mode with a principal map, a request whose verified signer (a role, through any
 * of its sessions, or a user) is not mapped to its `x-spot-id` is. Both fail closed: a request
 * without claims, or without an IAM signer the map names, is refused too.
 */
export function spotAuthorization(options: SpotAuthorizationOptions): MiddlewareObj {
  function authorizeSpot(request: Request): void {
    const { event } = request;
    if (!isApiGatewayEvent(event)) return;
    const spotClaim = options.spotClaim();
    const spotsByPrincipal = options.spotsByPrincipal?.();
    if (spotClaim === undefined && spotsByPrincipal === undefined) return;
    // A fleet-wide read names no spot: its handler answers with the caller's spots only.
    if (FLEET_ROUTE_KEYS.includes(event.routeKey)) return;
    const spotId = readSpotId(event);
    if (spotClaim !== undefined && !claimValues(jwtClaimsOf(event)?.[spotClaim]).includes(spotId)) {
      throw spotNotAllowed();
    }
    if (spotsByPrincipal !== undefined && !spotsOfSigner(event, spotsByPrincipal).includes(spotId)) {
      throw spotNotAllowed();
    }
  }

  return { before: authorizeSpot };
}

/**
 * The spots a caller may see in a fleet-wide answer: those its verified claims list (JWT mode),
 * those the map gives its signer (IAM mode), both when both are set; undefined without a per-spot
 * mode (every spot). Fails closed: without claims or a mapped signer, none.
 */
export function allowedSpotsOf(
  event: APIGatewayProxyEventV2,
  options: { spotClaim: string | undefined; spotsByPrincipal: SpotsByPrincipal | undefined },
): ReadonlySet<string> | undefined {
  const { spotClaim, spotsByPrincipal } = options;
  if (spotClaim === undefined && spotsByPrincipal === undefined) return undefined;
  const claimed = spotClaim === undefined ? undefined : claimValues(jwtClaimsOf(event)?.[spotClaim]);
  const mapped = spotsByPrincipal === undefined ? undefined : spotsOfSigner(event, spotsByPrincipal);
  const both =
    claimed === undefined
      ? mapped
      : mapped === undefined
        ? claimed
        : claimed.filter((spot) => mapped.includes(spot));
  return new Set(both ?? []);
}

/** The spots the map gives the request's IAM signer (a role through any of its sessions, or a user). */
function spotsOfSigner(event: APIGatewayProxyEventV2, spotsByPrincipal: SpotsByPrincipal): readonly string[] {
  const signer = iamPrincipalOf(event);
  if (signer === undefined) return [];
  return Object.entries(spotsByPrincipal)
    .filter(([arn]) => principalKey(arn) === signer)
    .flatMap(([, spots]) => spots);
}

/** Says neither which spots the caller may use nor whether the spot exists. */
function spotNotAllowed(): ProblemError {
  return new ProblemError({ type: ProblemType.SPOT_NOT_ALLOWED });
}
