import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { abortExport } from '../lib/exports/lifecycle/abortExport';
import type { LifecycleDependencies } from '../lib/exports/lifecycle/ports';
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

/** `POST /exports/{exportId}/abort`. (The workflow's own timeout abort is a task of workflow-task.) */
export function makeAbortHandler(runtime: HandlerRuntime<LifecycleDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return abortFromApi(deps, event);
    throw new UnrecognisedEventError(HandlerNames.ABORT);
  });
}

// Every port: an abort asks the upstream, stops the workflow, frees the spot and announces the end.
export const handler = makeAbortHandler(defaultHandlerRuntime(LIFECYCLE_ADAPTERS));

/** 202 with the export (again for one already aborted); 409 once it completed or failed. */
async function abortFromApi(
  deps: LifecycleDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const record = await abortExport(deps, { spotId, exportId, reason: 'requested' });
  return jsonResponse(202, exportView(record));
}
