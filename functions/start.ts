import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isScheduledExportEvent, scheduledRunOf } from '../lib/events/scheduledExportEvent';
import type { WindowPlanningDependencies } from '../lib/exports/coverage/coverageWindows';
import { runSchedule, type ScheduleRunResult } from '../lib/exports/coverage/runSchedule';
import { queuePositions } from '../lib/exports/queue/spotQueue';
import { startExport, type WhenBusy } from '../lib/exports/queue/startExport';
import { exportRequestSchema } from '../lib/exports/requests/exportRequestSchema';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { exportLocation, exportView } from '../lib/http/exportView';
import { fieldProblemsOf, invalidRequest } from '../lib/http/invalidRequest';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readIdempotencyKey } from '../lib/http/readIdempotencyKey';
import { readJsonBody } from '../lib/http/readJsonBody';
import { readSpotId } from '../lib/http/readSpotId';
import { HandlerNames } from '../lib/http/routeTable';
import {
  dynamoDbCoverageLedgerFactory,
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

/** A start records exports (and, for a schedule, their windows) and starts workflows: no upstream, no bus. */
type StartFunctionDependencies = WindowPlanningDependencies;

/** Start an export: `POST /exports`, or an EventBridge Scheduler schedule. */
export function makeStartHandler(runtime: HandlerRuntime<StartFunctionDependencies>) {
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
    coverage: dynamoDbCoverageLedgerFactory,
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
  deps: StartFunctionDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const spotId = readSpotId(event);
  const idempotencyKey = readIdempotencyKey(event);
  const body = readJsonBody(event);
  if (body === undefined) throw invalidRequest([{ field: 'body', message: 'is required' }]);
  const { whenBusy, urgent, request: requestBody } = readStartOptions(body);
  const parsed = exportRequestSchema(spotId, { nowMs: deps.now() }).safeParse(requestBody);
  if (!parsed.success) throw invalidRequest(fieldProblemsOf(parsed.error, 'body'));
  const { record, replayed } = await startExport(deps, {
    spotId,
    request: parsed.data,
    source: 'api',
    whenBusy,
    ...(urgent && { urgent }),
    ...(idempotencyKey !== undefined && { idempotencyKey }),
  });
  const positions = await queuePositions(deps, [record]);
  return jsonResponse(202, exportView(record, positions.get(record.exportId)), {
    location: exportLocation(record.exportId),
    ...(replayed && { 'idempotent-replayed': 'true' }),
  });
}

const WHEN_BUSY_VALUES: readonly WhenBusy[] = ['reject', 'queue'];

/**
 * The start's own options in its body, and the rest, which is the export's request: `whenBusy`
 * (`reject`, the default: 409 while the spot is busy; `queue`: the export waits its turn) and
 * `urgent` (true: someone waits for the export, so its polls come close around its expected end).
 * @throws ProblemError 400 naming `body.whenBusy` or `body.urgent`
 */
function readStartOptions(body: unknown): { whenBusy: WhenBusy; urgent: boolean; request: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { whenBusy: 'reject', urgent: false, request: body };
  const { whenBusy = 'reject', urgent = false, ...request } = body as Record<string, unknown>;
  if (!WHEN_BUSY_VALUES.includes(whenBusy as WhenBusy))
    throw invalidRequest([
      { field: 'body.whenBusy', message: `must be one of ${WHEN_BUSY_VALUES.join(', ')}` },
    ]);
  if (typeof urgent !== 'boolean')
    throw invalidRequest([{ field: 'body.urgent', message: 'must be true or false' }]);
  return { whenBusy: whenBusy as WhenBusy, urgent, request };
}

/**
 * A scheduled run: every hour from the schedule's watermark up to its scheduled time (less its
 * lag) is exported, in windows queued behind the spot's running export (see runSchedule).
 * Failures are thrown, so Scheduler retries and, in the end, dead-letters them; a retried run
 * finds its windows recorded and starts nothing twice.
 */
async function startFromSchedule(
  deps: StartFunctionDependencies,
  event: unknown,
  logger: Logger,
): Promise<ScheduleRunResult> {
  const result = await runSchedule(deps, scheduledRunOf(event));
  logger.info('Scheduled run', {
    spotId: result.spotId,
    schedule: result.schedule,
    watermark: result.watermark,
    windowsPlanned: result.windows.filter((window) => window.planned).length,
  });
  return result;
}
