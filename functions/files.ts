import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  type ArchivedFilesDependencies,
  archivedFiles,
  FILES_NEXT_TOKEN_PATTERN,
  InvalidFilesTokenError,
} from '../lib/archive/archivedFiles';
import type { FieldProblem } from '../lib/errors/problems';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportNotFound } from '../lib/http/exportNotFound';
import { invalidRequest, unknownFieldName } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readExportId } from '../lib/http/readExportId';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { dynamoDbExportStoreFactory } from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { s3ArchiveReaderFactory } from '../lib/runtime/adapterFactories/s3ArchiveReaderFactory';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** `GET /exports/{exportId}/files`: the archive's state and each file with a download URL. */
export function makeFilesHandler(runtime: HandlerRuntime<ArchivedFilesDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return filesFromApi(deps, event);
    throw new UnrecognisedEventError(HandlerNames.FILES);
  });
}

// The table and the bucket, read only: no bus, no upstream.
export const handler = makeFilesHandler(
  defaultHandlerRuntime({ store: dynamoDbExportStoreFactory, archiveReader: s3ArchiveReaderFactory }),
);

async function filesFromApi(
  deps: ArchivedFilesDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const nextToken = readFilesQuery(event);
  let files: Awaited<ReturnType<typeof archivedFiles>>;
  try {
    files = await archivedFiles(deps, spotId, exportId, nextToken);
  } catch (error) {
    if (error instanceof InvalidFilesTokenError) throw invalidNextToken();
    throw error;
  }
  // The same 404 as every route: another spot's export is indistinguishable from a missing one.
  if (files === undefined) throw exportNotFound();
  return jsonResponse(200, files);
}

/** `?nextToken=…` only; unknown parameters are refused so a typo is not ignored. @throws ProblemError 400 */
function readFilesQuery(event: APIGatewayProxyEventV2): string | undefined {
  const problems: FieldProblem[] = [];
  let nextToken: string | undefined;
  for (const [name, value = ''] of Object.entries(event.queryStringParameters ?? {})) {
    if (name !== 'nextToken') {
      problems.push({ field: unknownFieldName('query', name), message: 'is not a known parameter' });
    } else if (FILES_NEXT_TOKEN_PATTERN.test(value)) {
      nextToken = value;
    } else {
      throw invalidNextToken();
    }
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return nextToken;
}

function invalidNextToken() {
  return invalidRequest([{ field: 'query.nextToken', message: 'is not a token of this listing' }]);
}
