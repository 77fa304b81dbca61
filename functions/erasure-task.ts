import { isErasureWorkflowInput } from '../lib/exports/erasure/erasureWorkflowContract';
import type { ErasureDependencies } from '../lib/exports/erasure/runErasure';
import { runErasureTask } from '../lib/exports/erasure/runErasureTask';
import { HandlerNames } from '../lib/http/routeTable';
import { archiveUserEraserFactory } from '../lib/runtime/adapterFactories/archiveUserEraserFactory';
import { athenaUserRowsQueryFactory } from '../lib/runtime/adapterFactories/athenaUserRowsQueryFactory';
import {
  dynamoDbErasureStoreFactory,
  dynamoDbExportStoreFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { eventBridgeErasureEventsFactory } from '../lib/runtime/adapterFactories/eventBridgeFactories';
import { requiredResource } from '../lib/runtime/adapterFactories/requiredResource';
import { s3ArchiveWriterFactory } from '../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
import type { AdapterFactory } from '../lib/runtime/buildDependencies';
import { createTaskHandler } from '../lib/runtime/createTaskHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/**
 * The erasure workflow's task (lib/exports/erasure/erasureWorkflowContract.ts): one slice of the
 * erasure, answering the outcome the state machine's Choice reads.
 */
export function makeErasureTaskHandler(runtime: HandlerRuntime<ErasureDependencies>) {
  return createTaskHandler(runtime, async (event, deps) => {
    if (!isErasureWorkflowInput(event)) throw new UnrecognisedEventError(HandlerNames.ERASURE_TASK);
    return runErasureTask(deps, event);
  });
}

/** Athena in the workgroup the stack names (`LAKE_WORK_GROUP_NAME`); none when the archive writes no table. */
export const erasureUserRowsFactory: AdapterFactory<'userRows'> = (context) =>
  context.config.archive.writeTable
    ? athenaUserRowsQueryFactory(context, {
        workGroupName: requiredResource(context.config.archive.lakeWorkGroupName, 'LAKE_WORK_GROUP_NAME'),
      })
    : undefined;

// The records (erasures, the spot's exports and their archives), the bucket, the bus, and the
// table asked at the end (Athena in the deployment's workgroup, when the archive writes the table).
export const handler = makeErasureTaskHandler(
  defaultHandlerRuntime({
    erasures: dynamoDbErasureStoreFactory,
    store: dynamoDbExportStoreFactory,
    archiveWriter: s3ArchiveWriterFactory,
    eraser: archiveUserEraserFactory,
    erasureEvents: eventBridgeErasureEventsFactory,
    userRows: erasureUserRowsFactory,
  }),
);
