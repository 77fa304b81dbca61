import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { ExportDependencies } from '../exports/ExportDependencies';
import { apiRequestLimits } from '../http/apiRequestLimits';
import { logCorrelationKeys } from '../http/logCorrelationKeys';
import { problemResponses } from '../http/problemResponses';
import { spotAuthorization } from '../http/spotAuthorization';
import { publishMetrics } from '../observability/publishMetrics';
import type { HandlerRuntime } from './HandlerRuntime';

/** Reads the event, whichever source sent it, and answers in that source's shape. */
export type EventRouter<D = ExportDependencies> = (event: unknown, dependencies: D) => Promise<unknown>;

export type ExportHandler = MiddyfiedHandler<unknown, unknown, Error, Context>;

/**
 * A Lambda handler for a function the API calls (besides other sources it may serve, such as
 * start's schedule), around a router, with what such a handler needs: Lambda context and
 * correlation keys in the logs (reset after each invocation), metrics published, API
 * size limits and per-spot authorization (both before any I/O), and API errors answered
 * as problem+json. Errors of other sources propagate, logged at the level they ask for. The
 * dependencies are built on the first invocation (a bad configuration is reported there).
 * Functions no API calls use ./createTaskHandler.ts, without the API's middleware.
 */
export function createHandler<D>(runtime: HandlerRuntime<D>, route: EventRouter<D>): ExportHandler {
  const { logger } = runtime;
  return middy<unknown, unknown, Error, Context>(async (event: unknown) =>
    route(event, runtime.dependencies()),
  )
    .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
    .use(logCorrelationKeys(logger))
    .use(publishMetrics(runtime.metrics))
    .use(apiRequestLimits())
    .use(
      spotAuthorization({
        spotClaim: () => runtime.spotClaim?.(),
        spotsByPrincipal: () => runtime.spotsByPrincipal?.(),
      }),
    )
    .use(problemResponses({ logger }));
}
