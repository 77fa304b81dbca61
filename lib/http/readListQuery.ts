import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { FieldProblem } from '../errors/problems';
import { MAX_LIST_LIMIT } from '../exports/lifecycle/listExports';
import { EXPORT_STATUSES, type ExportStatus, isExportStatus } from '../exports/record/ExportStatus';
import { invalidRequest, unknownFieldName } from './invalidRequest';

export interface ListQuery {
  limit?: number;
  nextToken?: string;
  status?: ExportStatus;
}

/** Longer than any token the store issues; a longer one is refused before it is decoded. */
export const MAX_NEXT_TOKEN_CHARS = 2048;
export const NEXT_TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;
const DECIMAL = /^\d{1,4}$/;
const KNOWN_PARAMETERS = new Set(['limit', 'nextToken', 'status']);

/** `?limit=1..100&nextToken=…&status=…`; unknown parameters are refused so a typo is not ignored. @throws ProblemError 400 */
export function readListQuery(event: APIGatewayProxyEventV2): ListQuery {
  const parameters = event.queryStringParameters ?? {};
  const problems: FieldProblem[] = [];
  const query: ListQuery = {};
  for (const [name, value = ''] of Object.entries(parameters)) {
    if (!KNOWN_PARAMETERS.has(name)) {
      problems.push({ field: unknownFieldName('query', name), message: 'is not a known parameter' });
    } else if (name === 'limit') {
      const limit = DECIMAL.test(value) ? Number(value) : Number.NaN;
      if (limit >= 1 && limit <= MAX_LIST_LIMIT) query.limit = limit;
      else problems.push({ field: 'query.limit', message: `must be an integer from 1 to ${MAX_LIST_LIMIT}` });
    } else if (name === 'nextToken') {
      if (value.length <= MAX_NEXT_TOKEN_CHARS && NEXT_TOKEN_PATTERN.test(value)) query.nextToken = value;
      else problems.push({ field: 'query.nextToken', message: 'is not a token of this listing' });
    } else if (isExportStatus(value)) {
      query.status = value;
    } else {
      problems.push({ field: 'query.status', message: `must be one of ${EXPORT_STATUSES.join(', ')}` });
    }
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return query;
}
