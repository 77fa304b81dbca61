import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ProblemInit } from '../errors/problems';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const PROBLEM_TYPE_BASE = '/problems/';

/** The RFC 9457 body and headers for a problem. */
export function problemResponse(problem: ProblemInit, instance?: string): APIGatewayProxyStructuredResultV2 {
  const body: Record<string, unknown> = {
    ...problem.extensions,
    type: problem.type ? `${PROBLEM_TYPE_BASE}${problem.type}` : 'about:blank',
    title: problem.title,
    status: problem.status,
  };
  if (problem.detail !== undefined) body.detail = problem.detail;
  if (instance !== undefined) body.instance = instance;
  if (problem.errors?.length) body.errors = problem.errors;
  return {
    statusCode: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...problem.headers },
    body: JSON.stringify(body),
  };
}
