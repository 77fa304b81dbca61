export { createDocumentClient, toDocumentClient } from './createDocumentClient';
export {
  DEFAULT_POLL_BOOKKEEPING_INTERVAL_SECONDS,
  DEFAULT_SPOT_LOCK_LEASE_SECONDS,
  DynamoDbExportStore,
  type DynamoDbExportStoreOptions,
  MAX_LIST_EXPORTS_LIMIT,
} from './DynamoDbExportStore';
export { DynamoDbTokenStore, type DynamoDbTokenStoreOptions } from './DynamoDbTokenStore';
export type {
  AcquireSpotLockOptions,
  ExportPage,
  ExportStore,
  GetExportOptions,
  ListExportsOptions,
  PutIdempotencyRecordInput,
  RecordPollOptions,
  RecordPollResult,
  TransitionRequest,
} from './ExportStore';
export {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  ExportStoreError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  InvalidPaginationTokenError,
  SpotBusyError,
  TransitionConflictError,
} from './errors';
export type { IdempotencyRecord } from './IdempotencyRecord';
export type { SpotLock } from './SpotLock';
export {
  createTableInput,
  ExportTableAttribute,
  type ExportTableDefinition,
  ExportTableIndex,
  exportTableDefinition,
} from './tableDefinition';
