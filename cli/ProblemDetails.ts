import * as z from 'zod/mini';
import { problemSchema } from '../lib/http/problemSchema';

/**
 * An RFC 9457 problem as the CLI reads it: the API's problem schema, with `type` and `status`
 * optional, as RFC 9457 allows (a proxy's problem may leave them out; the status is then the HTTP one).
 */
const problemDetailsSchema = z.partial(problemSchema, { type: true, status: true });

export type ProblemDetails = z.infer<typeof problemDetailsSchema>;

const PROBLEM_TYPE_PREFIX = '/problems/';

/** The problem kind, the last segment of `type` (`/problems/spot-busy` → `spot-busy`). */
export function problemKind(problem: ProblemDetails): string | undefined {
  const index = problem.type?.lastIndexOf(PROBLEM_TYPE_PREFIX) ?? -1;
  return index < 0 ? undefined : problem.type?.slice(index + PROBLEM_TYPE_PREFIX.length);
}

/**
 * The problem an error response describes, with every member it has (so `--json` shows them all).
 * Answers that are not problem documents (a gateway's `{"message":"Forbidden"}`, an HTML error
 * page) become a problem titled after the HTTP status.
 */
export function problemFromErrorResponse(
  status: number,
  statusText: string,
  bodyText: string,
): ProblemDetails {
  const body = parseJson(bodyText);
  if (problemDetailsSchema.safeParse(body).success) {
    const problem = body as ProblemDetails;
    return { ...problem, status: problem.status ?? status };
  }
  const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined;
  const detail = message ?? (statusText || undefined);
  return { type: 'about:blank', title: `HTTP ${status}`, status, ...(detail ? { detail } : {}) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
