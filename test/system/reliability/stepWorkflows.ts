import { WorkflowErrorNames } from '../../../lib/exports/workflow/workflowContract';
import type {
  CreateTaskInput,
  PollTaskInput,
  TimeoutAbortTaskInput,
} from '../../../lib/exports/workflow/workflowTaskInput';
import { HandlerNames } from '../../../lib/http/routeTable';
import type { FaultScenario } from './FaultScenario';

/** Executions whose create task has succeeded, per scenario: they are in the poll loop. */
const createdExecutions = new WeakMap<FaultScenario, Set<string>>();

/** What the create task's and the poll task's retriers repeat (infra/PollingWorkflow.ts). */
const RETRIED_CREATE_ERRORS: ReadonlySet<string> = new Set([WorkflowErrorNames.CREATE_DEFERRED]);
const RETRIED_POLL_ERRORS: ReadonlySet<string> = new Set([
  WorkflowErrorNames.STILL_PROCESSING,
  WorkflowErrorNames.UPSTREAM_UNAVAILABLE,
]);

/**
 * One step of every running stepped workflow, as the state machine would run it: first the
 * create task (retried while deferred, a refusal ends the execution), then one poll of the
 * workflow-task task; "still processing" and transient errors keep the execution alive (its
 * Retry, bounded by the deadline), a timeout goes to the abort task (its Catch), anything
 * else ends it failed.
 */
export async function stepWorkflows(scenario: FaultScenario): Promise<void> {
  const created = createdExecutions.get(scenario) ?? new Set<string>();
  createdExecutions.set(scenario, created);
  for (const [executionName, input] of [...scenario.runningExecutions]) {
    const task = { spotId: input.spotId, exportId: input.exportId, deadline: input.deadline };
    const isCreated = created.has(executionName);
    try {
      if (!isCreated) {
        const createInput: CreateTaskInput = { action: 'create', ...task };
        await scenario.main.invoke(HandlerNames.WORKFLOW_TASK, createInput);
        created.add(executionName);
        continue;
      }
      const pollInput: PollTaskInput = { action: 'poll', ...task };
      await scenario.main.invoke(HandlerNames.WORKFLOW_TASK, pollInput);
      await scenario.workflows.stop(executionName, 'succeeded');
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if ((isCreated ? RETRIED_POLL_ERRORS : RETRIED_CREATE_ERRORS).has(name)) continue;
      if (name === WorkflowErrorNames.POLLING_TIMED_OUT || (!isCreated && name === '')) {
        const abortInput: TimeoutAbortTaskInput = {
          action: 'abortOnTimeout',
          spotId: input.spotId,
          exportId: input.exportId,
        };
        // Its failure ends the execution as PollingFailed: the reconciler takes over.
        await scenario.main.invoke(HandlerNames.WORKFLOW_TASK, abortInput).catch(() => undefined);
      }
      await scenario.workflows.stop(executionName, 'ended');
    }
  }
}
