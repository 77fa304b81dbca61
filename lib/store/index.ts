export type {
  AcquireSpotLockOptions,
  ConditionalTransition,
  ExportPage,
  ExportStore,
  GetExportOptions,
  ListExportsOptions,
  PutIdempotencyRecordInput,
  TransitionRequest,
} from '../exports/ExportStore';
export type { IdempotencyRecord } from '../exports/IdempotencyRecord';
export type { SpotLock } from '../exports/SpotLock';
export {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  ExportStoreError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  InvalidPaginationTokenError,
  SpotBusyError,
  TransitionConflictError,
} from '../exports/storeErrors';
export { createDocumentClient, toDocumentClient } from './createDocumentClient';
export {
  DEFAULT_SPOT_LOCK_LEASE_SECONDS,
  DynamoDbExportStore,
  type DynamoDbExportStoreOptions,
  MAX_LIST_EXPORTS_LIMIT,
} from './DynamoDbExportStore';
export { DynamoDbTokenStore, type DynamoDbTokenStoreOptions } from './DynamoDbTokenStore';
export {
  createTableInput,
  ExportTableAttribute,
  type ExportTableDefinition,
  ExportTableIndex,
  exportTableDefinition,
} from './tableDefinition';
