import { HandlerNames } from '../../lib/http/routeTable';
import type { PollTaskInput, TimeoutAbortTaskInput } from '../../lib/workflow/pollingWorkflowContract';
import { PollingWorkflowErrors } from '../../lib/workflow/pollingWorkflowContract';
import type { FaultScenario } from './FaultScenario';

/** The state machine's transient retrier gives up after this many attempts (infra/PollingWorkflow.ts). */
const TRANSIENT_RETRY_MAX_ATTEMPTS = 6;

const transientFailures = new WeakMap<FaultScenario, Map<string, number>>();

/**
 * One poll of every running stepped workflow, as the state machine would run it: the
 * check-status task; "still processing" and transient errors keep the execution alive
 * (its Retry), a timeout goes to the abort task (its Catch), anything else ends it failed.
 */
export async function stepWorkflows(scenario: FaultScenario): Promise<void> {
  const failures = transientFailures.get(scenario) ?? new Map<string, number>();
  transientFailures.set(scenario, failures);
  for (const [executionName, input] of [...scenario.runningExecutions]) {
    const pollInput: PollTaskInput = {
      action: 'poll',
      spotId: input.spotId,
      exportId: input.exportId,
      deadline: input.deadline,
    };
    try {
      await scenario.main.invoke(HandlerNames.CHECK_STATUS, pollInput);
      await scenario.workflows.stop(executionName, 'succeeded');
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === PollingWorkflowErrors.STILL_PROCESSING) continue;
      if (name === PollingWorkflowErrors.UPSTREAM_UNAVAILABLE) {
        const attempts = (failures.get(executionName) ?? 0) + 1;
        failures.set(executionName, attempts);
        if (attempts < TRANSIENT_RETRY_MAX_ATTEMPTS) continue;
      } else if (name === PollingWorkflowErrors.POLLING_TIMED_OUT) {
        const abortInput: TimeoutAbortTaskInput = {
          action: 'abortOnTimeout',
          spotId: input.spotId,
          exportId: input.exportId,
        };
        // Its failure ends the execution as PollingFailed: the reconciler takes over.
        await scenario.main.invoke(HandlerNames.ABORT, abortInput).catch(() => undefined);
      }
      await scenario.workflows.stop(executionName, 'ended');
    }
  }
}
