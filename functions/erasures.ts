import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ERASURE_LIST_DEFAULT_LIMIT, ERASURE_LIST_MAX_LIMIT } from '../lib/exports/erasure/ErasureRecord';
import { ErasureNotFoundError } from '../lib/exports/erasure/errors';
import type { ErasureStore } from '../lib/exports/erasure/ports';
import { type RequestErasureDependencies, requestErasure } from '../lib/exports/erasure/requestErasure';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { erasureLocation, erasureView } from '../lib/http/erasureView';
import { invalidRequest } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readErasureId } from '../lib/http/readErasureId';
import { readJsonBody } from '../lib/http/readJsonBody';
import { readListQuery } from '../lib/http/readListQuery';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames, type RouteKey } from '../lib/http/routeTable';
import {
  dynamoDbErasureStoreFactory,
  dynamoDbSuppressionListFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { stepFunctionsErasureWorkflowsFactory } from '../lib/runtime/adapterFactories/stepFunctionsWorkflowsFactory';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** What the erasure routes use: the erasure records and the suppression list, nothing else. */
export type ErasureApiDependencies = RequestErasureDependencies & { erasures: ErasureStore };

type ErasureRoute = Extract<RouteKey, `${string} /spots/{spotId}/erasures${string}`>;

/** A spot's erasures: ask for one, list them, read where one stands. */
export function makeErasuresHandler(runtime: HandlerRuntime<ErasureApiDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (!isApiGatewayEvent(event)) throw new UnrecognisedEventError(HandlerNames.ERASURES);
    switch (event.routeKey as ErasureRoute) {
      case 'POST /spots/{spotId}/erasures':
        return requestFromApi(deps, event, runtime);
      case 'GET /spots/{spotId}/erasures':
        return listFromApi(deps, event);
      case 'GET /spots/{spotId}/erasures/{erasureId}':
        return readFromApi(deps, event);
      default:
        throw new UnrecognisedEventError(HandlerNames.ERASURES);
    }
  });
}

// The table (the suppression list and the erasure records, beside the exports) and the erasure
// workflow's start.
export const handler = makeErasuresHandler(
  defaultHandlerRuntime({
    erasures: dynamoDbErasureStoreFactory,
    suppressions: dynamoDbSuppressionListFactory,
    erasureWorkflows: stepFunctionsErasureWorkflowsFactory,
  }),
);

/**
 * 202 with the erasure and its Location: the user is on the spot's suppression list, the erasure
 * is recorded RUNNING and its workflow started. The same user asked for again is the same erasure
 * (200-like, still 202). A workflow that could not be started is the reconciler's to start.
 */
async function requestFromApi(
  deps: ErasureApiDependencies,
  event: APIGatewayProxyEventV2,
  runtime: Pick<HandlerRuntime<ErasureApiDependencies>, 'logger'>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const body = readJsonBody(event);
  if (body === undefined) throw invalidRequest([{ field: 'body', message: 'is required' }]);
  const userId =
    typeof body === 'object' && body !== null ? (body as { userId?: unknown }).userId : undefined;
  if (typeof userId !== 'string') throw invalidRequest([{ field: 'body.userId', message: 'is required' }]);
  const extra = Object.keys(body as object).filter((key) => key !== 'userId');
  if (extra.length > 0)
    throw invalidRequest(extra.map((key) => ({ field: `body.${key}`, message: 'is not a known field' })));
  const { record, startFailure } = await requestErasure(deps, { spotId, userId });
  if (startFailure !== undefined)
    runtime.logger.warn(
      'The erasure is recorded; its workflow could not be started: the reconciler starts it',
      {
        erasureId: record.erasureId,
        error: startFailure,
      },
    );
  return jsonResponse(202, erasureView(record), { location: erasureLocation(spotId, record.erasureId) });
}

/** 200 `{items, nextToken?}`: the spot's erasures, newest first. */
async function listFromApi(
  deps: ErasureApiDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const { limit, nextToken, status } = readListQuery(event);
  if (status !== undefined)
    throw invalidRequest([{ field: 'query.status', message: 'is not a known parameter' }]);
  const page = await deps.erasures.listForSpot(spotId, {
    limit: Math.min(limit ?? ERASURE_LIST_DEFAULT_LIMIT, ERASURE_LIST_MAX_LIMIT),
    ...(nextToken !== undefined && { nextToken }),
  });
  return jsonResponse(200, {
    items: page.items.map(erasureView),
    ...(page.nextToken !== undefined && { nextToken: page.nextToken }),
  });
}

/** 200 with where the erasure stands, the files it rewrote and its verification. */
async function readFromApi(
  deps: ErasureApiDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const erasureId = readErasureId(event);
  const record = await deps.erasures.get(spotId, erasureId);
  if (record === undefined) throw new ErasureNotFoundError(spotId, erasureId);
  return jsonResponse(200, erasureView(record));
}
