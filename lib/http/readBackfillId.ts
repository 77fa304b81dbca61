import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType } from '../errors/problems';
import { isValidBackfillId } from '../exports/backfill/BackfillRecord';
import { ProblemError } from './ProblemError';

/** The `{backfillId}` path parameter. A malformed id is simply not found. @throws ProblemError 404 */
export function readBackfillId(event: APIGatewayProxyEventV2): string {
  const backfillId = event.pathParameters?.backfillId;
  if (!isValidBackfillId(backfillId)) throw new ProblemError({ type: ProblemType.BACKFILL_NOT_FOUND });
  return backfillId;
}
