import type { FieldProblem, ProblemInit } from './ProblemInit';
import { ProblemType } from './ProblemType';

/** 400 listing every invalid field. Messages describe the rule, never the value sent. */
export function invalidRequestProblem(errors: FieldProblem[]): ProblemInit {
  return {
    status: 400,
    type: ProblemType.INVALID_REQUEST,
    title: 'Invalid request',
    detail: 'The request has invalid fields; see errors.',
    errors,
  };
}
