import { isErasureWorkflowInput } from '../lib/exports/erasure/erasureWorkflowContract';
import type { ErasureDependencies } from '../lib/exports/erasure/runErasure';
import { runErasureTask } from '../lib/exports/erasure/runErasureTask';
import { HandlerNames } from '../lib/http/routeTable';
import { archiveUserEraserFactory } from '../lib/runtime/adapterFactories/archiveUserEraserFactory';
import {
  dynamoDbErasureStoreFactory,
  dynamoDbExportStoreFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { eventBridgeErasureEventsFactory } from '../lib/runtime/adapterFactories/eventBridgeFactories';
import { s3ArchiveWriterFactory } from '../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
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

// The records (erasures, the spot's exports and their archives), the bucket, and the bus. The
// table is not asked at the end here yet: the files are read again instead.
export const handler = makeErasureTaskHandler(
  defaultHandlerRuntime({
    erasures: dynamoDbErasureStoreFactory,
    store: dynamoDbExportStoreFactory,
    archiveWriter: s3ArchiveWriterFactory,
    eraser: archiveUserEraserFactory,
    erasureEvents: eventBridgeErasureEventsFactory,
  }),
);
