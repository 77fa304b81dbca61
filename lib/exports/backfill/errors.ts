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

/**
 * The backfill's windows are too long for the export deadline: at the pace of the spot's recent
 * exports (seconds per hour of range), one window would still run when the deadline aborts it.
 */
export class BackfillWindowsTooLongError extends ServiceError {
  override name = 'BackfillWindowsTooLongError';
  readonly windowHours: number;
  readonly expectedWindowSeconds: number;
  readonly exportDeadlineSeconds: number;
  /** The longest window expected to finish well within the deadline (at least 1). */
  readonly maxWindowHours: number;

  constructor(
    details: {
      windowHours: number;
      expectedWindowSeconds: number;
      exportDeadlineSeconds: number;
      maxWindowHours: number;
    },
    options?: ErrorOptions,
  ) {
    super(
      `Windows of ${details.windowHours} h would take about ${Math.round(details.expectedWindowSeconds)} s each, past the export deadline of ${details.exportDeadlineSeconds} s`,
      options,
    );
    this.windowHours = details.windowHours;
    this.expectedWindowSeconds = details.expectedWindowSeconds;
    this.exportDeadlineSeconds = details.exportDeadlineSeconds;
    this.maxWindowHours = details.maxWindowHours;
  }

  override get problem(): Problem {
    const message =
      `at the pace of this spot's recent exports a window of ${this.windowHours} h would take about ` +
      `${durationText(this.expectedWindowSeconds)}, past the export deadline of ` +
      `${durationText(this.exportDeadlineSeconds)} (polling.exportDeadlineSeconds), which would abort it: ` +
      `use windows of at most ${this.maxWindowHours} h`;
    return { type: ProblemType.INVALID_REQUEST, errors: [{ field: 'body.windowHours', message }] };
  }
}

/** `12.2 h`, `45 min` or `30 s`: a duration as a person reads it. */
function durationText(seconds: number): string {
  if (seconds >= 3_600) return `${(seconds / 3_600).toFixed(1)} h`;
  if (seconds >= 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds)} s`;
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
