import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logCorrelationKeys } from '../http/logCorrelationKeys';
import { logTaskError } from '../observability/logTaskError';
import { publishMetrics } from '../observability/publishMetrics';
import type { EventRouter, ExportHandler } from './createHandler';
import type { HandlerRuntime } from './HandlerRuntime';

/**
 * A Lambda handler for events no API sends (the workflow's tasks, the reconciler's schedule):
 * Lambda context and correlation keys in the logs, metrics published, and errors propagated as
 * they are, for the state machine's Retry/Catch, logged at the level they ask for. It holds
 * nothing of the API (size limits, spot authorization, problem+json), and so neither does its bundle.
 */
export function createTaskHandler<D>(runtime: HandlerRuntime<D>, route: EventRouter<D>): ExportHandler {
  const { logger } = runtime;
  return middy<unknown, unknown, Error, Context>(async (event: unknown) =>
    route(event, runtime.dependencies()),
  )
    .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
    .use(logCorrelationKeys(logger))
    .use(publishMetrics(runtime.metrics))
    .use({ onError: (request) => logTaskError(logger, request.error) });
}
