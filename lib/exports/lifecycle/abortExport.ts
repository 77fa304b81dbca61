import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import { ExportAlreadyFinishedError, ExportNotFoundError } from '../record/errors';
import { DEADLINE_PASSED_BEFORE_CREATE_REASON, DEADLINE_PASSED_REASON } from '../record/failureReasons';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import { ExportNotAbortableError, UpstreamExportNotFoundError } from '../upstream/errors';
import { checkExport } from './checkExport';
import type { LifecycleDependencies } from './ports';
import { adoptListedExport, giveUpRecovery, isRecoveryOver } from './recoverUpstreamExport';
import { onTerminal } from './terminalTransitions';

const MS_PER_SECOND = 1000;
/**
 * What the upstream last said once it took the abort: it answers an abort without a status, and
 * the export is never polled again, so its last poll's "Processing" would be stale.
 */
export const UPSTREAM_ABORT_ACCEPTED = 'abort accepted';

export type AbortReason = 'requested' | 'timeout';

export interface AbortExportCommand {
  spotId: string;
  exportId: string;
  reason: AbortReason;
}

/**
 * PROCESSING → ABORTING (conditional) → upstream abort → ABORTED, spot freed,
 * workflow stopped; a QUEUED export leaves its queue (ABORTED, nothing was sent upstream).
 * Abort racing completion has one winner: the first conditional write. Repeating an abort
 * is safe: ABORTED answers again, ABORTING retries upstream.
 * @throws ExportNotFoundError, ExportAlreadyFinishedError
 */
export async function abortExport(
  deps: LifecycleDependencies,
  command: AbortExportCommand,
): Promise<ExportRecord> {
  const record = await deps.store.getExport(command.spotId, command.exportId);
  if (record === undefined) throw new ExportNotFoundError(command.spotId, command.exportId);
  const aborting = await markAborting(deps, record, command.reason);
  if (aborting.status === ExportStatus.ABORTED) return aborting;
  if (aborting.status !== ExportStatus.ABORTING) throw new ExportAlreadyFinishedError(aborting);
  // The create is in flight or its id is being recovered: the abort goes out once the id is known.
  if (aborting.upstreamExportId === undefined) return abortOnceIdentified(deps, aborting, command.reason);
  return sendAbort(deps, aborting, command);
}

/**
 * An abort of an export whose upstream id is still unknown: look for it in the upstream's
 * list (it appears once finished); found, the abort is sent (and the upstream's answer that it
 * already finished settles the record); not found, it stays ABORTING for the reconciler to
 * try again, until the recovery horizon ends the search.
 */
async function abortOnceIdentified(
  deps: LifecycleDependencies,
  aborting: ExportRecord,
  reason: AbortReason,
): Promise<ExportRecord> {
  // A start still inside its claim window is about to learn the id itself and will send the abort.
  const claimedAtMs = Date.parse(aborting.upstreamCreateAttemptedAt ?? aborting.requestedAt);
  if (deps.now() < claimedAtMs + deps.settings.createClaimTimeoutSeconds * MS_PER_SECOND) return aborting;
  const identified = await adoptListedExport(deps, aborting);
  if (identified?.upstreamExportId !== undefined && identified.status === ExportStatus.ABORTING) {
    const command = { spotId: identified.spotId, exportId: identified.exportId, reason };
    // Found in the list means it already finished: its own outcome stands, nothing to refuse.
    return sendAbort(deps, identified, command).catch((error: unknown) => {
      if (error instanceof ExportAlreadyFinishedError) return error.current;
      throw error;
    });
  }
  if (identified === undefined && isRecoveryOver(deps, aborting)) return giveUpRecovery(deps, aborting);
  return identified ?? aborting;
}

async function sendAbort(
  deps: LifecycleDependencies,
  aborting: ExportRecord,
  command: AbortExportCommand,
): Promise<ExportRecord> {
  const upstreamExportId = aborting.upstreamExportId as string;
  try {
    await deps.upstream.abortExport(aborting.spotId, upstreamExportId);
  } catch (error) {
    if (error instanceof ExportNotAbortableError || error instanceof UpstreamExportNotFoundError) {
      // The upstream finished first: what it says now is the outcome.
      const settled = await checkExport(deps, { ...command, mode: 'reconcile' });
      if (settled.status === ExportStatus.ABORTED) return settled;
      if (settled.status !== ExportStatus.ABORTING)
        throw new ExportAlreadyFinishedError(settled, { cause: error });
      return finishAbort(deps, settled, command.reason);
    }
    throw error;
  }
  return finishAbort(deps, aborting, command.reason, UPSTREAM_ABORT_ACCEPTED);
}

async function markAborting(
  deps: LifecycleDependencies,
  record: ExportRecord,
  reason: AbortReason,
): Promise<ExportRecord> {
  if (
    record.status !== ExportStatus.PROCESSING &&
    record.status !== ExportStatus.REQUESTED &&
    record.status !== ExportStatus.QUEUED
  )
    return record;
  // A queued export, or a create never sent, leaves nothing upstream: straight to ABORTED.
  const to =
    record.status === ExportStatus.QUEUED ||
    (record.status === ExportStatus.REQUESTED && record.upstreamCreateAttemptedAt === undefined)
      ? ExportStatus.ABORTED
      : ExportStatus.ABORTING;
  const { record: next, won } = await transitionOrCurrent(deps, record, to, {
    ...(reason === 'timeout' && {
      failureReason:
        to === ExportStatus.ABORTED ? DEADLINE_PASSED_BEFORE_CREATE_REASON : DEADLINE_PASSED_REASON,
    }),
    ...(to === ExportStatus.ABORTED && { completedAt: isoAt(deps.now()) }),
  });
  if (won && next.status === ExportStatus.ABORTED) {
    // Its workflow is still waiting to create: stop it first, before it sees the record ended
    // (the timeout path is the workflow itself).
    if (reason === 'requested' && next.workflowExecutionName !== undefined)
      await deps.workflows.stop(next.workflowExecutionName, 'export aborted');
    await onTerminal(deps, next);
  }
  // Lost the race: another writer moved it on; decide again from what it wrote.
  return next.status === record.status ? markAborting(deps, next, reason) : next;
}

async function finishAbort(
  deps: LifecycleDependencies,
  record: ExportRecord,
  reason: AbortReason,
  upstreamStatus?: string,
): Promise<ExportRecord> {
  const { record: aborted, won } = await transitionOrCurrent(deps, record, ExportStatus.ABORTED, {
    completedAt: isoAt(deps.now()),
    ...(upstreamStatus !== undefined && { upstreamStatus }),
  });
  if (!won) return aborted;
  // The timeout path is the workflow itself, which ends on its own.
  if (reason === 'requested' && aborted.workflowExecutionName !== undefined) {
    await deps.workflows.stop(aborted.workflowExecutionName, 'export aborted');
  }
  await onTerminal(deps, aborted);
  return aborted;
}
