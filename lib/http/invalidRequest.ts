import type * as z from 'zod/mini';
import { type FieldProblem, ProblemType } from '../errors/problems';
import { ProblemError } from './ProblemError';

// Only names like these are repeated back; anything else could carry what the caller should not see echoed.
const ECHOABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** 400 listing every invalid field. Messages describe the rule, never the value sent. */
export function invalidRequest(errors: FieldProblem[]): ProblemError {
  return new ProblemError({ type: ProblemType.INVALID_REQUEST, errors });
}

/** The name of a field the caller sent that we do not know, as far as it may be echoed. */
export function unknownFieldName(location: string, name: string): string {
  return ECHOABLE_NAME.test(name) ? `${location}.${name}` : location;
}

type Issue = z.core.$ZodIssue;

/** Zod issues → one problem per field, under `location` (`body`, `query`, …). */
export function fieldProblemsOf(error: z.core.$ZodError, location: string): FieldProblem[] {
  const problems = new Map<string, string>();
  for (const { path, message } of flatten(error.issues, [])) {
    const field = path.length === 0 ? location : `${location}.${path.map(String).join('.')}`;
    // The first rule a field breaks is enough to fix it.
    if (!problems.has(field)) problems.set(field, message);
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}

function flatten(
  issues: readonly Issue[],
  prefix: PropertyKey[],
): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) return flatten(closestBranch(issue), path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        ECHOABLE_NAME.test(key)
          ? { path: [...path, key], message: 'is not a known field' }
          : { path, message: 'has a field that is not known' },
      );
    }
    return [{ path, message: issue.message }];
  });
}

/**
 * The union member the input was most likely meant as: one whose shape has all the
 * fields sent (no unknown keys), then the one with the fewest problems.
 */
function closestBranch(issue: Extract<Issue, { code: 'invalid_union' }>): readonly Issue[] {
  const score = (branch: readonly Issue[]) =>
    (branch.some((inner) => inner.code === 'unrecognized_keys') ? 1000 : 0) + branch.length;
  return [...issue.errors].sort((a, b) => score(a) - score(b))[0] ?? [];
}
