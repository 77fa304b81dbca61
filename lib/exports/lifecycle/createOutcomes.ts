import { holdSpotLock } from '../queue/spotLockLease';
import type { ExportRecord, UpstreamWait } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import { describeCreateFailure, retryAtMsOf, upstreamWaitKindOf } from '../upstream/createFailureKind';
import { ExportCreateDeferredError, ExportCreateRejectedError } from '../workflow/errors';
import { abortExport } from './abortExport';
import { expectedEndWindowFor } from './expectedExportDuration';
import type { LifecycleDependencies } from './ports';
import { onTerminal } from './terminalTransitions';

const MS_PER_SECOND = 1000;

/**
 * What a create attempt's outcome does to the export: the create task (./createUpstreamExport.ts)
 * decides which outcome it met; these write it, each leaving the record in a state the next
 * attempt, an abort or the reconciler continues from.
 */

/** The auth could not be had yet: count the attempt, say why the export waits, let the workflow retry. */
export async function deferBeforeClaim(
  deps: LifecycleDependencies,
  record: ExportRecord,
  error: unknown,
): Promise<never> {
  const nowMs = deps.now();
  const retryAtMs = retryAtMsOf(error, nowMs);
  // Lost to a concurrent writer: its write says as much as ours would.
  await transitionOrCurrent(
    deps,
    record,
    ExportStatus.REQUESTED,
    {
      createAttempts: (record.createAttempts ?? 0) + 1,
      lastUpstreamWait: waitOf(error, nowMs),
      ...(retryAtMs !== undefined && { nextCreateAttemptAt: isoAt(retryAtMs) }),
    },
    retryAtMs === undefined ? { remove: ['nextCreateAttemptAt'] } : {},
  );
  throw new ExportCreateDeferredError(`Export ${record.exportId} waits for the upstream`, { cause: error });
}

function waitOf(error: unknown, nowMs: number): UpstreamWait {
  return { kind: upstreamWaitKindOf(error), at: isoAt(nowMs), message: describeCreateFailure(error) };
}

/** Nothing reached the upstream: give the claim back, say why the export waits, let the workflow retry. */
export async function defer(
  deps: LifecycleDependencies,
  claimed: ExportRecord,
  error: unknown,
): Promise<ExportRecord> {
  const nowMs = deps.now();
  const retryAtMs = retryAtMsOf(error, nowMs);
  const released = await releaseClaim(deps, claimed, {
    lastUpstreamWait: waitOf(error, nowMs),
    ...(retryAtMs !== undefined && { nextCreateAttemptAt: isoAt(retryAtMs) }),
  });
  // Aborted meanwhile: finished, nothing to retry.
  if (isTerminal(released.status)) return released;
  throw new ExportCreateDeferredError(`Export ${claimed.exportId} waits for the upstream`, { cause: error });
}

/**
 * Gives back a claim whose create never left. An abort that arrived meanwhile (ABORTING
 * without an upstream id) ends here as ABORTED: there is nothing upstream to abort.
 */
async function releaseClaim(
  deps: LifecycleDependencies,
  claimed: ExportRecord,
  changes: Pick<ExportRecord, 'lastUpstreamWait' | 'nextCreateAttemptAt'>,
): Promise<ExportRecord> {
  let current = claimed;
  while (current.status === ExportStatus.REQUESTED) {
    const { record, won } = await transitionOrCurrent(deps, current, ExportStatus.REQUESTED, changes, {
      remove:
        changes.nextCreateAttemptAt === undefined
          ? ['upstreamCreateAttemptedAt', 'nextCreateAttemptAt']
          : ['upstreamCreateAttemptedAt'],
    });
    if (won) return record;
    current = record;
  }
  if (current.status === ExportStatus.ABORTING && current.upstreamExportId === undefined) {
    return finishAbortNothingSent(deps, current);
  }
  return current;
}

async function finishAbortNothingSent(
  deps: LifecycleDependencies,
  aborting: ExportRecord,
): Promise<ExportRecord> {
  const { record: aborted, won } = await transitionOrCurrent(deps, aborting, ExportStatus.ABORTED, {
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, aborted);
  return aborted;
}

/** The upstream said no: FAILED with its reason, spot freed, workflow ended by ExportCreateRejected. */
export async function refuse(
  deps: LifecycleDependencies,
  record: ExportRecord,
  reason: string,
  cause: unknown,
): Promise<never> {
  const { record: failed, won } = await transitionOrCurrent(deps, record, ExportStatus.FAILED, {
    failureReason: reason,
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, failed);
  else if (failed.status === ExportStatus.ABORTING && failed.upstreamExportId === undefined) {
    // Aborted while the refused create was in flight: nothing exists upstream.
    await finishAbortNothingSent(deps, failed);
  }
  throw new ExportCreateRejectedError(record.exportId, reason, { cause });
}

/**
 * Upstream id known: PROCESSING, with when its end is expected (from the spot's history), lock
 * held until the deadline; an abort asked meanwhile is sent now.
 */
export async function markProcessing(
  deps: LifecycleDependencies,
  record: ExportRecord,
  upstreamExportId: string,
): Promise<ExportRecord> {
  const startedAtMs = deps.now();
  // Learned before the write, so the record says when to look for the end from the start.
  const expected = await expectedEndWindowFor(deps, record);
  const { record: processing } = await transitionOrCurrent(
    deps,
    record,
    ExportStatus.PROCESSING,
    {
      upstreamExportId,
      startedAt: isoAt(startedAtMs),
      ...(expected !== undefined && {
        expectedEnd: {
          from: isoAt(startedAtMs + expected.fromSeconds * MS_PER_SECOND),
          until: isoAt(startedAtMs + expected.untilSeconds * MS_PER_SECOND),
          typical: isoAt(startedAtMs + expected.typicalSeconds * MS_PER_SECOND),
        },
      }),
    },
    // The id is known: the upstream's list from before the create is not needed to find it.
    { remove: ['upstreamIdsBeforeCreate'] },
  );
  if (processing.status === ExportStatus.ABORTING && processing.upstreamExportId === undefined) {
    // An abort arrived while the create was in flight: record the id, then send the abort it asked for.
    await transitionOrCurrent(deps, processing, ExportStatus.ABORTING, { upstreamExportId });
    return abortExport(deps, {
      spotId: processing.spotId,
      exportId: processing.exportId,
      reason: 'requested',
    });
  }
  if (processing.status === ExportStatus.PROCESSING) {
    await holdSpotLock(deps, processing.spotId, processing.exportId);
    deps.metrics.count('ExportsStarted');
  }
  return processing;
}
