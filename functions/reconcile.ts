import { isReconcilerEvent } from '../lib/events/reconcilerEvent';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import type { FleetDependencies } from '../lib/exports/fleet/ports';
import { reconcileExports } from '../lib/exports/reconciler/reconcileExports';
import { HandlerNames } from '../lib/http/routeTable';
import {
  dynamoDbBackfillStoreFactory,
  dynamoDbFreshnessMarksFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { createTaskHandler } from '../lib/runtime/createTaskHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../lib/runtime/lifecycleAdapters';

/**
 * The reconciler, on its schedule: repairs what a lost workflow, a crash or an interrupted abort
 * left behind (see lib/exports/reconcileExports.ts), and answers with what it did.
 */
export function makeReconcileHandler(
  runtime: HandlerRuntime<ExportDependencies & Partial<Pick<FleetDependencies, 'freshnessMarks'>>>,
) {
  return createTaskHandler(runtime, async (event, deps) => {
    if (isReconcilerEvent(event)) return reconcileExports(deps);
    throw new UnrecognisedEventError(HandlerNames.RECONCILE);
  });
}

// Every port: a repair polls and aborts upstream, restarts and stops workflows, and announces the
// end; it finishes recording backfills, and the freshness watch keeps its marks beside the ledger.
export const handler = makeReconcileHandler(
  defaultHandlerRuntime({
    ...LIFECYCLE_ADAPTERS,
    backfills: dynamoDbBackfillStoreFactory,
    freshnessMarks: dynamoDbFreshnessMarksFactory,
  }),
);
