import {
  AuthRejectedError,
  ExportConflictError,
  InvalidExportRequestError,
  InvalidSpotIdError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from '../openweb/errors';
import { CredentialsError, CredentialsUnavailableError } from '../secrets/errors';
import { ExportAlreadyExistsError, IdempotencyConflictError, SpotBusyError } from '../store/errors';
import { abortExport } from './abortExport';
import type { ExportRecord, ExportRequest, ExportSource } from './ExportRecord';
import { ExportStatus, isTerminal } from './ExportStatus';
import { ExportStartDeferredError, ExportStartInProgressError, ExportStartRejectedError } from './errors';
import { newExportId } from './exportId';
import {
  ensurePollingWorkflow,
  isoAt,
  onTerminal,
  SPOT_LOCK_DEADLINE_MARGIN_SECONDS,
  toUpstreamRequest,
  transitionOrCurrent,
} from './exportLifecycle';
import type { ExportDependencies } from './ports';
import { recoverUpstreamExport } from './recoverUpstreamExport';
import { requestFingerprint } from './requestFingerprint';

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

const MS_PER_SECOND = 1000;
/** How often a start that lost the race for a key looks whether the winner has finished. */
export const CONCURRENT_START_POLL_INTERVAL_MS = 100;
/** How long it waits for the winner before answering "in progress". */
export const CONCURRENT_START_MAX_WAIT_MS = 10_000;

/**
 * idempotency → spot lock → REQUESTED → claim the create → upstream create →
 * PROCESSING → polling workflow. Every step converges when repeated: a crash
 * anywhere leaves state a retry (same key) or the reconciler picks up, never a
 * second upstream export.
 */
export async function startExport(
  deps: ExportDependencies,
  command: StartExportCommand,
): Promise<StartExportResult> {
  const { spotId } = command;
  const { exportId, replayed } = await bindIdempotencyKey(deps, command);
  let record = replayed ? await deps.store.getExport(spotId, exportId) : undefined;
  if (record !== undefined && record.status !== ExportStatus.REQUESTED) {
    return { record: await ensurePollingWorkflow(deps, record), replayed };
  }
  if (record?.upstreamCreateAttemptedAt === undefined) {
    // Re-entrant for a replay: renews our own lease, or fails if another export took the spot meanwhile.
    await takeSpotLock(deps, spotId, exportId);
  }
  record ??= await createRequestedRecord(deps, command, exportId);
  if (record.upstreamCreateAttemptedAt === undefined) {
    const claim = await transitionOrCurrent(deps, record, ExportStatus.REQUESTED, {
      upstreamCreateAttemptedAt: isoAt(deps.now()),
    });
    if (claim.won) return { record: await sendCreate(deps, claim.record, command.idempotencyKey), replayed };
    record = claim.record;
  }
  return { record: await awaitOrRecover(deps, record), replayed };
}

async function bindIdempotencyKey(
  deps: ExportDependencies,
  command: StartExportCommand,
): Promise<{ exportId: string; replayed: boolean }> {
  const exportId = newExportId(deps.now());
  if (command.idempotencyKey === undefined) return { exportId, replayed: false };
  try {
    await deps.store.putIdempotencyRecord(command.spotId, command.idempotencyKey, {
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

async function takeSpotLock(deps: ExportDependencies, spotId: string, exportId: string): Promise<void> {
  const leaseSeconds = deps.settings.startLockLeaseSeconds;
  try {
    await deps.store.acquireSpotLock(spotId, exportId, { leaseSeconds });
  } catch (error) {
    if (!(error instanceof SpotBusyError) || error.activeExportId === undefined) throw error;
    // A holder that already finished lost its release to a crash: free it and try once more.
    const holder = await deps.store.getExport(spotId, error.activeExportId);
    if (holder === undefined || !isTerminal(holder.status)) throw error;
    await deps.store.releaseSpotLock(spotId, holder.exportId);
    await deps.store.acquireSpotLock(spotId, exportId, { leaseSeconds });
  }
}

async function createRequestedRecord(
  deps: ExportDependencies,
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
      ...(command.idempotencyKey !== undefined && { idempotencyKey: command.idempotencyKey }),
    });
  } catch (error) {
    if (error instanceof ExportAlreadyExistsError && error.existing) return error.existing;
    throw error;
  }
}

async function sendCreate(
  deps: ExportDependencies,
  record: ExportRecord,
  idempotencyKey: string | undefined,
): Promise<ExportRecord> {
  let created: Awaited<ReturnType<typeof deps.upstream.createExport>>;
  try {
    created = await deps.upstream.createExport(record.spotId, toUpstreamRequest(record.request));
  } catch (error) {
    if (isNotSent(error)) {
      // Nothing exists upstream: record the failed attempt, free the spot and the key, let the caller retry.
      await failStart(deps, record, `upstream unavailable before the create was sent: ${describe(error)}`);
      if (idempotencyKey !== undefined) {
        await deps.store.deleteIdempotencyRecord(record.spotId, idempotencyKey, record.exportId);
      }
      throw new ExportStartDeferredError(
        'The upstream could not be reached; nothing was started',
        retryAfterSecondsOf(error),
        { cause: error },
      );
    }
    // Anything not known to be a refusal may have created the export: recover, never fail blindly.
    if (!isRefusal(error)) return ensurePollingWorkflow(deps, await recoverUpstreamExport(deps, record));
    if (error instanceof ExportConflictError && idempotencyKey !== undefined) {
      // Another export (not ours: we hold the spot lock) runs upstream; a later retry may succeed.
      await deps.store.deleteIdempotencyRecord(record.spotId, idempotencyKey, record.exportId);
    }
    const failed = await failStart(deps, record, describe(error));
    throw new ExportStartRejectedError(failed, { cause: error });
  }
  // Outside the try: a failure from here on must not fail the record, because the upstream
  // export exists. The record stays REQUESTED with its claim, and recovery adopts it.
  return markProcessing(deps, record, created.exportId);
}

/** Upstream id known: PROCESSING, lock held until the deadline, workflow on its way. */
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
      leaseSeconds: deps.settings.exportDeadlineSeconds + SPOT_LOCK_DEADLINE_MARGIN_SECONDS,
    });
    deps.metrics.count('ExportsStarted');
  }
  return ensurePollingWorkflow(deps, processing);
}

async function failStart(
  deps: ExportDependencies,
  record: ExportRecord,
  reason: string,
): Promise<ExportRecord> {
  const { record: failed, won } = await transitionOrCurrent(deps, record, ExportStatus.FAILED, {
    failureReason: reason,
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, failed);
  return failed;
}

/**
 * Another start claimed the create. Wait briefly for it; a claim older than the
 * claim timeout belongs to a start that crashed, whose export is then recovered.
 */
async function awaitOrRecover(deps: ExportDependencies, claimed: ExportRecord): Promise<ExportRecord> {
  const claimTimeoutMs = deps.settings.createClaimTimeoutSeconds * MS_PER_SECOND;
  const claimedAtMs = Date.parse(claimed.upstreamCreateAttemptedAt ?? claimed.requestedAt);
  const waitUntilMs = Math.min(deps.now() + CONCURRENT_START_MAX_WAIT_MS, claimedAtMs + claimTimeoutMs);
  let record = claimed;
  while (record.status === ExportStatus.REQUESTED && deps.now() < waitUntilMs) {
    await new Promise((resolve) => setTimeout(resolve, CONCURRENT_START_POLL_INTERVAL_MS));
    record = (await deps.store.getExport(record.spotId, record.exportId)) ?? record;
  }
  if (record.status !== ExportStatus.REQUESTED) return ensurePollingWorkflow(deps, record);
  if (deps.now() < claimedAtMs + claimTimeoutMs) throw new ExportStartInProgressError(record.exportId);
  return ensurePollingWorkflow(deps, await recoverUpstreamExport(deps, record));
}

function isNotSent(error: unknown): boolean {
  // The client reports every maybe-sent create as AmbiguousCreateError; these mean nothing went out.
  return (
    error instanceof UpstreamUnavailableError ||
    error instanceof UpstreamRateLimitedError ||
    error instanceof TokenUnavailableError ||
    error instanceof CredentialsUnavailableError
  );
}

/** The upstream (or our credentials) said no: nothing was created. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof InvalidExportRequestError ||
    error instanceof ExportConflictError ||
    error instanceof SpotForbiddenError ||
    error instanceof AuthRejectedError ||
    error instanceof InvalidSpotIdError ||
    error instanceof UpstreamRequestRejectedError ||
    (error instanceof CredentialsError && !(error instanceof CredentialsUnavailableError))
  );
}

function retryAfterSecondsOf(error: unknown): number | undefined {
  if (error instanceof UpstreamRateLimitedError && error.retryAfterMs !== undefined) {
    return Math.ceil(error.retryAfterMs / MS_PER_SECOND);
  }
  return undefined;
}

function describe(error: unknown): string {
  if (error instanceof CredentialsError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}
