import { ServiceError } from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';
import type { BackfillRecord } from './BackfillRecord';

// ---- Backfills --------------------------------------------------------------------------------

/** No backfill with this id for this spot (an unknown id, a malformed one and another spot's alike). */
export class BackfillNotFoundError extends ServiceError {
  override name = 'BackfillNotFoundError';
  readonly spotId: string;
  readonly backfillId: string;

  constructor(spotId: string, backfillId: string, options?: ErrorOptions) {
    super(`Backfill ${backfillId} of spot ${spotId} not found`, options);
    this.spotId = spotId;
    this.backfillId = backfillId;
  }

  override get problem(): Problem {
    return { type: ProblemType.BACKFILL_NOT_FOUND };
  }
}

export class BackfillAlreadyExistsError extends ServiceError {
  override name = 'BackfillAlreadyExistsError';
  /** Undefined only if it vanished between the refused write and the read. */
  readonly existing: BackfillRecord | undefined;

  constructor(
    spotId: string,
    backfillId: string,
    existing: BackfillRecord | undefined,
    options?: ErrorOptions,
  ) {
    super(`Backfill ${backfillId} of spot ${spotId} already exists`, options);
    this.existing = existing;
  }
}

/** The range needs more windows than one backfill holds: a caller's choice to change, so a 400 naming the fields. */
export class BackfillTooLargeError extends ServiceError {
  override name = 'BackfillTooLargeError';
  readonly windows: number;
  readonly maxWindows: number;

  constructor(windows: number, maxWindows: number, options?: ErrorOptions) {
    super(`The range needs ${windows} windows; a backfill plans at most ${maxWindows}`, options);
    this.windows = windows;
    this.maxWindows = maxWindows;
  }

  override get problem(): Problem {
    const message = `the range needs ${this.windows} windows of this length, more than the ${this.maxWindows} one backfill plans: use longer windows or split the range`;
    return { type: ProblemType.INVALID_REQUEST, errors: [{ field: 'body.windowHours', message }] };
  }
}
