import type { ExportStatus } from '../exports/record/ExportStatus';

/**
 * Key layout of the single table. Everything about a spot lives in its
 * partition (`SPOT#<spotId>`), told apart by the sort key:
 *
 * | item            | pk            | sk                   | statusIndexPk / Sk                   | activeIndexPk / Sk               |
 * |-----------------|---------------|----------------------|--------------------------------------|----------------------------------|
 * | export record   | SPOT#<spotId> | EXPORT#<exportId>    | SPOT#<spotId>#STATUS#<s> / exportId  | ACTIVE / lastPolledAt ?? requestedAt (active only) |
 * | spot lock       | SPOT#<spotId> | LOCK                 | –                                    | –                                |
 * | idempotency key | SPOT#<spotId> | IDEMPOTENCY#<key>    | –                                    | –                                |
 * | export links    | SPOT#<spotId> | LINKS#<exportId>#<linkSetId>#<n> | –                        | –                                |
 * | upstream token  | SPOT#<spotId> | UPSTREAM_TOKEN       | –                                    | –                                |
 * | coverage window | SPOT#<spotId> | WINDOW#<from>#<until> | –                                   | WINDOW_DUE / dueAt (while due)   |
 * | watermark       | SPOT#<spotId> | WATERMARK#<schedule> | –                                    | –                                |
 * | freshness mark  | SPOT#<spotId> | FRESHNESS            | –                                    | FRESHNESS_DUE / checkAt          |
 * | backfill        | SPOT#<spotId> | BACKFILL#<id>        | –                                    | BACKFILL_OPEN / createdAt (while its windows are being recorded) |
 * | erasure         | SPOT#<spotId> | ERASURE#<erasureId>  | –                                    | ERASURE_RUNNING / leaseUntil ?? requestedAt (while RUNNING) |
 * | suppressed user | SPOT#<spotId> | SUPPRESSED#<userId>  | –                                    | –                                |
 * | spot seen       | SPOT#<spotId> | SEEN                 | –                                    | SPOTS / spotId (for good)        |
 * | auth pacing     | UPSTREAM_AUTH | PACING               | –                                    | –                                |
 *
 * Export ids sort by creation time, so a descending query lists newest first
 * without an extra index. Link pages hold the links of an export whose link set is too big for
 * its item (DynamoDbExportLinks); they sort outside `EXPORT#`, so listings never see them. The active index has one partition: it holds at
 * most one active export per spot (the spot lock), far below a partition's
 * write limit.
 */
export const EntityType = {
  export: 'EXPORT',
  spotLock: 'SPOT_LOCK',
  idempotency: 'IDEMPOTENCY',
  exportLinks: 'EXPORT_LINKS',
  upstreamToken: 'UPSTREAM_TOKEN',
  coverageWindow: 'COVERAGE_WINDOW',
  scheduleWatermark: 'SCHEDULE_WATERMARK',
  backfill: 'BACKFILL',
  freshnessMark: 'FRESHNESS_MARK',
  erasure: 'ERASURE',
  suppressedUser: 'SUPPRESSED_USER',
  authPacing: 'AUTH_PACING',
  restatementBudget: 'RESTATEMENT_BUDGET',
  spotSeen: 'SPOT_SEEN',
} as const;

export const EXPORT_SORT_KEY_PREFIX = 'EXPORT#';

/**
 * The partitions of the sparse reconciler index (physically `activeByLastPolled`, its name since
 * it held active exports only): what the reconciler must look at, each sorted by when it is due.
 * An item is in at most one of them, and leaves the index once nothing is due.
 */
export const ReconcilerIndexPartition = {
  /** Active exports (REQUESTED, PROCESSING, ABORTING), by last poll (else when they took the spot). */
  ACTIVE: 'ACTIVE',
  /** Queued exports, oldest first: the reconciler starts one whose spot is free. */
  QUEUED: 'QUEUED',
  /** COMPLETED exports whose archive is not final, by when their claim lapses (else completion). */
  ARCHIVE_PENDING: 'ARCHIVE_PENDING',
  /**
   * Coverage windows the reconciler must look at, by when: an IN_FLIGHT window's export is checked
   * (recorded if a crash lost it, its outcome settled if it was missed), a RETRYING one tried again.
   */
  WINDOW_DUE: 'WINDOW_DUE',
  /** ARCHIVED exports whose partition the catalog has not taken yet, by when they were archived. */
  CATALOG_PENDING: 'CATALOG_PENDING',
  /** Backfills whose windows are not all recorded yet, by when they were planned. */
  BACKFILL_OPEN: 'BACKFILL_OPEN',
  /** Freshness marks, by when the freshness watch measures their spot next. */
  FRESHNESS_DUE: 'FRESHNESS_DUE',
  /** RUNNING erasures, by when their run's lease lapses (else when they were asked for). */
  ERASURE_RUNNING: 'ERASURE_RUNNING',
  /**
   * Every spot that has had an export, by id, for good: the fleet's list of spots used over the
   * API only. Never due; the reconciler does not read it. Written once per spot and instance.
   */
  SPOTS: 'SPOTS',
} as const;

export type ReconcilerIndexPartition =
  (typeof ReconcilerIndexPartition)[keyof typeof ReconcilerIndexPartition];

export interface TableKey {
  pk: string;
  sk: string;
}

export function spotPartitionKey(spotId: string): string {
  return `SPOT#${spotId}`;
}

/** The item that says a spot has had an export (the fleet lists it from the SPOTS partition). */
export function spotSeenKey(spotId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: 'SEEN' };
}

export function exportKey(spotId: string, exportId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${EXPORT_SORT_KEY_PREFIX}${exportId}` };
}

/** Sort-key prefix of one link set's pages. */
export function exportLinksPagePrefix(exportId: string, linkSetId: string): string {
  return `LINKS#${exportId}#${linkSetId}#`;
}

/** Page `index` (from 0) of a link set; zero-padded so pages sort in order. */
export function exportLinksPageKey(
  spotId: string,
  exportId: string,
  linkSetId: string,
  index: number,
): TableKey {
  return {
    pk: spotPartitionKey(spotId),
    sk: `${exportLinksPagePrefix(exportId, linkSetId)}${String(index).padStart(6, '0')}`,
  };
}

/** Sort-key prefix of a spot's coverage windows: they sort by start, then end. */
export const WINDOW_SORT_KEY_PREFIX = 'WINDOW#';

export function coverageWindowKey(spotId: string, from: string, until: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${WINDOW_SORT_KEY_PREFIX}${from}#${until}` };
}

export const WATERMARK_SORT_KEY_PREFIX = 'WATERMARK#';

export function scheduleWatermarkKey(spotId: string, schedule: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${WATERMARK_SORT_KEY_PREFIX}${schedule}` };
}

/** A spot's count of restatements started on one UTC day (`YYYY-MM-DD`). */
export function restatementBudgetKey(spotId: string, day: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `RESTATEMENT_BUDGET#${day}` };
}

export const BACKFILL_SORT_KEY_PREFIX = 'BACKFILL#';

export function backfillKey(spotId: string, backfillId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${BACKFILL_SORT_KEY_PREFIX}${backfillId}` };
}

export const ERASURE_SORT_KEY_PREFIX = 'ERASURE#';

export function erasureKey(spotId: string, erasureId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${ERASURE_SORT_KEY_PREFIX}${erasureId}` };
}

/** Sort-key prefix of a spot's suppression list: one item per user. */
export const SUPPRESSED_USER_SORT_KEY_PREFIX = 'SUPPRESSED#';

export function suppressedUserKey(spotId: string, userId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `${SUPPRESSED_USER_SORT_KEY_PREFIX}${userId}` };
}

/** Whether the spot was last announced stale: one `Coverage Stale` per episode. */
export function freshnessMarkKey(spotId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: 'FRESHNESS' };
}

export function spotLockKey(spotId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: 'LOCK' };
}

export function idempotencyKey(spotId: string, key: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: `IDEMPOTENCY#${key}` };
}

export function upstreamTokenKey(spotId: string): TableKey {
  return { pk: spotPartitionKey(spotId), sk: 'UPSTREAM_TOKEN' };
}

/**
 * Where the one-off sweep that indexes the archives of records from before archives were indexed
 * stands: the scan's next start key, or done.
 */
export function legacyArchiveIndexKey(): TableKey {
  return { pk: 'MIGRATION', sk: 'LEGACY_ARCHIVE_INDEX' };
}

/** The one item the fleet's auth requests are spaced by: the upstream's limit is per address, not per spot. */
export function authPacingKey(): TableKey {
  return { pk: 'UPSTREAM_AUTH', sk: 'PACING' };
}

export function statusIndexPartitionKey(spotId: string, status: ExportStatus): string {
  return `${spotPartitionKey(spotId)}#STATUS#${status}`;
}
