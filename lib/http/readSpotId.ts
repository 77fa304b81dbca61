import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../exports/record/spotId';
import { headerValue } from './apiGatewayEvent';
import { invalidRequest } from './invalidRequest';

export const SPOT_ID_HEADER = 'x-spot-id';

/**
 * The spot the caller acts for: the `{spotId}` of a route under `/spots/{spotId}`, else
 * `x-spot-id`. Where both are sent they must name the same spot, so the spot the authorization
 * checks is always the spot acted on. Checked with the pattern, not a schema: list and files
 * bundle no zod. @throws ProblemError 400
 */
export function readSpotId(event: APIGatewayProxyEventV2): string {
  const header = headerValue(event, SPOT_ID_HEADER);
  const inPath = event.pathParameters?.spotId;
  if (inPath !== undefined) {
    const spotId = parsedSpotId(inPath, 'path.spotId');
    if (header !== undefined && header !== spotId) {
      throw invalidRequest([
        { field: `header.${SPOT_ID_HEADER}`, message: 'must name the spot of the path, or be left out' },
      ]);
    }
    return spotId;
  }
  const field = `header.${SPOT_ID_HEADER}`;
  if (header === undefined) throw invalidRequest([{ field, message: 'is required' }]);
  return parsedSpotId(header, field);
}

function parsedSpotId(value: string, field: string): string {
  if (!SPOT_ID_PATTERN.test(value)) throw invalidRequest([{ field, message: SPOT_ID_MESSAGE }]);
  return value;
}
