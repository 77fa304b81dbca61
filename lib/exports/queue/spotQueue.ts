import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import { isTransientFailure } from '../record/failureReasons';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import { startWorkflowExecution } from '../workflow/startWorkflow';
import { pollingExecutionName } from '../workflow/workflowContract';
import { SpotBusyError } from './errors';
import type { QueueDependencies } from './ports';
import { takeSpotLock } from './spotLockLease';

/** What starting a spot's next queued export touches. */
export type QueueStartDependencies = Pick<
  QueueDependencies,
  'store' | 'spotLocks' | 'workflows' | 'metrics' | 'settings' | 'now'
>;

/** Heads of the queue tried in one call, when the first ones were taken out of it meanwhile. */
const MAX_HEADS_TRIED = 3;

/**
 * Starts the spot's next queued export if the spot is free: takes the spot for the head of the
 * queue (scheduled runs ahead of backfill windows, first in first out), moves it to REQUESTED and
 * starts its workflow. Safe to call from anywhere at any time (the end of an export, a new
 * queued start, the reconciler): the spot lock and the conditional dequeue let one caller win.
 * `candidate` is a queued export the caller just recorded, tried when the queue's index (eventually
 * consistent) does not show it yet. Answers the export it started, if any.
 */
export async function startNextQueued(
  deps: QueueStartDependencies,
  spotId: string,
  candidate?: ExportRecord,
): Promise<ExportRecord | undefined> {
  for (let tried = 0; tried < MAX_HEADS_TRIED; tried += 1) {
    const [indexed] = (await deps.store.listExports(spotId, { status: ExportStatus.QUEUED, limit: 1 })).items;
    const head = indexed ?? (tried === 0 ? await stillQueued(deps, candidate) : undefined);
    if (head === undefined) return undefined;
    try {
      await takeSpotLock(deps, spotId, head.exportId);
    } catch (error) {
      // The spot is busy: its export's end starts the next one.
      if (error instanceof SpotBusyError) return undefined;
      throw error;
    }
    const { record, won } = await transitionOrCurrent(deps, head, ExportStatus.REQUESTED, {
      dequeuedAt: isoAt(deps.now()),
      workflowExecutionName: pollingExecutionName(head.exportId),
    });
    if (!won) {
      // Taken out of the queue (aborted) or started by another caller meanwhile.
      if (record.status !== ExportStatus.REQUESTED) await deps.spotLocks.release(spotId, head.exportId);
      if (record.status === ExportStatus.REQUESTED) return record;
      continue;
    }
    deps.metrics.count('ExportsDequeued');
    // A passing failure leaves it REQUESTED with its execution named: the reconciler starts it.
    await startWorkflowExecution(deps, record, record.workflowExecutionName as string);
    return record;
  }
  return undefined;
}

/**
 * `startNextQueued` for callers that must not fail on it (an export's end has been recorded
 * already): any failure is counted and left to the reconciler, which starts queued exports whose
 * spot is free.
 */
export async function startNextQueuedLater(deps: QueueStartDependencies, spotId: string): Promise<void> {
  try {
    await startNextQueued(deps, spotId);
  } catch (error) {
    deps.metrics.count(isTransientFailure(error) ? 'QueueStartsDeferred' : 'QueueStartsFailed');
  }
}

async function stillQueued(
  deps: QueueStartDependencies,
  candidate: ExportRecord | undefined,
): Promise<ExportRecord | undefined> {
  if (candidate === undefined) return undefined;
  const current = await deps.store.getExport(candidate.spotId, candidate.exportId);
  return current?.status === ExportStatus.QUEUED ? current : undefined;
}

/** The queue positions of the QUEUED records among `records`, by export id (others are absent). */
export async function queuePositions(
  deps: Pick<QueueDependencies, 'store'>,
  records: readonly ExportRecord[],
): Promise<Map<string, number>> {
  const queued = records.filter((record) => record.status === ExportStatus.QUEUED);
  const positions = await Promise.all(queued.map((record) => deps.store.queuePosition(record)));
  return new Map(queued.map((record, index) => [record.exportId, positions[index] as number]));
}
