import { abortExport } from '../lib/exports/lifecycle/abortExport';
import { createUpstreamExport } from '../lib/exports/lifecycle/createUpstreamExport';
import { pollExportForWorkflow } from '../lib/exports/lifecycle/pollExportForWorkflow';
import type { LifecycleDependencies } from '../lib/exports/lifecycle/ports';
import { ExportAlreadyFinishedError } from '../lib/exports/record/errors';
import { type TimeoutAbortTaskOutput, workflowTaskAction } from '../lib/exports/workflow/workflowContract';
import { parseWorkflowTask, type TimeoutAbortTaskInput } from '../lib/exports/workflow/workflowTaskInput';
import { HandlerNames } from '../lib/http/routeTable';
import { createTaskHandler } from '../lib/runtime/createTaskHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../lib/runtime/lifecycleAdapters';

const ACTIONS = ['create', 'poll', 'abortOnTimeout'] as const;

/**
 * The polling workflow's upstream tasks (see lib/exports/workflowContract.ts): create the export
 * upstream, poll it, and abort it once its deadline passed. Each answers with the task's output
 * or throws a named error the state machine's Retry/Catch act on.
 */
export function makeWorkflowTaskHandler(runtime: HandlerRuntime<LifecycleDependencies>) {
  return createTaskHandler(runtime, async (event, deps) => {
    switch (workflowTaskAction(event, ACTIONS)) {
      case 'create':
        return createUpstreamExport(deps, parseWorkflowTask('create', event));
      case 'poll':
        return pollExportForWorkflow(deps, parseWorkflowTask('poll', event));
      case 'abortOnTimeout':
        return abortOnTimeout(deps, parseWorkflowTask('abortOnTimeout', event));
      default:
        throw new UnrecognisedEventError(HandlerNames.WORKFLOW_TASK);
    }
  });
}

// Every port: the tasks create, poll and abort upstream, stop a workflow an abort met, and announce the end.
export const handler = makeWorkflowTaskHandler(defaultHandlerRuntime(LIFECYCLE_ADAPTERS));

/** An export that finished meanwhile won the race: its status ends the workflow. */
async function abortOnTimeout(
  deps: LifecycleDependencies,
  input: TimeoutAbortTaskInput,
): Promise<TimeoutAbortTaskOutput> {
  try {
    const record = await abortExport(deps, {
      spotId: input.spotId,
      exportId: input.exportId,
      reason: 'timeout',
    });
    return { spotId: record.spotId, exportId: record.exportId, status: record.status };
  } catch (error) {
    if (!(error instanceof ExportAlreadyFinishedError)) throw error;
    return { spotId: error.current.spotId, exportId: error.current.exportId, status: error.current.status };
  }
}
