import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { ExportNotFoundError } from '../record/errors';
import { isoAt } from '../time/instants';
import { UpstreamExportNotFoundError } from '../upstream/errors';
import type { ExportStatusReport } from '../upstream/UpstreamExports';
import { UpstreamExportStatus } from '../upstream/UpstreamExports';
import type { PollObservation } from './planPollUpdate';
import type { LifecycleDependencies } from './ports';
import { recordPoll } from './recordPoll';
import { adoptListedExport, giveUpRecovery, isRecoveryOver } from './recoverUpstreamExport';
import { onTerminal } from './terminalTransitions';

/**
 * Who is asking decides how eagerly the upstream is called:
 * - `api`: serve the record if it was polled within the freshness window;
 * - `workflow` and `reconcile`: always poll (they are the pollers).
 */
export type CheckMode = 'api' | 'workflow' | 'reconcile';

export interface CheckExportCommand {
  spotId: string;
  exportId: string;
  mode: CheckMode;
}

const MS_PER_SECOND = 1000;

// Concurrent checks of one export in one container share one upstream call.
const inFlightChecks = new Map<string, Promise<ExportRecord>>();

/**
 * Reads an export and, when due, asks the upstream once and records what changed.
 * @throws ExportNotFoundError for an unknown id (or another spot's id).
 */
export async function checkExport(
  deps: LifecycleDependencies,
  command: CheckExportCommand,
): Promise<ExportRecord> {
  const record = await deps.store.getExport(command.spotId, command.exportId);
  if (record === undefined) throw new ExportNotFoundError(command.spotId, command.exportId);
  if (isTerminal(record.status) || (command.mode === 'api' && isFresh(deps, record))) return record;
  const key = `${record.spotId}/${record.exportId}`;
  const pending = inFlightChecks.get(key);
  if (pending !== undefined) return pending;
  const check = pollUpstream(deps, record, command.mode).finally(() => inFlightChecks.delete(key));
  inFlightChecks.set(key, check);
  return check;
}

function isFresh(deps: LifecycleDependencies, record: ExportRecord): boolean {
  const polledAt = record.lastPolledAt === undefined ? Number.NaN : Date.parse(record.lastPolledAt);
  return deps.now() - polledAt < deps.settings.statusFreshnessSeconds * MS_PER_SECOND;
}

async function pollUpstream(
  deps: LifecycleDependencies,
  record: ExportRecord,
  mode: CheckMode,
): Promise<ExportRecord> {
  if (record.upstreamExportId === undefined) return pollRecovering(deps, record, mode);
  let report: ExportStatusReport;
  try {
    deps.metrics.count('UpstreamPolls');
    report = await deps.upstream.getExportStatus(record.spotId, record.upstreamExportId);
  } catch (error) {
    if (!(error instanceof UpstreamExportNotFoundError)) throw error;
    return applyObservation(deps, record, mode, {
      status: ExportStatus.FAILED,
      failureReason: 'the upstream no longer knows this export',
      observedAt: isoAt(deps.now()),
    });
  }
  return applyObservation(deps, record, mode, observationOf(deps, record, report));
}

function observationOf(
  deps: LifecycleDependencies,
  record: ExportRecord,
  report: ExportStatusReport,
): PollObservation {
  const observedAt = isoAt(deps.now());
  const base = { upstreamStatus: report.rawStatus ?? '', observedAt };
  switch (report.status) {
    case UpstreamExportStatus.COMPLETED:
      return { ...base, status: ExportStatus.COMPLETED, links: report.links };
    case UpstreamExportStatus.FAILED:
      return {
        ...base,
        status: ExportStatus.FAILED,
        failureReason: `the upstream reported ${report.rawStatus}`,
      };
    case UpstreamExportStatus.ABORTED:
      return { ...base, status: ExportStatus.ABORTED };
    default:
      // Processing, or a status we do not know yet: keep waiting, keep the raw value for diagnosis.
      return {
        ...base,
        status: record.status === ExportStatus.ABORTING ? ExportStatus.ABORTING : ExportStatus.PROCESSING,
      };
  }
}

async function applyObservation(
  deps: LifecycleDependencies,
  record: ExportRecord,
  mode: CheckMode,
  observation: PollObservation,
): Promise<ExportRecord> {
  const { outcome, record: next } = await recordPoll(deps.store, record, observation, {
    pollBookkeepingIntervalSeconds: bookkeepingIntervalSeconds(deps, mode),
  });
  if (outcome === 'updated' && isTerminal(next.status) && !isTerminal(record.status))
    await onTerminal(deps, next);
  return next;
}

/**
 * API reads need lastPolledAt as fresh as the freshness window. The workflow's own polls record
 * each one that saw the export still running: the last of them tells, with the completion, when
 * the upstream finished it, which the spot's next exports learn their expected end from. They are
 * few: a learned first wait lands where the end is expected.
 */
function bookkeepingIntervalSeconds(deps: LifecycleDependencies, mode: CheckMode): number {
  if (mode === 'api') return deps.settings.statusFreshnessSeconds;
  return 0;
}

async function pollRecovering(
  deps: LifecycleDependencies,
  record: ExportRecord,
  mode: CheckMode,
): Promise<ExportRecord> {
  // Nothing sent yet: the workflow's create task sends it (the reconciler relaunches a lost workflow).
  if (record.upstreamCreateAttemptedAt === undefined) return record;
  // A young claim is a create still under way; a reader need not search for it.
  const claimedAtMs = Date.parse(record.upstreamCreateAttemptedAt);
  if (mode === 'api' && deps.now() < claimedAtMs + deps.settings.createClaimTimeoutSeconds * MS_PER_SECOND)
    return record;
  const adopted = await adoptListedExport(deps, record);
  if (adopted !== undefined)
    return adopted.upstreamExportId === undefined ? adopted : pollUpstream(deps, adopted, 'reconcile');
  // Past the polling deadline the workflow gives up (and asks for an abort); the search goes on.
  if (isRecoveryOver(deps, record)) return giveUpRecovery(deps, record);
  return record;
}
