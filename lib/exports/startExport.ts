import type { ExportRecord, ExportRequest, ExportSource } from './ExportRecord';
import { ExportStatus } from './ExportStatus';
import { ExportAlreadyExistsError, IdempotencyConflictError } from './errors';
import { newExportId } from './exportId';
import { isoAt } from './isoAt';
import type { ExportDependencies } from './ports';
import { requestFingerprint } from './requestFingerprint';
import { takeSpotLock } from './spotLockLease';
import { ensurePollingWorkflow, startWorkflowExecution } from './startWorkflow';
import { pollingExecutionName } from './workflowContract';

export interface StartExportCommand {
  spotId: string;
  request: ExportRequest;
  source: ExportSource;
  /** Same key + same request = same export, however often it is sent. */
  idempotencyKey?: string;
}

export interface StartExportResult {
  record: ExportRecord;
  /** True when the key had been used before and this answer is the earlier export. */
  replayed: boolean;
}

/** What a start touches: no upstream, no announcements (a start never ends an export). */
export type StartDependencies = Pick<
  ExportDependencies,
  'store' | 'spotLocks' | 'idempotencyKeys' | 'credentials' | 'workflows' | 'metrics' | 'settings' | 'now'
>;

const MS_PER_SECOND = 1000;

/**
 * credentials configured → idempotency → spot lock → REQUESTED → polling workflow.
 * Nothing here talks to the upstream: the workflow's create task authenticates and
 * creates, and waits out a slow or throttled upstream instead of failing the caller.
 * Every step converges when repeated: a crash anywhere leaves state that a retry (same
 * key) or the reconciler picks up.
 * @throws CredentialsNotFoundError and InvalidCredentialsError (nothing is recorded),
 *   SpotBusyError, IdempotencyKeyReusedError
 */
export async function startExport(
  deps: StartDependencies,
  command: StartExportCommand,
): Promise<StartExportResult> {
  const { spotId } = command;
  // Reading the secret is not upstream I/O: a spot without credentials is told at once, and nothing is left behind.
  await deps.credentials.getCredentials(spotId);
  const { exportId, replayed } = await bindIdempotencyKey(deps, command);
  let record = replayed ? await deps.store.getExport(spotId, exportId) : undefined;
  if (record !== undefined && record.status !== ExportStatus.REQUESTED) {
    return { record: await ensurePollingWorkflow(deps, record), replayed };
  }
  // Re-entrant for a replay: renews our own lease, or fails if another export took the spot meanwhile.
  // It lasts as long as the export may, so no second export starts while the upstream is slow.
  await takeSpotLock(deps, spotId, exportId);
  record ??= await createRequestedRecord(deps, command, exportId);
  // The execution's name is recorded with the export, so the start costs no write after it; if the
  // start fails on a passing error, the reconciler finds the named execution missing and starts it.
  if (record.workflowExecutionName === undefined)
    return { record: await ensurePollingWorkflow(deps, record), replayed };
  // A replay does not start it again: the first call did, or the reconciler will.
  if (!replayed) await startWorkflowExecution(deps, record, record.workflowExecutionName);
  return { record, replayed };
}

async function bindIdempotencyKey(
  deps: Pick<ExportDependencies, 'idempotencyKeys' | 'settings' | 'now'>,
  command: StartExportCommand,
): Promise<{ exportId: string; replayed: boolean }> {
  const exportId = newExportId(deps.now());
  if (command.idempotencyKey === undefined) return { exportId, replayed: false };
  try {
    await deps.idempotencyKeys.put(command.spotId, command.idempotencyKey, {
      exportId,
      requestFingerprint: requestFingerprint(command.spotId, command.request),
      expiresAtEpochSeconds: Math.floor(deps.now() / MS_PER_SECOND) + deps.settings.idempotencyTtlSeconds,
    });
    return { exportId, replayed: false };
  } catch (error) {
    // A different request under the same key (IdempotencyKeyReusedError) goes to the caller.
    if (error instanceof IdempotencyConflictError)
      return { exportId: error.existing.exportId, replayed: true };
    throw error;
  }
}

async function createRequestedRecord(
  deps: Pick<ExportDependencies, 'store' | 'now'>,
  command: StartExportCommand,
  exportId: string,
): Promise<ExportRecord> {
  try {
    return await deps.store.createExport({
      spotId: command.spotId,
      exportId,
      status: ExportStatus.REQUESTED,
      request: command.request,
      links: [],
      requestedAt: isoAt(deps.now()),
      pollCount: 0,
      source: command.source,
      workflowExecutionName: pollingExecutionName(exportId),
      ...(command.idempotencyKey !== undefined && { idempotencyKey: command.idempotencyKey }),
    });
  } catch (error) {
    if (error instanceof ExportAlreadyExistsError && error.existing) return error.existing;
    throw error;
  }
}
