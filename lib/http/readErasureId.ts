import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType } from '../errors/problems';
import { isValidErasureId } from '../exports/erasure/ErasureRecord';
import { ProblemError } from './ProblemError';

/** The `{erasureId}` path parameter. A malformed id is simply not found. @throws ProblemError 404 */
export function readErasureId(event: APIGatewayProxyEventV2): string {
  const erasureId = event.pathParameters?.erasureId;
  if (!isValidErasureId(erasureId)) throw new ProblemError({ type: ProblemType.ERASURE_NOT_FOUND });
  return erasureId;
}
