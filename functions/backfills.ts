import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { abortBackfill } from '../lib/exports/backfill/abortBackfill';
import { BACKFILL_LIST_DEFAULT_LIMIT, BACKFILL_LIST_MAX_LIMIT } from '../lib/exports/backfill/BackfillRecord';
import { backfillRequestSchema } from '../lib/exports/backfill/backfillRequestSchema';
import { BACKFILL_RECORDING_BUDGET_SECONDS, createBackfill } from '../lib/exports/backfill/createBackfill';
import { backfillProgressOf, readBackfill } from '../lib/exports/backfill/readBackfill';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { backfillLocation, backfillProgressView } from '../lib/http/backfillView';
import { fieldProblemsOf, invalidRequest } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readBackfillId } from '../lib/http/readBackfillId';
import { readIdempotencyKey } from '../lib/http/readIdempotencyKey';
import { readJsonBody } from '../lib/http/readJsonBody';
import { readListQuery } from '../lib/http/readListQuery';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames, type RouteKey } from '../lib/http/routeTable';
import { dynamoDbBackfillStoreFactory } from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../lib/runtime/lifecycleAdapters';

const MS_PER_SECOND = 1000;

type BackfillRoute = Extract<RouteKey, `${string} /spots/{spotId}/backfills${string}`>;

/** A spot's backfills: plan and queue one, list them, read where one stands, abort it. */
export function makeBackfillsHandler(runtime: HandlerRuntime) {
  return createHandler(runtime, async (event, deps) => {
    if (!isApiGatewayEvent(event)) throw new UnrecognisedEventError(HandlerNames.BACKFILLS);
    switch (event.routeKey as BackfillRoute) {
      case 'POST /spots/{spotId}/backfills':
        return createFromApi(deps, event);
      case 'GET /spots/{spotId}/backfills':
        return listFromApi(deps, event);
      case 'GET /spots/{spotId}/backfills/{backfillId}':
        return readFromApi(deps, event);
      case 'POST /spots/{spotId}/backfills/{backfillId}/abort':
        return abortFromApi(deps, event);
      default:
        throw new UnrecognisedEventError(HandlerNames.BACKFILLS);
    }
  });
}

// Every port: an abort stops the running export upstream, frees the spot and announces the ends.
export const handler = makeBackfillsHandler(
  defaultHandlerRuntime({ ...LIFECYCLE_ADAPTERS, backfills: dynamoDbBackfillStoreFactory }),
);

/**
 * 202 with the plan and where it stands, and its Location. Windows are recorded for a few seconds
 * at most; a longer plan answers `recording: true` and the reconciler records the rest. A repeated
 * Idempotency-Key gets the same backfill, marked `Idempotent-Replayed: true`.
 */
async function createFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const idempotencyKey = readIdempotencyKey(event);
  const body = readJsonBody(event);
  if (body === undefined) throw invalidRequest([{ field: 'body', message: 'is required' }]);
  const parsed = backfillRequestSchema({ nowMs: deps.now() }).safeParse(body);
  if (!parsed.success) throw invalidRequest(fieldProblemsOf(parsed.error, 'body'));
  const { record, replayed } = await createBackfill(deps, {
    spotId,
    ...parsed.data,
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    recordUntilMs: deps.now() + BACKFILL_RECORDING_BUDGET_SECONDS * MS_PER_SECOND,
  });
  const progress = await backfillProgressOf(deps, record);
  return jsonResponse(202, backfillProgressView(record, progress), {
    location: backfillLocation(spotId, record.backfillId),
    ...(replayed && { 'idempotent-replayed': 'true' }),
  });
}

/** 200 `{items, nextToken?}`: the spot's backfills, newest first, each with where it stands. */
async function listFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const { limit, nextToken, status } = readListQuery(event);
  if (status !== undefined)
    throw invalidRequest([{ field: 'query.status', message: 'is not a known parameter' }]);
  const page = await deps.backfills.listForSpot(spotId, {
    limit: Math.min(limit ?? BACKFILL_LIST_DEFAULT_LIMIT, BACKFILL_LIST_MAX_LIMIT),
    ...(nextToken !== undefined && { nextToken }),
  });
  const items = [];
  for (const record of page.items)
    items.push(backfillProgressView(record, await backfillProgressOf(deps, record)));
  return jsonResponse(200, { items, ...(page.nextToken !== undefined && { nextToken: page.nextToken }) });
}

/** 200 with the backfill, its counts, rows so far, ETA and each window's state. */
async function readFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const { record, progress } = await readBackfill(deps, readSpotId(event), readBackfillId(event));
  return jsonResponse(200, backfillProgressView(record, progress));
}

/** 202 with the aborted backfill (again for one already aborted). */
async function abortFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const backfillId = readBackfillId(event);
  const { record, progress } = await abortBackfill(deps, { spotId, backfillId });
  return jsonResponse(202, backfillProgressView(record, progress));
}
