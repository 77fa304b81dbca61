import { holdSpotLock } from '../queue/spotLockLease';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import { transitionOrCurrent } from '../record/transitionExport';
import { isoAt } from '../time/instants';
import type { ListedExport } from '../upstream/UpstreamExports';
import type { LifecycleDependencies } from './ports';
import { onTerminal } from './terminalTransitions';

/**
 * How long an export whose id is unknown is searched for in the upstream's list. The list
 * shows finished exports only, so the search must outlast the export itself, not just our
 * polling deadline: giving up earlier would leave a running upstream export nobody records.
 * A week matches the life of the upstream's download links.
 */
export const RECOVERY_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether the search for an unknown upstream id is over. */
export function isRecoveryOver(deps: LifecycleDependencies, record: ExportRecord): boolean {
  return (
    deps.now() > Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt) + RECOVERY_HORIZON_MS
  );
}

/** Allowance for clock skew between us and the upstream when matching by creation time. */
export const RECOVERY_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How many of the spot's own records are checked so a recovered id is never one we already track. */
const KNOWN_EXPORTS_SAMPLE = 50;
/**
 * The most ids (of list entries without a creation time) kept on a record before its create:
 * about 40 KB of the item. A longer list keeps none, and such entries then cannot be told apart.
 */
export const MAX_UPSTREAM_IDS_BEFORE_CREATE = 1000;

/**
 * What the upstream's list holds just before a create is sent: the ids of the entries that carry
 * no creation time (an entry that does is told apart by it). Undefined when the list cannot be
 * read or holds more than MAX_UPSTREAM_IDS_BEFORE_CREATE such entries: the create goes out all
 * the same, and if its answer is lost it is never sent again (see `searchUpstreamList`).
 */
export async function upstreamIdsBeforeCreate(
  deps: LifecycleDependencies,
  spotId: string,
): Promise<string[] | undefined> {
  let listed: ListedExport[];
  try {
    listed = await deps.upstream.listExports(spotId);
  } catch {
    return undefined;
  }
  const ids = listed.filter((item) => creationTimeOf(item) === undefined).map((item) => item.exportId);
  return ids.length > MAX_UPSTREAM_IDS_BEFORE_CREATE ? undefined : ids;
}

/** What the upstream's list says about an export whose create may have reached it. */
export interface UpstreamListSearch {
  /** The record with the upstream id it was found under; undefined when not found (yet). */
  adopted: ExportRecord | undefined;
  /**
   * Whether the list proves the export has not finished upstream: every entry no record owns is
   * known to predate the create. Only then may the create be sent again (a 409 then shows it
   * runs; a success is the create itself). Ours may finish between the list and the create: the
   * upstream offers nothing closer.
   */
  provedUnfinished: boolean;
}

/**
 * The create may have reached the upstream but we never learned the id (ambiguous
 * failure, or a crash between sending and recording). The list shows finished exports
 * only. An entry no record of ours owns is our export when it is new since the create:
 * created (by its creation time) since the attempt, or, without a creation time, not among
 * the ids listed just before the create. One such entry is adopted; several are left alone
 * (another party created exports for the spot: which is ours cannot be told). An entry that
 * cannot be judged (no creation time, no list from before) keeps the create from being sent
 * again: it may be ours, finished.
 */
export async function searchUpstreamList(
  deps: LifecycleDependencies,
  record: ExportRecord,
): Promise<UpstreamListSearch> {
  const attemptedAtMs = Date.parse(record.upstreamCreateAttemptedAt ?? record.requestedAt);
  const [listed, known] = await Promise.all([
    deps.upstream.listExports(record.spotId),
    deps.store.listExports(record.spotId, { limit: KNOWN_EXPORTS_SAMPLE }),
  ]);
  const owned = new Set(known.items.map((item) => item.upstreamExportId).filter((id) => id !== undefined));
  const before =
    record.upstreamIdsBeforeCreate === undefined ? undefined : new Set(record.upstreamIdsBeforeCreate);
  const unowned = listed.filter((item) => !owned.has(item.exportId));
  const judged = unowned.map((item) => ({
    item,
    newSinceCreate: isNewSinceCreate(item, attemptedAtMs, before),
  }));
  const candidates = judged.filter(({ newSinceCreate }) => newSinceCreate === true).map(({ item }) => item);
  const undecided = judged.some(({ newSinceCreate }) => newSinceCreate === undefined);
  const candidate = chooseCandidate(candidates);
  return {
    adopted: candidate === undefined ? undefined : await adopt(deps, record, candidate.exportId),
    provedUnfinished: candidates.length === 0 && !undecided,
  };
}

/** The search alone, for polls and aborts of a record still waiting for its id. Undefined when nothing matched yet. */
export async function adoptListedExport(
  deps: LifecycleDependencies,
  record: ExportRecord,
): Promise<ExportRecord | undefined> {
  return (await searchUpstreamList(deps, record)).adopted;
}

/** True: created since the attempt; false: from before; undefined: cannot be told. */
function isNewSinceCreate(
  item: ListedExport,
  attemptedAtMs: number,
  before: ReadonlySet<string> | undefined,
): boolean | undefined {
  const createdMs = creationTimeOf(item);
  if (createdMs !== undefined) return createdMs >= attemptedAtMs - RECOVERY_CLOCK_SKEW_MS;
  return before === undefined ? undefined : !before.has(item.exportId);
}

/**
 * The oldest candidate when every one has a creation time (as before lists without them were
 * considered); otherwise only a single candidate: two new entries without times cannot be told apart.
 */
function chooseCandidate(candidates: readonly ListedExport[]): ListedExport | undefined {
  if (candidates.length === 1) return candidates[0];
  if (candidates.some((item) => creationTimeOf(item) === undefined)) return undefined;
  return [...candidates].sort((a, b) => (creationTimeOf(a) as number) - (creationTimeOf(b) as number))[0];
}

function creationTimeOf(item: ListedExport): number | undefined {
  const createdMs = item.createdAt === undefined ? Number.NaN : Date.parse(item.createdAt);
  return Number.isFinite(createdMs) ? createdMs : undefined;
}

async function adopt(
  deps: LifecycleDependencies,
  record: ExportRecord,
  upstreamExportId: string,
): Promise<ExportRecord> {
  const to = record.status === ExportStatus.REQUESTED ? ExportStatus.PROCESSING : record.status;
  const { record: adopted, won } = await transitionOrCurrent(
    deps,
    record,
    to,
    { upstreamExportId, startedAt: record.upstreamCreateAttemptedAt ?? isoAt(deps.now()) },
    // Identified: the list from before the create has served its purpose.
    { remove: ['upstreamIdsBeforeCreate'] },
  );
  if (won) {
    deps.metrics.count('ExportsRecovered');
    await holdSpotLock(deps, adopted.spotId, adopted.exportId);
  }
  return adopted;
}

/** A record whose id could not be recovered within the recovery horizon: FAILED, spot freed. */
export async function giveUpRecovery(
  deps: LifecycleDependencies,
  record: ExportRecord,
): Promise<ExportRecord> {
  const { record: failed, won } = await transitionOrCurrent(deps, record, ExportStatus.FAILED, {
    failureReason: 'the upstream export id could not be recovered',
    completedAt: isoAt(deps.now()),
  });
  if (won) await onTerminal(deps, failed);
  return failed;
}
