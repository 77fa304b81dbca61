import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { totalOfExports } from '../lib/exports/cost/totalOfExports';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import { listExports } from '../lib/exports/lifecycle/listExports';
import { queuePositions } from '../lib/exports/queue/spotQueue';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportView } from '../lib/http/exportView';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readListQuery } from '../lib/http/readListQuery';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { dynamoDbExportStoreFactory } from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { AWS_PRICE_TABLE } from '../lib/settings/settingsTable';

/** Listing reads the table and nothing else. */
type ListDependencies = Pick<ExportDependencies, 'store'>;

/** List a spot's exports, newest first: `GET /exports?limit=&nextToken=&status=`. */
export function makeListHandler(runtime: HandlerRuntime<ListDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return listFromApi(deps, event);
    throw new UnrecognisedEventError(HandlerNames.LIST);
  });
}

export const handler = makeListHandler(defaultHandlerRuntime({ store: dynamoDbExportStoreFactory }));

/**
 * 200 `{items, total, nextToken?}`: `total` sums the page's usage and estimated cost (the spot's,
 * over the period its exports span); pass `nextToken` back for the next page.
 */
async function listFromApi(
  deps: ListDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const page = await listExports(deps, { spotId, ...readListQuery(event) });
  const positions = await queuePositions(deps, page.items);
  return jsonResponse(200, {
    items: page.items.map((record) => exportView(record, positions.get(record.exportId))),
    total: totalOfExports(page.items, AWS_PRICE_TABLE),
    ...(page.nextToken !== undefined && { nextToken: page.nextToken }),
  });
}
