import type { ProblemInit } from '../../lib/errors/problems';
import { problemResponse } from '../../lib/http/problemResponse';
import type { LocalHttpResponse } from './httpResponseFromResult';

/** An RFC 9457 answer of the local transport itself (404, 405, 413…), as the API's own problems look. */
export function localProblem(problem: ProblemInit): LocalHttpResponse {
  const response = problemResponse(problem);
  return {
    statusCode: problem.status,
    headers: Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
    ),
    body: Buffer.from(response.body ?? '', 'utf8'),
  };
}

/** A JSON answer of a local-only route. */
export function localJson(statusCode: number, body: unknown): LocalHttpResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}
