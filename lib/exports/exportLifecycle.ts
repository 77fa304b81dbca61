import type { CreateExportRequest } from './CreateExportRequest';
import type { ExportChangeField, ExportChanges, ExportRecord, ExportRequest } from './ExportRecord';
import { ExportStatus, isTerminal } from './ExportStatus';
import { IllegalTransitionError } from './errors';
import { EXPORT_HISTORY_SAMPLE_SIZE, expectedExportDurationSeconds } from './expectedExportDuration';
import { isTransientFailure } from './isTransientFailure';
import { pollingExecutionName } from './pollingWorkflowContract';
import type { ExportDependencies } from './ports';
import { TransitionConflictError } from './storeErrors';
import { transitionExport } from './transitionExport';

/** Shared steps of the use cases: terminal bookkeeping, workflow tracking, request mapping. */

const MS_PER_SECOND = 1000;
/** Extra lock lease beyond the deadline, so the lock outlives the workflow that releases it. */
export const SPOT_LOCK_DEADLINE_MARGIN_SECONDS = 15 * 60;

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

export function toUpstreamRequest(request: ExportRequest): CreateExportRequest {
  const options = {
    ...(request.delimiter !== undefined && { delimiter: request.delimiter }),
    ...(request.maxRecordsInFile !== undefined && { maxRecordsInFile: request.maxRecordsInFile }),
  };
  return request.kind === 'conversation'
    ? { conversationId: request.conversationId, ...options }
    : { from: request.from, until: request.until, ...options };
}

/** When polling gives up on this export. */
export function exportDeadlineMs(deps: Pick<ExportDependencies, 'settings'>, record: ExportRecord): number {
  const startMs = Date.parse(record.startedAt ?? record.requestedAt);
  return startMs + deps.settings.exportDeadlineSeconds * MS_PER_SECOND;
}

/**
 * Writes a status change; when another writer got there first, answers with what
 * they wrote instead of failing (the first conditional write wins, by design).
 */
export async function transitionOrCurrent(
  deps: Pick<ExportDependencies, 'store'>,
  record: ExportRecord,
  to: ExportStatus,
  changes: ExportChanges,
  { guardVersion = true, remove }: { guardVersion?: boolean; remove?: readonly ExportChangeField[] } = {},
): Promise<{ record: ExportRecord; won: boolean }> {
  try {
    const next = await transitionExport(deps.store, record.spotId, record.exportId, {
      to,
      from: record.status,
      ...(guardVersion && { expectedVersion: record.version }),
      changes,
      ...(remove !== undefined && { remove }),
    });
    return { record: next, won: true };
  } catch (error) {
    if (error instanceof TransitionConflictError) return { record: error.current, won: false };
    if (error instanceof IllegalTransitionError && error.current)
      return { record: error.current, won: false };
    throw error;
  }
}

/** After a write made the export terminal: free the spot, tell the world, count it. */
export async function onTerminal(deps: ExportDependencies, record: ExportRecord): Promise<void> {
  if (!isTerminal(record.status)) return;
  await deps.store.releaseSpotLock(record.spotId, record.exportId);
  await deps.events.publishTerminal(record);
  deps.metrics.count(
    record.status === ExportStatus.COMPLETED
      ? 'ExportsCompleted'
      : record.status === ExportStatus.ABORTED
        ? 'ExportsAborted'
        : 'ExportsFailed',
  );
}

/**
 * Makes sure an active export has a polling workflow. The execution name comes from
 * the export id, so two callers racing here start one workflow. A passing failure to start
 * (throttling, an outage) is left to the reconciler: the export is recorded and will be
 * picked up. Any other failure (access denied) is thrown.
 */
export async function ensurePollingWorkflow(
  deps: Pick<ExportDependencies, 'store' | 'workflows' | 'metrics' | 'settings'>,
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
  deps: Pick<ExportDependencies, 'workflows' | 'metrics' | 'settings'>,
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

/** The first poll waits as long as this spot's recent exports took (the default without history). */
export async function firstPollDelaySecondsFor(deps: ExportDependencies, spotId: string): Promise<number> {
  const history = await deps.store.listExports(spotId, {
    status: ExportStatus.COMPLETED,
    limit: EXPORT_HISTORY_SAMPLE_SIZE,
  });
  return expectedExportDurationSeconds(history.items, deps.settings.defaultFirstPollDelaySeconds);
}
