import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { checkExport } from '../lib/exports/lifecycle/checkExport';
import type { LifecycleDependencies } from '../lib/exports/lifecycle/ports';
import { queuePositions } from '../lib/exports/queue/spotQueue';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportView } from '../lib/http/exportView';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readExportId } from '../lib/http/readExportId';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../lib/runtime/lifecycleAdapters';

/** Check export status, `GET /exports/{exportId}`: the export, asking the upstream once when the record is not fresh. */
export function makeCheckStatusHandler(runtime: HandlerRuntime<LifecycleDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return checkStatusFromApi(deps, event);
    throw new UnrecognisedEventError(HandlerNames.CHECK_STATUS);
  });
}

// Every port: a read that finds the export finished records it, frees the spot and announces the end.
export const handler = makeCheckStatusHandler(defaultHandlerRuntime(LIFECYCLE_ADAPTERS));

/** 200 with the export. */
async function checkStatusFromApi(
  deps: LifecycleDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const record = await checkExport(deps, { spotId, exportId, mode: 'api' });
  const positions = await queuePositions(deps, [record]);
  return jsonResponse(200, exportView(record, positions.get(record.exportId)));
}
