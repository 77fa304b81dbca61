import type { ExportArchive } from '../exports/record/ExportArchive';
import { ArchiveStatus } from '../exports/record/ExportArchive';
import {
  type ExpectedEnd,
  type ExportOrigin,
  type ExportRecord,
  type ExportRequest,
  type QueueEntry,
  QueuePriority,
} from '../exports/record/ExportRecord';
import { ExportStatus, isActive } from '../exports/record/ExportStatus';
import type { StoredItem } from './conditionalCheckFailure';
import { EntityType, exportKey, ReconcilerIndexPartition, statusIndexPartitionKey } from './tableKeys';

/**
 * Where a record sits in the reconciler index, if anywhere: queued exports by when they joined
 * the queue, active ones by their last poll, completed ones whose archive is not final by when
 * their archive claim lapses. Terminal records with nothing left to do are not in it.
 */
export function reconcilerIndexOf(
  record: ExportRecord,
): { activeIndexPk: string; activeIndexSk: string } | undefined {
  if (record.status === ExportStatus.QUEUED)
    return {
      activeIndexPk: ReconcilerIndexPartition.QUEUED,
      activeIndexSk: `${record.queue?.enqueuedAt ?? record.requestedAt}#${record.exportId}`,
    };
  if (isActive(record.status))
    return {
      activeIndexPk: ReconcilerIndexPartition.ACTIVE,
      activeIndexSk: record.lastPolledAt ?? record.dequeuedAt ?? record.requestedAt,
    };
  const archiveStatus = record.archive?.status;
  if (
    record.status === ExportStatus.COMPLETED &&
    (archiveStatus === undefined || archiveStatus === ArchiveStatus.PENDING)
  )
    return {
      activeIndexPk: ReconcilerIndexPartition.ARCHIVE_PENDING,
      activeIndexSk: record.archive?.claimedUntil ?? record.completedAt ?? record.requestedAt,
    };
  return undefined;
}

/**
 * A queued export's sort key in the status index: by priority (scheduled runs ahead of backfill
 * windows), then first in first out; every other status sorts by export id (creation time).
 */
export function statusIndexSortKeyOf(
  record: Pick<ExportRecord, 'status' | 'exportId' | 'queue' | 'requestedAt'>,
): string {
  if (record.status !== ExportStatus.QUEUED) return record.exportId;
  return queueSortKey(
    record.queue?.priority ?? QueuePriority.FIRST,
    record.queue?.enqueuedAt ?? record.requestedAt,
    record.exportId,
  );
}

export function queueSortKey(priority: number, enqueuedAt: string, exportId: string): string {
  return `${priority}#${enqueuedAt}#${exportId}`;
}

/** The stored form of a record: its fields plus keys; index keys only where the record belongs in the index. */
export function exportRecordToItem(record: ExportRecord): StoredItem {
  return withoutUndefined({
    ...exportKey(record.spotId, record.exportId),
    entityType: EntityType.export,
    statusIndexPk: statusIndexPartitionKey(record.spotId, record.status),
    statusIndexSk: statusIndexSortKeyOf(record),
    ...reconcilerIndexOf(record),
    spotId: record.spotId,
    exportId: record.exportId,
    upstreamExportId: record.upstreamExportId,
    status: record.status,
    upstreamStatus: record.upstreamStatus,
    request: withoutUndefined({ ...record.request }),
    links: record.links,
    requestedAt: record.requestedAt,
    startedAt: record.startedAt,
    completedAt: record.completedAt,
    lastPolledAt: record.lastPolledAt,
    expectedEnd: record.expectedEnd,
    processingSeenAt: record.processingSeenAt,
    pollCount: record.pollCount,
    urgent: record.urgent,
    source: record.source,
    idempotencyKey: record.idempotencyKey,
    workflowExecutionName: record.workflowExecutionName,
    failureReason: record.failureReason,
    upstreamCreateAttemptedAt: record.upstreamCreateAttemptedAt,
    upstreamIdsBeforeCreate: record.upstreamIdsBeforeCreate,
    createAttempts: record.createAttempts,
    lastUpstreamWait: record.lastUpstreamWait,
    nextCreateAttemptAt: record.nextCreateAttemptAt,
    origin: record.origin,
    queue: record.queue,
    dequeuedAt: record.dequeuedAt,
    archive: record.archive,
    version: record.version,
  });
}

/** Only the record's own fields; keys and index attributes stay inside the store. */
export function itemToExportRecord(item: StoredItem): ExportRecord {
  const record = {
    spotId: item.spotId,
    exportId: item.exportId,
    upstreamExportId: item.upstreamExportId,
    status: item.status,
    upstreamStatus: item.upstreamStatus,
    request: item.request as ExportRequest,
    links: Array.isArray(item.links) ? item.links : [],
    requestedAt: item.requestedAt,
    startedAt: item.startedAt,
    completedAt: item.completedAt,
    lastPolledAt: item.lastPolledAt,
    expectedEnd: item.expectedEnd as ExpectedEnd | undefined,
    processingSeenAt: item.processingSeenAt,
    pollCount: typeof item.pollCount === 'number' ? item.pollCount : 0,
    urgent: item.urgent === true ? true : undefined,
    source: item.source,
    idempotencyKey: item.idempotencyKey,
    workflowExecutionName: item.workflowExecutionName,
    failureReason: item.failureReason,
    upstreamCreateAttemptedAt: item.upstreamCreateAttemptedAt,
    upstreamIdsBeforeCreate: Array.isArray(item.upstreamIdsBeforeCreate)
      ? item.upstreamIdsBeforeCreate
      : undefined,
    createAttempts: typeof item.createAttempts === 'number' ? item.createAttempts : undefined,
    lastUpstreamWait: item.lastUpstreamWait,
    nextCreateAttemptAt: item.nextCreateAttemptAt,
    origin: item.origin as ExportOrigin | undefined,
    queue: item.queue as QueueEntry | undefined,
    dequeuedAt: item.dequeuedAt,
    archive: item.archive as ExportArchive | undefined,
    version: item.version,
  };
  return withoutUndefined(record) as ExportRecord;
}

export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
