import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type FleetReadDependencies, fleetStatus } from '../lib/exports/fleet/fleetStatus';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readFleetQuery } from '../lib/http/readFleetQuery';
import { HandlerNames } from '../lib/http/routeTable';
import { allowedSpotsOf } from '../lib/http/spotAuthorization';
import {
  dynamoDbBackfillStoreFactory,
  dynamoDbCoverageLedgerFactory,
  dynamoDbExportStoreFactory,
  dynamoDbFreshnessMarksFactory,
  dynamoDbSpotLocksFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { suggestName } from '../lib/text/suggestName';

/** `GET /spots?limit=&nextToken=&spotId=`: every spot the caller may use, at a glance. */
export function makeSpotsHandler(runtime: HandlerRuntime<FleetReadDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (!isApiGatewayEvent(event)) throw new UnrecognisedEventError(HandlerNames.SPOTS);
    return spotsFromApi(deps, event, runtime);
  });
}

// The table, read: no writes, no secrets, no workflows, no bus, no upstream.
export const handler = makeSpotsHandler(
  defaultHandlerRuntime({
    store: dynamoDbExportStoreFactory,
    coverage: dynamoDbCoverageLedgerFactory,
    spotLocks: dynamoDbSpotLocksFactory,
    backfills: dynamoDbBackfillStoreFactory,
    freshnessMarks: dynamoDbFreshnessMarksFactory,
  }),
);

/** 200 `{items, nextToken?}`, spots in id order; in a per-spot authorization mode, the caller's only. */
async function spotsFromApi(
  deps: FleetReadDependencies,
  event: APIGatewayProxyEventV2,
  runtime: HandlerRuntime<FleetReadDependencies>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const allowedSpots = allowedSpotsOf(event, {
    spotClaim: runtime.spotClaim?.(),
    spotsByPrincipal: runtime.spotsByPrincipal?.(),
  });
  const page = await fleetStatus(deps, {
    ...readFleetQuery(event),
    ...(allowedSpots !== undefined && { allowedSpots }),
    nearestSpot: suggestName,
  });
  return jsonResponse(200, page);
}
