import { invalidRequestProblem } from '../errors/invalidRequestProblem';
import type { ProblemInit } from '../errors/ProblemInit';
import { ProblemType } from '../errors/ProblemType';
import { ServiceError } from '../errors/ServiceError';
import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';
import { exportChangedConcurrentlyProblem } from './errors';
import type { IdempotencyRecord } from './IdempotencyRecord';
import type { SpotLock } from './SpotLock';

/**
 * Base of the store's errors. Illegal transitions are the domain's `IllegalTransitionError`.
 * The store's own outages are the AWS SDK's errors, classified by their shape.
 */
export class ExportStoreError extends ServiceError {
  override name = 'ExportStoreError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * 404 for an unknown export, a malformed id and another spot's export alike,
 * so probing ids tells a caller nothing.
 */
export function exportNotFoundProblem(): ProblemInit {
  return {
    status: 404,
    type: ProblemType.EXPORT_NOT_FOUND,
    title: 'Export not found',
    detail: 'No export with this id exists for this spot.',
  };
}

/** No record of this export for this spot. */
export class ExportNotFoundError extends ExportStoreError {
  override name = 'ExportNotFoundError';
  readonly spotId: string;
  readonly exportId: string;

  constructor(spotId: string, exportId: string, options?: ErrorOptions) {
    super(`Export ${exportId} of spot ${spotId} not found`, options);
    this.spotId = spotId;
    this.exportId = exportId;
  }

  override get problem(): ProblemInit {
    return exportNotFoundProblem();
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

  override get problem(): ProblemInit {
    return exportChangedConcurrentlyProblem();
  }
}

export class InvalidPaginationTokenError extends ExportStoreError {
  override name = 'InvalidPaginationTokenError';

  constructor(options?: ErrorOptions) {
    super('The pagination token is malformed or belongs to another listing', options);
  }

  override get problem(): ProblemInit {
    return invalidRequestProblem([{ field: 'query.nextToken', message: 'is not a token of this listing' }]);
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

  override get problem(): ProblemInit {
    return {
      status: 409,
      type: ProblemType.SPOT_BUSY,
      title: 'Spot busy',
      detail: 'Another export of this spot is in progress; the upstream runs one at a time.',
      ...(this.activeExportId !== undefined && { extensions: { activeExportId: this.activeExportId } }),
    };
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

  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.IDEMPOTENCY_KEY_REUSED,
      title: 'Idempotency key reused',
      detail: 'This idempotency key was already used with a different request; use a new key.',
    };
  }
}
