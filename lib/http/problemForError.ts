import { isClassified } from '../errors/ClassifiedError';
import { type ProblemInit, renderProblem } from '../errors/problems';

/**
 * The answer a known error means for the API caller, rendered from the problem it carries, or
 * undefined for anything else (which the caller only ever sees as a generic 500).
 */
export function problemForError(error: unknown): ProblemInit | undefined {
  const problem = isClassified(error) ? error.problem : undefined;
  return problem === undefined ? undefined : renderProblem(problem);
}
