import { ServiceError } from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';
import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';
import type { IdempotencyRecord } from './IdempotencyRecord';

// ---- Lifecycle ---------------------------------------------------------------------------------

/**
 * A status change the lifecycle does not allow. `current` is the stored record
 * when the refusal came from the store, so the caller can see who won.
 */
export class IllegalTransitionError extends ServiceError {
  override name = 'IllegalTransitionError';
  readonly from: ExportStatus;
  readonly to: ExportStatus;
  readonly exportId: string;
  readonly current: ExportRecord | undefined;

  constructor(
    details: { from: ExportStatus; to: ExportStatus; exportId: string; current?: ExportRecord },
    options?: ErrorOptions,
  ) {
    super(`Export ${details.exportId} cannot go from ${details.from} to ${details.to}`, options);
    this.from = details.from;
    this.to = details.to;
    this.exportId = details.exportId;
    this.current = details.current;
  }

  override get problem(): Problem {
    return { type: ProblemType.EXPORT_CHANGED_CONCURRENTLY };
  }
}

/** Abort asked of an export that already completed or failed: the first conditional write won. */
export class ExportAlreadyFinishedError extends ServiceError {
  override name = 'ExportAlreadyFinishedError';
  readonly current: ExportRecord;

  constructor(current: ExportRecord, options?: ErrorOptions) {
    super(`Export ${current.exportId} already finished with status ${current.status}`, options);
    this.current = current;
  }

  override get problem(): Problem {
    return {
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      exportId: this.current.exportId,
      exportStatus: this.current.status,
    };
  }
}

// ---- Store ------------------------------------------------------------------------------------

/** No record of this export for this spot. */
export class ExportNotFoundError extends ServiceError {
  override name = 'ExportNotFoundError';
  readonly spotId: string;
  readonly exportId: string;

  constructor(spotId: string, exportId: string, options?: ErrorOptions) {
    super(`Export ${exportId} of spot ${spotId} not found`, options);
    this.spotId = spotId;
    this.exportId = exportId;
  }

  override get problem(): Problem {
    return { type: ProblemType.EXPORT_NOT_FOUND };
  }
}

export class ExportAlreadyExistsError extends ServiceError {
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
export class TransitionConflictError extends ServiceError {
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

  override get problem(): Problem {
    return { type: ProblemType.EXPORT_CHANGED_CONCURRENTLY };
  }
}

export class InvalidPaginationTokenError extends ServiceError {
  override name = 'InvalidPaginationTokenError';

  constructor(options?: ErrorOptions) {
    super('The pagination token is malformed or belongs to another listing', options);
  }

  override get problem(): Problem {
    return {
      type: ProblemType.INVALID_REQUEST,
      errors: [{ field: 'query.nextToken', message: 'is not a token of this listing' }],
    };
  }
}

/** The key was already used for the same request: a retry, answer with `existing.exportId`. */
export class IdempotencyConflictError extends ServiceError {
  override name = 'IdempotencyConflictError';
  readonly existing: IdempotencyRecord;

  constructor(existing: IdempotencyRecord, options?: ErrorOptions) {
    super(`Idempotency key of spot ${existing.spotId} already started export ${existing.exportId}`, options);
    this.existing = existing;
  }
}

/** The key was already used for a different request. */
export class IdempotencyKeyReusedError extends ServiceError {
  override name = 'IdempotencyKeyReusedError';
  readonly existing: IdempotencyRecord;

  constructor(existing: IdempotencyRecord, options?: ErrorOptions) {
    super(`Idempotency key of spot ${existing.spotId} was used for a different request`, options);
    this.existing = existing;
  }

  override get problem(): Problem {
    return { type: ProblemType.IDEMPOTENCY_KEY_REUSED };
  }
}
