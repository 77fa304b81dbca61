import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isScheduledExportEvent, scheduledStartCommand } from '../lib/events/scheduledExportEvent';
import { SpotBusyError } from '../lib/exports/errors';
import { exportRequestSchema } from '../lib/exports/exportRequestSchema';
import { type StartDependencies, startExport } from '../lib/exports/startExport';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportLocation, exportView } from '../lib/http/exportView';
import { fieldProblemsOf, invalidRequest } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readIdempotencyKey } from '../lib/http/readIdempotencyKey';
import { readJsonBody } from '../lib/http/readJsonBody';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import {
  dynamoDbExportStoreFactory,
  dynamoDbIdempotencyKeysFactory,
  dynamoDbSpotLocksFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { spotCredentialsFactory } from '../lib/runtime/adapterFactories/spotCredentialsFactory';
import { stepFunctionsWorkflowsFactory } from '../lib/runtime/adapterFactories/stepFunctionsWorkflowsFactory';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** Start an export: `POST /exports`, or an EventBridge Scheduler schedule. */
export function makeStartHandler(runtime: HandlerRuntime<StartDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return startFromApi(deps, event);
    if (isScheduledExportEvent(event)) return startFromSchedule(deps, event, runtime.logger);
    throw new UnrecognisedEventError(HandlerNames.START);
  });
}

// A start records the export and starts its workflow: it never calls the upstream or ends an export.
export const handler = makeStartHandler(
  defaultHandlerRuntime({
    store: dynamoDbExportStoreFactory,
    spotLocks: dynamoDbSpotLocksFactory,
    idempotencyKeys: dynamoDbIdempotencyKeysFactory,
    credentials: spotCredentialsFactory,
    workflows: stepFunctionsWorkflowsFactory,
  }),
);

/**
 * 202 with the export and its Location. A repeated Idempotency-Key gets the same
 * answer (202, same export, its current state), marked `Idempotent-Replayed: true`.
 */
async function startFromApi(
  deps: StartDependencies,
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

/** What a scheduled run did: started (or found, on a redelivery) an export, or skipped a busy spot. */
export type ScheduledStartResult =
  | { exportId: string; status: string }
  | { skipped: true; reason: 'spot busy'; spotId: string; activeExportId?: string };

/**
 * `{exportId, status}`. A spot still busy with an earlier export is a normal outcome, not a
 * failure: the run is skipped (logged at INFO with the export that holds the spot, counted as
 * ScheduledRunsSkipped) and answered as a success, so Scheduler neither retries it into the same
 * busy spot nor dead-letters it; the next run exports its own window. Other failures are thrown,
 * so Scheduler retries and, in the end, dead-letters them.
 */
async function startFromSchedule(
  deps: StartDependencies,
  event: unknown,
  logger: Logger,
): Promise<ScheduledStartResult> {
  const command = scheduledStartCommand(event);
  try {
    const { record } = await startExport(deps, command);
    return { exportId: record.exportId, status: record.status };
  } catch (error) {
    if (!(error instanceof SpotBusyError)) throw error;
    const until = command.request.kind === 'dateRange' ? command.request.until : undefined;
    logger.info(`Scheduled export skipped: spot busy with export ${error.activeExportId ?? 'unknown'}`, {
      spotId: command.spotId,
      activeExportId: error.activeExportId,
      windowEnd: until,
    });
    deps.metrics.count('ScheduledRunsSkipped');
    return {
      skipped: true,
      reason: 'spot busy',
      spotId: command.spotId,
      ...(error.activeExportId !== undefined && { activeExportId: error.activeExportId }),
    };
  }
}
