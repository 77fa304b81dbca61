import {
  type ExportOrigin,
  type ExportRecord,
  type ExportRequest,
  type ExportSource,
  QueuePriority,
} from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import { ExportAlreadyExistsError, IdempotencyConflictError } from '../record/errors';
import { newExportId } from '../record/exportId';
import { requestFingerprint } from '../record/IdempotencyRecord';
import { isoAt } from '../time/instants';
import { ensurePollingWorkflow, startWorkflowExecution } from '../workflow/startWorkflow';
import { pollingExecutionName } from '../workflow/workflowContract';
import type { QueueDependencies } from './ports';
import { takeSpotLock } from './spotLockLease';
import { startNextQueued } from './spotQueue';

/** What a start does when the spot is busy with another export. */
export type WhenBusy = 'reject' | 'queue';

export interface StartExportCommand {
  spotId: string;
  request: ExportRequest;
  source: ExportSource;
  /** Same key + same request = same export, however often it is sent. */
  idempotencyKey?: string;
  /**
   * `reject` (the default): a busy spot is a SpotBusyError. `queue`: the export waits its turn in
   * the spot's queue (QUEUED) and starts as soon as the spot is free.
   */
  whenBusy?: WhenBusy;
  /** Someone waits for the export: its polls come close around its expected end. */
  urgent?: boolean;
  /** Where a queued export waits; scheduled runs ahead of backfill windows. Default: first. */
  priority?: QueuePriority;
  /** The export's id, when the caller named it beforehand (a coverage window names its export before it exists). */
  exportId?: string;
  /** The schedule or backfill the export is a window of. */
  origin?: ExportOrigin;
}

export interface StartExportResult {
  record: ExportRecord;
  /** True when the key had been used before and this answer is the earlier export. */
  replayed: boolean;
}

/** What a start touches: no upstream, no announcements (a start never ends an export). */
export type StartDependencies = Pick<
  QueueDependencies,
  'store' | 'spotLocks' | 'idempotencyKeys' | 'credentials' | 'workflows' | 'metrics' | 'settings' | 'now'
>;

const MS_PER_SECOND = 1000;

/**
 * credentials configured → idempotency → spot lock → REQUESTED → polling workflow; or, with
 * `whenBusy: 'queue'`, → QUEUED → the spot's queue starts it (at once when the spot is free).
 * Nothing here talks to the upstream: the workflow's create task authenticates and
 * creates, and waits out a slow or throttled upstream instead of failing the caller.
 * Every step converges when repeated: a crash anywhere leaves state that a retry (same
 * key, same export id) or the reconciler picks up.
 * @throws CredentialsNotFoundError and InvalidCredentialsError (nothing is recorded),
 *   SpotBusyError (only when rejecting), IdempotencyKeyReusedError
 */
export async function startExport(
  deps: StartDependencies,
  command: StartExportCommand,
): Promise<StartExportResult> {
  const { spotId } = command;
  // Reading the secret is not upstream I/O: a spot without credentials is told at once, and nothing is left behind.
  await deps.credentials.getCredentials(spotId);
  const { exportId, replayed } = await bindIdempotencyKey(deps, command);
  let record =
    replayed || command.exportId !== undefined ? await deps.store.getExport(spotId, exportId) : undefined;
  if (record?.status === ExportStatus.QUEUED || (record === undefined && command.whenBusy === 'queue')) {
    record ??= await createRecord(deps, command, exportId, ExportStatus.QUEUED);
    // Whoever is first in the queue starts if the spot is free: this export, or one queued before it.
    const started = await startNextQueued(deps, spotId, record);
    const current = started?.exportId === exportId ? started : await deps.store.getExport(spotId, exportId);
    return { record: current ?? record, replayed };
  }
  if (record !== undefined && record.status !== ExportStatus.REQUESTED) {
    return { record: await ensurePollingWorkflow(deps, record), replayed };
  }
  // Re-entrant for a replay: renews our own lease, or fails if another export took the spot meanwhile.
  // It lasts as long as the export may, so no second export starts while the upstream is slow.
  await takeSpotLock(deps, spotId, exportId);
  record ??= await createRecord(deps, command, exportId, ExportStatus.REQUESTED);
  // The execution's name is recorded with the export, so the start costs no write after it; if the
  // start fails on a passing error, the reconciler finds the named execution missing and starts it.
  if (record.workflowExecutionName === undefined)
    return { record: await ensurePollingWorkflow(deps, record), replayed };
  // A replay does not start it again: the first call did, or the reconciler will.
  if (!replayed) await startWorkflowExecution(deps, record, record.workflowExecutionName);
  return { record, replayed };
}

async function bindIdempotencyKey(
  deps: Pick<QueueDependencies, 'idempotencyKeys' | 'settings' | 'now'>,
  command: StartExportCommand,
): Promise<{ exportId: string; replayed: boolean }> {
  const exportId = command.exportId ?? newExportId(deps.now());
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

/** A new REQUESTED record (its workflow named) or QUEUED one (its place in the queue); an existing one is answered. */
async function createRecord(
  deps: Pick<QueueDependencies, 'store' | 'metrics' | 'now'>,
  command: StartExportCommand,
  exportId: string,
  status: typeof ExportStatus.REQUESTED | typeof ExportStatus.QUEUED,
): Promise<ExportRecord> {
  const now = isoAt(deps.now());
  try {
    const created = await deps.store.createExport({
      spotId: command.spotId,
      exportId,
      status,
      request: command.request,
      links: [],
      requestedAt: now,
      pollCount: 0,
      source: command.source,
      ...(status === ExportStatus.REQUESTED
        ? { workflowExecutionName: pollingExecutionName(exportId) }
        : { queue: { priority: command.priority ?? QueuePriority.FIRST, enqueuedAt: now } }),
      ...(command.origin !== undefined && { origin: command.origin }),
      ...(command.urgent === true && { urgent: true }),
      ...(command.idempotencyKey !== undefined && { idempotencyKey: command.idempotencyKey }),
    });
    if (status === ExportStatus.QUEUED) deps.metrics.count('ExportsQueued');
    return created;
  } catch (error) {
    if (error instanceof ExportAlreadyExistsError && error.existing) return error.existing;
    throw error;
  }
}
