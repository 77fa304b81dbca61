import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isValidExportId } from '../exports/record/exportId';
import { exportNotFound } from './exportNotFound';

/** The `{exportId}` path parameter. A malformed id is simply not found. @throws ProblemError 404 */
export function readExportId(event: APIGatewayProxyEventV2): string {
  const exportId = event.pathParameters?.exportId;
  if (!isValidExportId(exportId)) throw exportNotFound();
  return exportId;
}
