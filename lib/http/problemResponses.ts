import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { ProblemInit } from '../errors/ProblemInit';
import { PollingWorkflowErrors } from '../exports/pollingWorkflowContract';
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

/** Errors a workflow task throws by design, for the state machine's Retry/Catch: routine, not failures. */
const WORKFLOW_CONTROL_ERRORS: ReadonlySet<string> = new Set([
  PollingWorkflowErrors.STILL_PROCESSING,
  PollingWorkflowErrors.CREATE_DEFERRED,
  PollingWorkflowErrors.UPSTREAM_UNAVAILABLE,
  PollingWorkflowErrors.POLLING_TIMED_OUT,
]);

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

function logTaskError(logger: Logger, error: unknown): void {
  const name = error instanceof Error ? error.name : 'unknown';
  if (WORKFLOW_CONTROL_ERRORS.has(name)) logger.info('Workflow task outcome', { outcome: name });
  else if (name === PollingWorkflowErrors.CREATE_REJECTED)
    logger.warn('Upstream refused the export', { error });
  else if (name === PollingWorkflowErrors.ARCHIVE_RETRY)
    logger.warn('Archive put off by a passing failure; the workflow retries', { error });
  else logger.error('Task failed with an unexpected error', { error });
}
