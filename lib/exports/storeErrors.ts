import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';
import type { IdempotencyRecord } from './IdempotencyRecord';
import type { SpotLock } from './SpotLock';

/** Base of the store's errors. Illegal transitions are the domain's `IllegalTransitionError`. */
export class ExportStoreError extends Error {
  override name = 'ExportStoreError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

export class ExportNotFoundError extends ExportStoreError {
  override name = 'ExportNotFoundError';
  readonly spotId: string;
  readonly exportId: string;

  constructor(spotId: string, exportId: string, options?: ErrorOptions) {
    super(`Export ${exportId} of spot ${spotId} not found`, options);
    this.spotId = spotId;
    this.exportId = exportId;
  }
}

export class ExportAlreadyExistsError extends ExportStoreError {
  override name = 'ExportAlreadyExistsError';
  readonly spotId: string;
  readonly exportId: string;
  /** Undefined only if it vanished between the refused write and the read. */
  readonly existing: ExportRecord | undefined;

  constructor(spotId: string, exportId: string, existing: ExportRecord | undefined, options?: ErrorOptions) {
    super(`Export ${exportId} of spot ${spotId} already exists`, options);
    this.spotId = spotId;
    this.exportId = exportId;
    this.existing = existing;
  }
}

/**
 * The transition is legal from the current status, but the record is not in
 * the status or version the caller expected: someone else wrote first.
 */
export class TransitionConflictError extends ExportStoreError {
  override name = 'TransitionConflictError';
  readonly current: ExportRecord;
  readonly to: ExportStatus;
  readonly expectedFrom: readonly ExportStatus[];
  readonly expectedVersion: number | undefined;

  constructor(
    details: {
      current: ExportRecord;
      to: ExportStatus;
      expectedFrom: readonly ExportStatus[];
      expectedVersion?: number;
    },
    options?: ErrorOptions,
  ) {
    const expected =
      details.expectedVersion === undefined
        ? details.expectedFrom.join('|')
        : `${details.expectedFrom.join('|')} at version ${details.expectedVersion}`;
    super(
      `Export ${details.current.exportId} is ${details.current.status} at version ${details.current.version}, expected ${expected}`,
      options,
    );
    this.current = details.current;
    this.to = details.to;
    this.expectedFrom = details.expectedFrom;
    this.expectedVersion = details.expectedVersion;
  }
}

export class InvalidPaginationTokenError extends ExportStoreError {
  override name = 'InvalidPaginationTokenError';

  constructor(options?: ErrorOptions) {
    super('The pagination token is malformed or belongs to another listing', options);
  }
}

/** Another export holds the spot. `activeExportId` is undefined only if the holder kept changing while we looked. */
export class SpotBusyError extends ExportStoreError {
  override name = 'SpotBusyError';
  readonly spotId: string;
  readonly activeExportId: string | undefined;
  readonly lock: SpotLock | undefined;

  constructor(spotId: string, lock: SpotLock | undefined, options?: ErrorOptions) {
    super(`Spot ${spotId} is busy with export ${lock?.exportId ?? '(changing holder)'}`, options);
    this.spotId = spotId;
    this.activeExportId = lock?.exportId;
    this.lock = lock;
  }
}

/** The key was already used for the same request: a retry, answer with `existing.exportId`. */
export class IdempotencyConflictError extends ExportStoreError {
  override name = 'IdempotencyConflictError';
  readonly existing: IdempotencyRecord;

  constructor(existing: IdempotencyRecord, options?: ErrorOptions) {
    super(`Idempotency key of spot ${existing.spotId} already started export ${existing.exportId}`, options);
    this.existing = existing;
  }
}

/** The key was already used for a different request. */
export class IdempotencyKeyReusedError extends ExportStoreError {
  override name = 'IdempotencyKeyReusedError';
  readonly existing: IdempotencyRecord;

  constructor(existing: IdempotencyRecord, options?: ErrorOptions) {
    super(`Idempotency key of spot ${existing.spotId} was used for a different request`, options);
    this.existing = existing;
  }
}
