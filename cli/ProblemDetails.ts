import { z } from 'zod';

/** An RFC 9457 problem as the API answers it; unknown members are kept so `--json` shows them all. */
export const problemDetailsSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string(),
  status: z.number().optional(),
  detail: z.string().optional(),
  errors: z.array(z.looseObject({ field: z.string(), message: z.string() })).optional(),
  activeExportId: z.string().optional(),
});

export type ProblemDetails = z.infer<typeof problemDetailsSchema>;

const PROBLEM_TYPE_PREFIX = '/problems/';

/** The problem kind, the last segment of `type` (`/problems/spot-busy` → `spot-busy`). */
export function problemKind(problem: ProblemDetails): string | undefined {
  const index = problem.type?.lastIndexOf(PROBLEM_TYPE_PREFIX) ?? -1;
  return index < 0 ? undefined : problem.type?.slice(index + PROBLEM_TYPE_PREFIX.length);
}

/**
 * The problem an error response describes. Answers that are not problem documents (a gateway's
 * `{"message":"Forbidden"}`, an HTML error page) become a problem titled after the HTTP status.
 */
export function problemFromErrorResponse(
  status: number,
  statusText: string,
  bodyText: string,
): ProblemDetails {
  const body = parseJson(bodyText);
  const parsed = problemDetailsSchema.safeParse(body);
  if (parsed.success) return { ...parsed.data, status: parsed.data.status ?? status };
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
