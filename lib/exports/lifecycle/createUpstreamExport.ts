import { SpotBusyError } from '../queue/errors';
import { takeSpotLock } from '../queue/spotLockLease';
import { toUpstreamRequest } from '../record/CreateExportRequest';
import type { ExpectedEnd, ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { ExportNotFoundError } from '../record/errors';
import { CREATE_REFUSED_REASON_PREFIX, isTransientFailure } from '../record/failureReasons';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import { createFailureKind, describeCreateFailure, refusalReason } from '../upstream/createFailureKind';
import { AmbiguousCreateError, ExportConflictError } from '../upstream/errors';
import { ExportCreateDeferredError, ExportPollingTimedOutError } from '../workflow/errors';
import type { CreateTaskOutput } from '../workflow/workflowContract';
import type { CreateTaskInput } from '../workflow/workflowTaskInput';
import { defer, deferBeforeClaim, markProcessing, refuse } from './createOutcomes';
import { firstPollDelaySecondsFor } from './expectedExportDuration';
import type { LifecycleDependencies } from './ports';
import { searchUpstreamList, upstreamIdsBeforeCreate } from './recoverUpstreamExport';
import { someoneWaitsFor } from './someoneWaits';

const MS_PER_SECOND = 1000;

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
  deps: LifecycleDependencies,
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

async function attemptCreate(deps: LifecycleDependencies, input: CreateTaskInput): Promise<CreateTaskOutput> {
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

async function claimAndSend(deps: LifecycleDependencies, record: ExportRecord): Promise<ExportRecord> {
  try {
    await takeSpotLock(deps, record.spotId, record.exportId);
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
    if (kind === 'refused') return refuse(deps, record, refusalReason(error), error);
    if (kind === 'deferred') return deferBeforeClaim(deps, record, error);
    throw error;
  }
  // Read before the claim: an id listed later that is not among these is one our create made.
  const idsBefore = await upstreamIdsBeforeCreate(deps, record.spotId);
  const claim = await transitionOrCurrent(
    deps,
    record,
    ExportStatus.REQUESTED,
    {
      upstreamCreateAttemptedAt: isoAt(deps.now()),
      createAttempts: (record.createAttempts ?? 0) + 1,
      ...(idsBefore !== undefined && { upstreamIdsBeforeCreate: idsBefore }),
    },
    // An earlier attempt's list says nothing about this one.
    idsBefore === undefined ? { remove: ['upstreamIdsBeforeCreate'] } : {},
  );
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
    if (kind === 'refused') return refuse(deps, claimed, refusalReason(error), error);
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
 * list. Only when the list proves ours has not finished, probe with the same create: the
 * upstream runs one export per spot, so a 409 proves ours runs (its id shows once listed),
 * and a success is the create itself. When the list cannot prove it (an entry that may be
 * ours), the create is never sent again: polls go on looking for the id.
 */
async function resolveEarlierClaim(
  deps: LifecycleDependencies,
  record: ExportRecord,
  { justSent = false } = {},
): Promise<ExportRecord> {
  const claimedAtMs = Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt);
  const claimTimeoutMs = deps.settings.createClaimTimeoutSeconds * MS_PER_SECOND;
  if (!justSent && deps.now() < claimedAtMs + claimTimeoutMs) {
    throw new ExportCreateDeferredError(`Export ${record.exportId}: an earlier create attempt is under way`);
  }
  const search = await searchUpstreamList(deps, record);
  if (search.adopted !== undefined) return search.adopted;
  if (!search.provedUnfinished) return record;
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

/**
 * The state the rest of the workflow reads. The first wait is what the spot's history says an
 * export takes, but never past the deadline: a workflow restarted late (by the reconciler) polls
 * in time to notice it. With someone waiting the first poll comes as the expected end begins;
 * with nobody, when most of the spot's exports had ended (then backoff); without history, after
 * the spot's median.
 */
async function taskOutput(
  deps: LifecycleDependencies,
  record: ExportRecord,
  input: CreateTaskInput,
): Promise<CreateTaskOutput> {
  // Finished already: the poll that follows only reads the record.
  if (isTerminal(record.status)) return { ...outputIds(input), firstPollDelaySeconds: 0 };
  const learnedSeconds =
    record.expectedEnd === undefined
      ? await firstPollDelaySecondsFor(deps, record.spotId)
      : Math.max(
          0,
          Math.floor(
            (firstPollAtMs(record.expectedEnd, await someoneWaitsFor(deps, record)) - deps.now()) /
              MS_PER_SECOND,
          ),
        );
  const untilDeadlineSeconds = Math.max(
    0,
    Math.ceil((Date.parse(input.deadline) - deps.now()) / MS_PER_SECOND),
  );
  return { ...outputIds(input), firstPollDelaySeconds: Math.min(learnedSeconds, untilDeadlineSeconds) };
}

function firstPollAtMs(expectedEnd: ExpectedEnd, someoneWaits: boolean): number {
  return Date.parse(someoneWaits ? expectedEnd.from : (expectedEnd.typical ?? expectedEnd.from));
}

function outputIds(input: CreateTaskInput): Omit<CreateTaskOutput, 'firstPollDelaySeconds'> {
  return { spotId: input.spotId, exportId: input.exportId, deadline: input.deadline };
}
