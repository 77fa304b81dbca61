import { abortExport } from './abortExport';
import {
  createFailureKind,
  describeCreateFailure,
  retryAtMsOf,
  upstreamWaitKindOf,
} from './createFailureKind';
import type { ExportRecord, UpstreamWait } from './ExportRecord';
import { ExportStatus, isTerminal } from './ExportStatus';
import {
  firstPollDelaySecondsFor,
  isoAt,
  onTerminal,
  SPOT_LOCK_DEADLINE_MARGIN_SECONDS,
  toUpstreamRequest,
  transitionOrCurrent,
} from './exportLifecycle';
import { isTransientFailure } from './isTransientFailure';
import type { CreateTaskInput, CreateTaskOutput } from './pollingWorkflowContract';
import type { ExportDependencies } from './ports';
import { adoptListedExport } from './recoverUpstreamExport';
import { takeSpotLock } from './startExport';
import { ExportNotFoundError, SpotBusyError } from './storeErrors';
import { AmbiguousCreateError, ExportConflictError } from './upstreamErrors';
import {
  ExportCreateDeferredError,
  ExportCreateRejectedError,
  ExportPollingTimedOutError,
} from './workflowErrors';

const MS_PER_SECOND = 1000;
/** How the failure reason of an export whose create was refused begins (the rest says why). */
export const CREATE_REFUSED_REASON_PREFIX = 'the create was refused: ';

/**
 * The workflow's first step: authenticate and create the upstream export.
 * - accepted → PROCESSING, and the output carries the learned first wait;
 * - not sent (throttled, paced, unavailable) → the claim is given back, the record says why it
 *   waits, and ExportCreateDeferred lets the state machine's Retry wait with backoff;
 * - refused → FAILED with the upstream's reason, and ExportCreateRejected ends the workflow;
 * - maybe sent → recovered through the upstream's list and a 409 probe, never re-sent blindly;
 * - past the deadline → ExportPollingTimedOut, whose Catch aborts (nothing upstream if nothing was sent).
 * @throws ExportNotFoundError for an unknown export
 */
export async function createUpstreamExport(
  deps: ExportDependencies,
  input: CreateTaskInput,
): Promise<CreateTaskOutput> {
  try {
    return await attemptCreate(deps, input);
  } catch (error) {
    // AWS or network trouble of our own (the table unreachable): nothing is decided, try again later.
    if (isTransientFailure(error)) {
      throw new ExportCreateDeferredError(`Export ${input.exportId}: ${describeCreateFailure(error)}`, {
        cause: error,
      });
    }
    throw error;
  }
}

async function attemptCreate(deps: ExportDependencies, input: CreateTaskInput): Promise<CreateTaskOutput> {
  const record = await deps.store.getExport(input.spotId, input.exportId);
  if (record === undefined) throw new ExportNotFoundError(input.spotId, input.exportId);
  if (record.status !== ExportStatus.REQUESTED) return taskOutput(deps, record, input);
  if (deps.now() > Date.parse(input.deadline))
    throw new ExportPollingTimedOutError(record.exportId, input.deadline);
  const next =
    record.upstreamCreateAttemptedAt === undefined
      ? await claimAndSend(deps, record)
      : await resolveEarlierClaim(deps, record);
  return taskOutput(deps, next, input);
}

async function claimAndSend(deps: ExportDependencies, record: ExportRecord): Promise<ExportRecord> {
  try {
    await takeSpotLock(deps, record.spotId, record.exportId, exportLockLeaseSeconds(deps));
  } catch (error) {
    // Our lease lapsed and another export runs for the spot: the upstream would refuse ours anyway.
    if (!(error instanceof SpotBusyError)) throw error;
    return refuse(
      deps,
      record,
      `${CREATE_REFUSED_REASON_PREFIX}another export of this spot holds the spot`,
      error,
    );
  }
  try {
    // Authenticate first: a create the auth limit puts off then costs no claim, and the wait is told.
    await deps.upstream.ensureAuthenticated(record.spotId);
  } catch (error) {
    const kind = createFailureKind(error);
    if (kind === 'refused')
      return refuse(deps, record, `${CREATE_REFUSED_REASON_PREFIX}${describeCreateFailure(error)}`, error);
    if (kind === 'deferred') return deferBeforeClaim(deps, record, error);
    throw error;
  }
  const claim = await transitionOrCurrent(deps, record, ExportStatus.REQUESTED, {
    upstreamCreateAttemptedAt: isoAt(deps.now()),
    createAttempts: (record.createAttempts ?? 0) + 1,
  });
  // Lost the claim: another attempt (a second workflow) or an abort wrote first. Decide from what it wrote.
  if (!claim.won) return afterLostClaim(claim.record);
  const claimed = claim.record;
  let upstreamExportId: string;
  try {
    ({ exportId: upstreamExportId } = await deps.upstream.createExport(
      claimed.spotId,
      toUpstreamRequest(claimed.request),
    ));
  } catch (error) {
    const kind = createFailureKind(error);
    if (kind === 'deferred') return defer(deps, claimed, error);
    if (kind === 'refused')
      return refuse(deps, claimed, `${CREATE_REFUSED_REASON_PREFIX}${describeCreateFailure(error)}`, error);
    return resolveEarlierClaim(deps, claimed, { justSent: true });
  }
  // Outside the try: the upstream export exists, so a failure from here on must not fail the record.
  return markProcessing(deps, claimed, upstreamExportId);
}

async function afterLostClaim(current: ExportRecord): Promise<ExportRecord> {
  if (current.status !== ExportStatus.REQUESTED) return current;
  throw new ExportCreateDeferredError(`Export ${current.exportId} is being created by another attempt`);
}

/**
 * A claim exists but its outcome is unknown: an attempt that crashed, another workflow's
 * attempt, or a create that may have reached the upstream. A young claim belongs to an
 * attempt still under way: wait for it. Otherwise look for the export in the upstream's
 * list, then probe with the same create: the upstream runs one export per spot, so a 409
 * proves ours runs (its id shows once listed), and a success is the create itself.
 */
async function resolveEarlierClaim(
  deps: ExportDependencies,
  record: ExportRecord,
  { justSent = false } = {},
): Promise<ExportRecord> {
  const claimedAtMs = Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt);
  const claimTimeoutMs = deps.settings.createClaimTimeoutSeconds * MS_PER_SECOND;
  if (!justSent && deps.now() < claimedAtMs + claimTimeoutMs) {
    throw new ExportCreateDeferredError(`Export ${record.exportId}: an earlier create attempt is under way`);
  }
  const adopted = await adoptListedExport(deps, record);
  if (adopted !== undefined) return adopted;
  try {
    const created = await deps.upstream.createExport(record.spotId, toUpstreamRequest(record.request));
    return await markProcessing(deps, record, created.exportId);
  } catch (error) {
    // Ours runs upstream; polls look for its id in the list, where it appears once finished.
    if (error instanceof ExportConflictError) return record;
    if (error instanceof AmbiguousCreateError || createFailureKind(error) === 'deferred') {
      throw new ExportCreateDeferredError(
        `Export ${record.exportId}: the create's outcome is not known yet`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/** The auth could not be had yet: count the attempt, say why the export waits, let the workflow retry. */
async function deferBeforeClaim(
  deps: ExportDependencies,
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
async function defer(deps: ExportDependencies, claimed: ExportRecord, error: unknown): Promise<ExportRecord> {
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
  deps: ExportDependencies,
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
  deps: ExportDependencies,
  aborting: ExportRecord,
): Promise<ExportRecord> {
  const { record: aborted, won } = await transitionOrCurrent(deps, aborting, ExportStatus.ABORTED, {
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, aborted);
  return aborted;
}

/** The upstream said no: FAILED with its reason, spot freed, workflow ended by ExportCreateRejected. */
async function refuse(
  deps: ExportDependencies,
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

/** Upstream id known: PROCESSING, lock held until the deadline; an abort asked meanwhile is sent now. */
export async function markProcessing(
  deps: ExportDependencies,
  record: ExportRecord,
  upstreamExportId: string,
): Promise<ExportRecord> {
  const { record: processing } = await transitionOrCurrent(deps, record, ExportStatus.PROCESSING, {
    upstreamExportId,
    startedAt: isoAt(deps.now()),
  });
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
    await deps.store.acquireSpotLock(processing.spotId, processing.exportId, {
      leaseSeconds: exportLockLeaseSeconds(deps),
    });
    deps.metrics.count('ExportsStarted');
  }
  return processing;
}

function exportLockLeaseSeconds(deps: ExportDependencies): number {
  return deps.settings.exportDeadlineSeconds + SPOT_LOCK_DEADLINE_MARGIN_SECONDS;
}

async function taskOutput(
  deps: ExportDependencies,
  record: ExportRecord,
  input: CreateTaskInput,
): Promise<CreateTaskOutput> {
  return {
    spotId: input.spotId,
    exportId: input.exportId,
    deadline: input.deadline,
    // Finished already: the poll that follows only reads the record.
    firstPollDelaySeconds: isTerminal(record.status)
      ? 0
      : await firstPollDelaySecondsFor(deps, record.spotId),
  };
}
