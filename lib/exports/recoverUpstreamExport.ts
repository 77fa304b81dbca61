import { toUpstreamRequest } from './CreateExportRequest';
import type { ExportRecord } from './ExportRecord';
import { ExportStatus } from './ExportStatus';
import { isoAt } from './isoAt';
import type { ExportDependencies } from './ports';
import { holdSpotLock } from './spotLockLease';
import { onTerminal } from './terminalTransitions';
import { transitionOrCurrent } from './transitionExport';
import type { ListedExport } from './UpstreamExports';
import { AmbiguousCreateError, ExportConflictError } from './upstreamErrors';

/**
 * How long an export whose id is unknown is searched for in the upstream's list. The list
 * shows finished exports only, so the search must outlast the export itself, not just our
 * polling deadline: giving up earlier would leave a running upstream export nobody records.
 * A week matches the life of the upstream's download links.
 */
export const RECOVERY_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether the search for an unknown upstream id is over. */
export function isRecoveryOver(deps: ExportDependencies, record: ExportRecord): boolean {
  return (
    deps.now() > Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt) + RECOVERY_HORIZON_MS
  );
}

/** Allowance for clock skew between us and the upstream when matching by creation time. */
export const RECOVERY_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How many of the spot's own records are checked so a recovered id is never one we already track. */
const KNOWN_EXPORTS_SAMPLE = 50;

/**
 * The create may have reached the upstream but we never learned the id (ambiguous
 * failure, or a crash between sending and recording). Never blindly re-send:
 * 1. look in the upstream's list for an export created since our attempt that no
 *    record of ours owns, and adopt it;
 * 2. otherwise send the create once more: the upstream runs one export per spot,
 *    so if ours exists and is still running this answers 409 and creates nothing;
 *    if ours never happened, this is the create;
 * 3. on 409 the export is ours but its id shows up only once it finishes: the record
 *    stays REQUESTED and each poll repeats step 1 until it appears or the deadline passes.
 */
export async function recoverUpstreamExport(
  deps: ExportDependencies,
  record: ExportRecord,
): Promise<ExportRecord> {
  const adopted = await adoptListedExport(deps, record);
  if (adopted !== undefined || record.status !== ExportStatus.REQUESTED) return adopted ?? record;
  try {
    const created = await deps.upstream.createExport(record.spotId, toUpstreamRequest(record.request));
    return await adopt(deps, record, created.exportId);
  } catch (error) {
    if (error instanceof ExportConflictError || error instanceof AmbiguousCreateError) return record;
    throw error;
  }
}

/** Step 1 alone, for polls of a record still waiting for its id. Undefined when nothing matched yet. */
export async function adoptListedExport(
  deps: ExportDependencies,
  record: ExportRecord,
): Promise<ExportRecord | undefined> {
  const attemptedAtMs = Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt);
  const [listed, known] = await Promise.all([
    deps.upstream.listExports(record.spotId),
    deps.store.listExports(record.spotId, { limit: KNOWN_EXPORTS_SAMPLE }),
  ]);
  const owned = new Set(known.items.map((item) => item.upstreamExportId).filter((id) => id !== undefined));
  const candidate = listed
    .filter((item) => !owned.has(item.exportId) && createdSince(item, attemptedAtMs - RECOVERY_CLOCK_SKEW_MS))
    .sort((a, b) => Date.parse(a.createdAt as string) - Date.parse(b.createdAt as string))[0];
  return candidate === undefined ? undefined : adopt(deps, record, candidate.exportId);
}

async function adopt(
  deps: ExportDependencies,
  record: ExportRecord,
  upstreamExportId: string,
): Promise<ExportRecord> {
  const to = record.status === ExportStatus.REQUESTED ? ExportStatus.PROCESSING : record.status;
  const { record: adopted, won } = await transitionOrCurrent(deps, record, to, {
    upstreamExportId,
    startedAt: record.upstreamCreateAttemptedAt ?? isoAt(deps.now()),
  });
  if (won) {
    deps.metrics.count('ExportsRecovered');
    await holdSpotLock(deps, adopted.spotId, adopted.exportId);
  }
  return adopted;
}

function createdSince(item: ListedExport, sinceMs: number): boolean {
  const createdMs = item.createdAt === undefined ? Number.NaN : Date.parse(item.createdAt);
  return Number.isFinite(createdMs) && createdMs >= sinceMs;
}

/** A record whose id could not be recovered within the recovery horizon: FAILED, spot freed. */
export async function giveUpRecovery(deps: ExportDependencies, record: ExportRecord): Promise<ExportRecord> {
  const { record: failed, won } = await transitionOrCurrent(deps, record, ExportStatus.FAILED, {
    failureReason: 'the upstream export id could not be recovered',
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, failed);
  return failed;
}
