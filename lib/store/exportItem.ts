import type { ExportArchive } from '../exports/ExportArchive';
import type { ExportRecord, ExportRequest } from '../exports/ExportRecord';
import { isActive } from '../exports/ExportStatus';
import type { StoredItem } from './conditionalCheckFailure';
import { ACTIVE_INDEX_PARTITION, EntityType, exportKey, statusIndexPartitionKey } from './tableKeys';

/** The stored form of a record: its fields plus keys; index keys only where the record belongs in the index. */
export function exportRecordToItem(record: ExportRecord): StoredItem {
  const activeIndex = isActive(record.status)
    ? { activeIndexPk: ACTIVE_INDEX_PARTITION, activeIndexSk: record.lastPolledAt ?? record.requestedAt }
    : {};
  return withoutUndefined({
    ...exportKey(record.spotId, record.exportId),
    entityType: EntityType.export,
    statusIndexPk: statusIndexPartitionKey(record.spotId, record.status),
    statusIndexSk: record.exportId,
    ...activeIndex,
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
    pollCount: record.pollCount,
    source: record.source,
    idempotencyKey: record.idempotencyKey,
    workflowExecutionName: record.workflowExecutionName,
    failureReason: record.failureReason,
    upstreamCreateAttemptedAt: record.upstreamCreateAttemptedAt,
    upstreamIdsBeforeCreate: record.upstreamIdsBeforeCreate,
    createAttempts: record.createAttempts,
    lastUpstreamWait: record.lastUpstreamWait,
    nextCreateAttemptAt: record.nextCreateAttemptAt,
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
    pollCount: typeof item.pollCount === 'number' ? item.pollCount : 0,
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
    archive: item.archive as ExportArchive | undefined,
    version: item.version,
  };
  return withoutUndefined(record) as ExportRecord;
}

export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
