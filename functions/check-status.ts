import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isReconcilerEvent } from '../lib/events/reconcilerEvent';
import { checkExport } from '../lib/exports/checkExport';
import { createUpstreamExport } from '../lib/exports/createUpstreamExport';
import { pollExportForWorkflow } from '../lib/exports/pollExportForWorkflow';
import type { ExportDependencies } from '../lib/exports/ports';
import { reconcileExports } from '../lib/exports/reconcileExports';
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
import { isTaskAction, parseCreateTaskInput, parsePollTaskInput } from '../lib/runtime/workflowTaskInput';

/**
 * Check an export: `GET /exports/{exportId}`, the workflow's create and poll tasks
 * (output or a named error its Retry/Catch key on), or the scheduled reconciler.
 */
export function makeCheckStatusHandler(runtime: HandlerRuntime) {
  return createExportHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return checkFromApi(deps, event);
    if (isTaskAction(event, 'create')) return createUpstreamExport(deps, parseCreateTaskInput(event));
    if (isTaskAction(event, 'poll')) return pollExportForWorkflow(deps, parsePollTaskInput(event));
    if (isReconcilerEvent(event)) return reconcileExports(deps);
    throw new UnrecognisedEventError(HandlerNames.CHECK_STATUS);
  });
}

// Every port: a check polls the upstream and announces the end; the create task and the reconciler
// abort (stopping the workflow) and restart workflows.
export const handler = makeCheckStatusHandler(defaultHandlerRuntime(AWS_EXPORT_PORTS));

/** 200 with the export; the upstream is asked only when the record is not fresh. */
async function checkFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const exportId = readExportId(event);
  const record = await checkExport(deps, { spotId, exportId, mode: 'api' });
  return jsonResponse(200, exportView(record));
}
