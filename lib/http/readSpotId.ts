import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { spotIdSchema } from '../exports/spotId';
import { headerValue } from './apiGatewayEvent';
import { invalidRequest } from './invalidRequest';

export const SPOT_ID_HEADER = 'x-spot-id';

/** The spot the caller acts for, from `x-spot-id`. @throws ProblemError 400 */
export function readSpotId(event: APIGatewayProxyEventV2): string {
  const field = `header.${SPOT_ID_HEADER}`;
  const value = headerValue(event, SPOT_ID_HEADER);
  if (value === undefined) throw invalidRequest([{ field, message: 'is required' }]);
  const parsed = spotIdSchema.safeParse(value);
  if (!parsed.success) {
    throw invalidRequest([{ field, message: parsed.error.issues[0]?.message ?? 'is not a spot id' }]);
  }
  return parsed.data;
}
