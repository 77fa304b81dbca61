import { isReconcilerEvent } from '../lib/events/reconcilerEvent';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import {
  type ResumeErasuresDependencies,
  resumeLapsedErasures,
} from '../lib/exports/erasure/resumeLapsedErasures';
import type { FleetDependencies } from '../lib/exports/fleet/ports';
import { reconcileExports } from '../lib/exports/reconciler/reconcileExports';
import { HandlerNames } from '../lib/http/routeTable';
import {
  dynamoDbBackfillStoreFactory,
  dynamoDbErasureStoreFactory,
  dynamoDbFreshnessMarksFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { stepFunctionsErasureWorkflowsFactory } from '../lib/runtime/adapterFactories/stepFunctionsWorkflowsFactory';
import { createTaskHandler } from '../lib/runtime/createTaskHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../lib/runtime/lifecycleAdapters';

/**
 * The reconciler, on its schedule: repairs what a lost workflow, a crash or an interrupted abort
 * left behind (see lib/exports/reconcileExports.ts), gives an erasure whose run lapsed a new
 * workflow (lib/exports/erasure/resumeLapsedErasures.ts), and answers with what it did.
 */
export function makeReconcileHandler(
  runtime: HandlerRuntime<
    ExportDependencies &
      Partial<Pick<FleetDependencies, 'freshnessMarks'>> &
      Partial<Omit<ResumeErasuresDependencies, 'now'>>
  >,
) {
  return createTaskHandler(runtime, async (event, deps) => {
    if (!isReconcilerEvent(event)) throw new UnrecognisedEventError(HandlerNames.RECONCILE);
    const summary = await reconcileExports(deps);
    const { erasures, erasureWorkflows } = deps;
    // Without the erasure workflow (a build without an archive) there is nothing to take up.
    if (erasures === undefined || erasureWorkflows === undefined) return summary;
    const resumed = await resumeLapsedErasures(
      { erasures, erasureWorkflows, now: deps.now },
      deps.settings.reconcileStaleAfterSeconds,
    );
    return { ...summary, ...resumed };
  });
}

// Every port: a repair polls and aborts upstream, restarts and stops workflows, and announces the
// end; it finishes recording backfills, the freshness watch keeps its marks beside the ledger, and
// lapsed erasures get a new erasure workflow.
export const handler = makeReconcileHandler(
  defaultHandlerRuntime({
    ...LIFECYCLE_ADAPTERS,
    backfills: dynamoDbBackfillStoreFactory,
    freshnessMarks: dynamoDbFreshnessMarksFactory,
    erasures: dynamoDbErasureStoreFactory,
    erasureWorkflows: stepFunctionsErasureWorkflowsFactory,
  }),
);
