import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../exports/spotId';
import { headerValue } from './apiGatewayEvent';
import { invalidRequest } from './invalidRequest';

export const SPOT_ID_HEADER = 'x-spot-id';

/** The spot the caller acts for, from `x-spot-id`. @throws ProblemError 400 */
export function readSpotId(event: APIGatewayProxyEventV2): string {
  const field = `header.${SPOT_ID_HEADER}`;
  const value = headerValue(event, SPOT_ID_HEADER);
  if (value === undefined) throw invalidRequest([{ field, message: 'is required' }]);
  if (!SPOT_ID_PATTERN.test(value)) throw invalidRequest([{ field, message: SPOT_ID_MESSAGE }]);
  return value;
}
