import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type ArchivedFilesDependencies, archivedFiles } from '../lib/archive/archivedFiles';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportNotFound } from '../lib/http/exportNotFound';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readExportId } from '../lib/http/readExportId';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { defaultArchivedFilesDependencies } from '../lib/runtime/archivedFilesDependencies';
import { type ArchiveHandlerRuntime, archiveHandlerRuntime } from '../lib/runtime/archiveHandlerRuntime';
import { createHandler } from '../lib/runtime/createExportHandler';
import { UnrecognisedEventError } from '../lib/runtime/errors';

/** `GET /exports/{exportId}/files`: the archive's state and each file with a download URL. */
export function makeFilesHandler(runtime: ArchiveHandlerRuntime, files: () => ArchivedFilesDependencies) {
  return createHandler(runtime, async (event) => {
    if (isApiGatewayEvent(event)) return filesFromApi(files(), event);
    throw new UnrecognisedEventError(HandlerNames.FILES);
  });
}

// The table and the bucket, read only: no bus, no upstream.
export const handler = makeFilesHandler(archiveHandlerRuntime(), defaultArchivedFilesDependencies);

async function filesFromApi(
  deps: ArchivedFilesDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const files = await archivedFiles(deps, spotId, exportId);
  // The same 404 as every route: another spot's export is indistinguishable from a missing one.
  if (files === undefined) throw exportNotFound();
  return jsonResponse(200, files);
}
