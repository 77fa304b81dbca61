import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { abortExport } from '../lib/exports/abortExport';
import { ExportAlreadyFinishedError } from '../lib/exports/errors';
import type { ExportDependencies } from '../lib/exports/ports';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportView } from '../lib/http/exportView';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readExportId } from '../lib/http/readExportId';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { AWS_EXPORT_PORTS } from '../lib/runtime/createAwsExportDependencies';
import { createExportHandler } from '../lib/runtime/createExportHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { isTaskAction, parseTimeoutAbortTaskInput } from '../lib/runtime/workflowTaskInput';

/** Abort an export: `POST /exports/{exportId}/abort`, or the polling workflow's timeout path. */
export function makeAbortHandler(runtime: HandlerRuntime) {
  return createExportHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return abortFromApi(deps, event);
    if (isTaskAction(event, 'abortOnTimeout')) return abortOnTimeout(deps, event);
    throw new UnrecognisedEventError(HandlerNames.ABORT);
  });
}

// Every port: an abort asks the upstream, stops the workflow, frees the spot and announces the end.
export const handler = makeAbortHandler(defaultHandlerRuntime(AWS_EXPORT_PORTS));

/** 202 with the export (again for one already aborted); 409 once it completed or failed. */
async function abortFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const record = await abortExport(deps, { spotId, exportId, reason: 'requested' });
  return jsonResponse(202, exportView(record));
}

/** `{exportId, status}`. An export that finished meanwhile won the race: its status ends the workflow. */
async function abortOnTimeout(deps: ExportDependencies, event: unknown) {
  const { spotId, exportId } = parseTimeoutAbortTaskInput(event);
  try {
    const record = await abortExport(deps, { spotId, exportId, reason: 'timeout' });
    return { exportId: record.exportId, status: record.status };
  } catch (error) {
    if (!(error instanceof ExportAlreadyFinishedError)) throw error;
    return { exportId: error.current.exportId, status: error.current.status };
  }
}
