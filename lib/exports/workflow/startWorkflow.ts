import type { ExportRecord } from '../record/ExportRecord';
import { isTerminal } from '../record/ExportStatus';
import { isTransientFailure } from '../record/failureReasons';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import type { WorkflowDependencies } from './ports';
import { pollingExecutionName } from './workflowContract';

const MS_PER_SECOND = 1000;

/**
 * When polling gives up on this export: the deadline counts from its create upstream, else from
 * when it took the spot (a queued export's wait in the queue does not count), else its request.
 */
export function exportDeadlineMs(deps: Pick<WorkflowDependencies, 'settings'>, record: ExportRecord): number {
  const startMs = Date.parse(record.startedAt ?? record.dequeuedAt ?? record.requestedAt);
  return startMs + deps.settings.exportDeadlineSeconds * MS_PER_SECOND;
}

/**
 * Makes sure an active export has a polling workflow. The execution name comes from
 * the export id, so two callers racing here start one workflow. A passing failure to start
 * (throttling, an outage) is left to the reconciler: the export is recorded and will be
 * picked up. Any other failure (access denied) is thrown.
 */
export async function ensurePollingWorkflow(
  deps: Pick<WorkflowDependencies, 'store' | 'workflows' | 'metrics' | 'settings'>,
  record: ExportRecord,
  attempt = 0,
): Promise<ExportRecord> {
  if (isTerminal(record.status) || (attempt === 0 && record.workflowExecutionName !== undefined))
    return record;
  const executionName = pollingExecutionName(record.exportId, attempt);
  if (!(await startWorkflowExecution(deps, record, executionName))) return record;
  // Not version-guarded: a poll may have written meanwhile, and the name must still land.
  const { record: tracked } = await transitionOrCurrent(
    deps,
    record,
    record.status,
    { workflowExecutionName: executionName },
    { guardVersion: false },
  );
  return tracked;
}

/**
 * Starts the named execution for an active export; starting one that exists already is not an
 * error. False when a passing failure (throttling, an outage) left it to the reconciler.
 */
export async function startWorkflowExecution(
  deps: Pick<WorkflowDependencies, 'workflows' | 'metrics' | 'settings'>,
  record: ExportRecord,
  executionName: string,
): Promise<boolean> {
  try {
    await deps.workflows.start(executionName, {
      spotId: record.spotId,
      exportId: record.exportId,
      // The create task learns the real first wait from the spot's history; the start stays table-light.
      firstPollDelaySeconds: deps.settings.defaultFirstPollDelaySeconds,
      deadline: isoAt(exportDeadlineMs(deps, record)),
    });
    return true;
  } catch (error) {
    // A missing grant or a wrong ARN never passes: fail where it can be seen instead of hoping.
    if (!isTransientFailure(error)) throw error;
    // The export is recorded and active: the reconciler gives it a workflow on its next run.
    deps.metrics.count('WorkflowStartsFailed');
    return false;
  }
}
