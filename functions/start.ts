import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isScheduledExportEvent, scheduledStartCommand } from '../lib/events/scheduledExportEvent';
import { exportRequestSchema } from '../lib/exports/exportRequestSchema';
import type { ExportDependencies } from '../lib/exports/ports';
import { startExport } from '../lib/exports/startExport';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportLocation, exportView } from '../lib/http/exportView';
import { fieldProblemsOf, invalidRequest } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readIdempotencyKey } from '../lib/http/readIdempotencyKey';
import { readJsonBody } from '../lib/http/readJsonBody';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import { createExportHandler } from '../lib/runtime/createExportHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** Start an export: `POST /exports`, or an EventBridge Scheduler schedule. */
export function makeStartHandler(runtime: HandlerRuntime) {
  return createExportHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return startFromApi(deps, event);
    if (isScheduledExportEvent(event)) return startFromSchedule(deps, event);
    throw new UnrecognisedEventError(HandlerNames.START);
  });
}

export const handler = makeStartHandler(defaultHandlerRuntime());

/**
 * 202 with the export and its Location. A repeated Idempotency-Key gets the same
 * answer (202, same export, its current state), marked `Idempotent-Replayed: true`.
 */
async function startFromApi(
  deps: ExportDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const idempotencyKey = readIdempotencyKey(event);
  const body = readJsonBody(event);
  if (body === undefined) throw invalidRequest([{ field: 'body', message: 'is required' }]);
  const parsed = exportRequestSchema(spotId, { nowMs: deps.now() }).safeParse(body);
  if (!parsed.success) throw invalidRequest(fieldProblemsOf(parsed.error, 'body'));
  const { record, replayed } = await startExport(deps, {
    spotId,
    request: parsed.data,
    source: 'api',
    ...(idempotencyKey !== undefined && { idempotencyKey }),
  });
  return jsonResponse(202, exportView(record), {
    location: exportLocation(record.exportId),
    ...(replayed && { 'idempotent-replayed': 'true' }),
  });
}

/** `{exportId, status}`; failures are thrown so Scheduler retries and, in the end, dead-letters them. */
async function startFromSchedule(deps: ExportDependencies, event: unknown) {
  const { record } = await startExport(deps, scheduledStartCommand(event));
  return { exportId: record.exportId, status: record.status };
}
