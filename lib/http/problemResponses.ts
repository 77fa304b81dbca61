import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { ProblemInit } from '../errors/problems';
import { logTaskError } from '../observability/logTaskError';
import { isApiGatewayEvent } from './apiGatewayEvent';
import { problemForError } from './problemForError';
import { problemResponse } from './problemResponse';

/** What an unknown failure looks like from outside: nothing about what went wrong inside. */
export const INTERNAL_ERROR_PROBLEM: ProblemInit = {
  status: 500,
  title: 'Internal Server Error',
  detail: 'The request could not be completed. Retry later.',
};

const defaults = {
  // Only errors count as errors in the logs; refusals of bad requests are routine.
  logProblemsAtLevel: 'info' as 'info' | 'warn',
};

export interface ProblemResponsesOptions extends Partial<typeof defaults> {
  logger: Logger;
}

/**
 * Turns any error of an API request into an RFC 9457 `application/problem+json`
 * answer: known errors into their problem, anything else into a generic 500 that is
 * logged (the error, never the request body) and never shown. Errors of other event
 * sources are left to propagate, so Step Functions and schedulers see them; they are
 * logged by kind, so that ERROR lines mean unexpected failures only (the alarm counts them).
 */
export function problemResponses(options: ProblemResponsesOptions): MiddlewareObj {
  const { logger, logProblemsAtLevel } = { ...defaults, ...options };

  function renderProblem(request: Request): void {
    const { error } = request;
    if (!isApiGatewayEvent(request.event)) {
      logTaskError(logger, error);
      return;
    }
    const known = problemForError(error);
    const problem = known ?? INTERNAL_ERROR_PROBLEM;
    if (known === undefined) {
      logger.error('Request failed with an unexpected error', { error });
    } else if (problem.status >= 500) {
      logger.warn('Request failed upstream', { problemType: problem.type, status: problem.status, error });
    } else {
      logger[logProblemsAtLevel]('Request refused', { problemType: problem.type, status: problem.status });
    }
    request.response = problemResponse(problem);
  }

  return { onError: renderProblem };
}
