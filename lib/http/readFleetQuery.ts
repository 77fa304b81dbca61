import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { FieldProblem } from '../errors/problems';
import { MAX_FLEET_PAGE_SPOTS } from '../exports/fleet/fleetStatus';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../exports/record/spotId';
import { invalidRequest, unknownFieldName } from './invalidRequest';
import { MAX_NEXT_TOKEN_CHARS, NEXT_TOKEN_PATTERN } from './readListQuery';

export interface FleetRequest {
  limit?: number;
  nextToken?: string;
  /** `spotId=a,b` (or repeated): only these spots, each of which must be known. */
  spotIds?: string[];
}

const DECIMAL = /^\d{1,4}$/;
const KNOWN_PARAMETERS = new Set(['limit', 'nextToken', 'spotId']);
/** The most spots one request may name. */
export const MAX_FLEET_QUERY_SPOTS = 100;

/** `GET /spots?limit=&nextToken=&spotId=`; unknown parameters are refused. @throws ProblemError 400 */
export function readFleetQuery(event: APIGatewayProxyEventV2): FleetRequest {
  const problems: FieldProblem[] = [];
  const query: FleetRequest = {};
  for (const [name, value = ''] of Object.entries(event.queryStringParameters ?? {})) {
    if (!KNOWN_PARAMETERS.has(name)) {
      problems.push({ field: unknownFieldName('query', name), message: 'is not a known parameter' });
    } else if (name === 'limit') {
      const limit = DECIMAL.test(value) ? Number(value) : Number.NaN;
      if (limit >= 1 && limit <= MAX_FLEET_PAGE_SPOTS) query.limit = limit;
      else
        problems.push({
          field: 'query.limit',
          message: `must be an integer from 1 to ${MAX_FLEET_PAGE_SPOTS}`,
        });
    } else if (name === 'nextToken') {
      if (value.length <= MAX_NEXT_TOKEN_CHARS && NEXT_TOKEN_PATTERN.test(value)) query.nextToken = value;
      else problems.push({ field: 'query.nextToken', message: 'is not a token of this listing' });
    } else {
      // API Gateway joins a repeated parameter's values with commas.
      const spotIds = [...new Set(value.split(','))];
      if (spotIds.length > MAX_FLEET_QUERY_SPOTS)
        problems.push({ field: 'query.spotId', message: `may name at most ${MAX_FLEET_QUERY_SPOTS} spots` });
      else if (!spotIds.every((spotId) => SPOT_ID_PATTERN.test(spotId)))
        problems.push({ field: 'query.spotId', message: SPOT_ID_MESSAGE });
      else query.spotIds = spotIds;
    }
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return query;
}
