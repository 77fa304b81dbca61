import { type LogLevel, ServiceError } from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';
import type { ErasureRecord } from './ErasureRecord';

/** No erasure with this id for this spot (an unknown id, a malformed one and another spot's alike). */
export class ErasureNotFoundError extends ServiceError {
  override name = 'ErasureNotFoundError';
  readonly spotId: string;
  readonly erasureId: string;

  constructor(spotId: string, erasureId: string, options?: ErrorOptions) {
    super(`Erasure ${erasureId} of spot ${spotId} not found`, options);
    this.spotId = spotId;
    this.erasureId = erasureId;
  }

  override get problem(): Problem {
    return { type: ProblemType.ERASURE_NOT_FOUND };
  }
}

/** The erasure of this user exists already: the request is that erasure. */
export class ErasureAlreadyExistsError extends ServiceError {
  override name = 'ErasureAlreadyExistsError';
  /** Undefined only if it vanished between the refused write and the read. */
  readonly existing: ErasureRecord | undefined;

  constructor(existing: ErasureRecord | undefined, options?: ErrorOptions) {
    super(`The erasure exists already`, options);
    this.existing = existing;
  }
}

/** Another run wrote the erasure since it was read (or holds its lease): this run stops. */
export class ErasureChangedError extends ServiceError {
  override name = 'ErasureChangedError';
  readonly current: ErasureRecord | undefined;

  constructor(spotId: string, erasureId: string, current: ErasureRecord | undefined, options?: ErrorOptions) {
    super(`Erasure ${erasureId} of spot ${spotId} changed concurrently`, options);
    this.current = current;
  }
}

/** A user id the archive cannot match safely (empty, too long, or with characters no upstream id has). */
export class InvalidUserIdError extends ServiceError {
  override name = 'InvalidUserIdError';

  constructor(options?: ErrorOptions) {
    super('The user id is not a valid upstream user id', options);
  }

  override get problem(): Problem {
    return {
      type: ProblemType.INVALID_REQUEST,
      errors: [
        { field: 'body.userId', message: 'must be 1 to 128 letters, digits or _ . : @ + - characters' },
      ],
    };
  }
}

/** What the erasure task throws for passing trouble (storage or table unavailable): the workflow retries it with backoff. */
export const ERASURE_RETRY_ERROR_NAME = 'ErasureRetry';

/** A slice met passing trouble; the workflow's Retry runs it again where it was. */
export class ErasureRetryableError extends ServiceError {
  override name = ERASURE_RETRY_ERROR_NAME;

  constructor(erasureId: string, options?: ErrorOptions) {
    super(`Erasure ${erasureId} met passing trouble and is tried again`, options);
  }

  // The workflow retries it: worth seeing, not an alarm.
  override get logLevel(): LogLevel {
    return 'warn';
  }
}
