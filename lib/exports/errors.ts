import {
  ClassifiedError,
  CREATE_REFUSED,
  type CreateFailure,
  createDeferred,
  type LogLevel,
  ServiceError,
  UpstreamWaitKind,
} from '../errors/ClassifiedError';
import { invalidRequestProblem, type ProblemInit, ProblemType } from '../errors/problems';
import type { BackfillRecord } from './BackfillRecord';
import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';
import type { IdempotencyRecord } from './IdempotencyRecord';
import type { SpotLock } from './SpotLock';
import { WorkflowErrorNames } from './workflowContract';

/**
 * The export domain's errors, and those of its store, credentials and workflow ports (the
 * upstream's are in ./upstreamErrors.ts). Each says itself whether trying again may help, what
 * it means for a create, what an API caller is shown and how loud it is in the logs (see
 * ClassifiedError); none keeps a list of the others.
 */

// ---- Lifecycle ---------------------------------------------------------------------------------

/** Another writer changed the export first: a lost race, the caller reads again. */
export function exportChangedConcurrentlyProblem(): ProblemInit {
  return {
    status: 409,
    type: ProblemType.EXPORT_CHANGED_CONCURRENTLY,
    title: 'Export changed concurrently',
    detail: 'The export changed while this request was handled; read it again and retry if still needed.',
  };
}

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

  override get problem(): ProblemInit {
    return exportChangedConcurrentlyProblem();
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

  override get problem(): ProblemInit {
    return {
      status: 409,
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      title: 'Export already finished',
      detail: `The export finished with status ${this.current.status} and can no longer be aborted.`,
      extensions: { exportId: this.current.exportId, exportStatus: this.current.status },
    };
  }
}

/** A reconciler sweep in which some records failed for reasons that are not passing; the rest were repaired. */
export class ReconcileFailedError extends ServiceError {
  override name = 'ReconcileFailedError';
  readonly summary: { examined: number; finished: number; workflowsRestarted: number; failures: number };
  readonly failedExportIds: string[];

  constructor(
    summary: ReconcileFailedError['summary'],
    failures: readonly { exportId: string; error: unknown }[],
  ) {
    const reasons = failures.map(
      ({ exportId, error }) => `${exportId}: ${error instanceof Error ? error.name : 'unknown'}`,
    );
    super(`The reconciler could not repair ${failures.length} export(s): ${reasons.join(', ')}`, {
      cause: failures[0]?.error,
    });
    this.summary = summary;
    this.failedExportIds = failures.map(({ exportId }) => exportId);
  }
}

// ---- Store ------------------------------------------------------------------------------------

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
export class ExportNotFoundError extends ServiceError {
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

  override get problem(): ProblemInit {
    return exportChangedConcurrentlyProblem();
  }
}

export class InvalidPaginationTokenError extends ServiceError {
  override name = 'InvalidPaginationTokenError';

  constructor(options?: ErrorOptions) {
    super('The pagination token is malformed or belongs to another listing', options);
  }

  override get problem(): ProblemInit {
    return invalidRequestProblem([{ field: 'query.nextToken', message: 'is not a token of this listing' }]);
  }
}

/** Another export holds the spot. `activeExportId` is undefined only if the holder kept changing while we looked. */
export class SpotBusyError extends ServiceError {
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

  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.IDEMPOTENCY_KEY_REUSED,
      title: 'Idempotency key reused',
      detail: 'This idempotency key was already used with a different request; use a new key.',
    };
  }
}

// ---- The workflow's own errors ----------------------------------------------------------------
/**
 * Errors the polling workflow's Retry/Catch key on (./workflowContract.ts). Lambda reports an
 * error's `name` as its type, so each name is exactly the contract's string. Each is a decision
 * already taken, which the state machine acts on: not passing trouble for the code that meets
 * it, never shown to an API caller, and routine in the logs.
 */
/** A decision the state machine acts on by design: logged at INFO, never as a failure. */
abstract class WorkflowOutcomeError extends ServiceError {
  override get logLevel(): LogLevel {
    return 'info';
  }
}

export class ExportStillProcessingError extends WorkflowOutcomeError {
  override name = WorkflowErrorNames.STILL_PROCESSING;

  constructor(exportId: string) {
    super(`Export ${exportId} is still processing`);
  }
}

export class ExportFinishingError extends WorkflowOutcomeError {
  override name = WorkflowErrorNames.FINISHING;

  constructor(exportId: string) {
    super(`Export ${exportId} is still processing, within its expected end`);
  }
}

export class ExportPollingTimedOutError extends WorkflowOutcomeError {
  override name = WorkflowErrorNames.POLLING_TIMED_OUT;

  constructor(exportId: string, deadline: string) {
    super(`Export ${exportId} did not finish before ${deadline}`);
  }
}

/** Transient upstream or AWS trouble: the workflow retries it on its own bounded schedule. */
export class UpstreamUnavailableForWorkflowError extends WorkflowOutcomeError {
  override name = WorkflowErrorNames.UPSTREAM_UNAVAILABLE;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The create could not be sent yet; nothing exists upstream. The workflow's Retry waits. */
export class ExportCreateDeferredError extends WorkflowOutcomeError {
  override name = WorkflowErrorNames.CREATE_DEFERRED;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The upstream refused the create for good; the record already says FAILED and why. */
export class ExportCreateRejectedError extends ServiceError {
  override name = WorkflowErrorNames.CREATE_REJECTED;

  // The upstream's verdict on a request: worth a look, not a crash.
  override get logLevel(): LogLevel {
    return 'warn';
  }

  constructor(exportId: string, reason: string, options?: ErrorOptions) {
    super(`Export ${exportId} was rejected: ${reason}`, options);
  }
}

// ---- Credentials ------------------------------------------------------------------------------
/**
 * Base of every credentials error. Messages name the secret or file, never its value. Unusable
 * credentials refuse a create (nothing is sent without them) until the operator fixes them.
 */
export class CredentialsError extends ClassifiedError {
  readonly spotId: string;

  constructor(message: string, spotId: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CredentialsError';
    this.spotId = spotId;
  }

  get retryable(): boolean {
    return false;
  }

  get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  get problem(): ProblemInit | undefined {
    return undefined;
  }

  /** The message alone: it names the spot and where its credentials were looked for. */
  override get failureReason(): string {
    return this.message;
  }
}

/** No credentials are configured for the spot: a caller mistake or a missing setup step, not an outage. */
export class CredentialsNotFoundError extends CredentialsError {
  readonly source: string;

  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`No credentials are configured for spot ${spotId} (looked in ${source})`, spotId, options);
    this.name = 'CredentialsNotFoundError';
    this.source = source;
  }

  // Where they were looked up is configuration the operator needs to fix it; no value is quoted.
  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `No OpenWeb credentials are configured for spot ${this.spotId}: looked in ${this.source}.`,
    };
  }
}

/** The stored credentials exist but do not have the expected shape. */
export class InvalidCredentialsError extends CredentialsError {
  readonly source: string;
  readonly problems: string[];

  constructor(spotId: string, source: string, problems: string[], options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} in ${source} are invalid: ${problems.join('; ')}`, spotId, options);
    this.name = 'InvalidCredentialsError';
    this.source = source;
    this.problems = problems;
  }

  // The problems found are left out: they describe the secret's value.
  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `The OpenWeb credentials of spot ${this.spotId} in ${this.source} are not usable.`,
    };
  }
}

/** The credentials store could not be read (permissions, throttling, outage). */
export class CredentialsUnavailableError extends CredentialsError {
  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} could not be read from ${source}`, spotId, options);
    this.name = 'CredentialsUnavailableError';
  }

  override get retryable(): boolean {
    return true;
  }

  override get createFailure(): CreateFailure {
    return createDeferred(UpstreamWaitKind.UNAVAILABLE);
  }

  override get problem(): ProblemInit {
    return {
      status: 503,
      type: ProblemType.CREDENTIALS_UNAVAILABLE,
      title: 'Credentials unavailable',
      detail: "The spot's credentials could not be read; retry later.",
    };
  }
}

// ---- Coverage ----------------------------------------------------------------------------------

/**
 * More windows of a spot overlap one instant than a coverage page may read, so no page can end
 * after that instant. Windows are at most 730 hours long and the ledger keeps one per range, so
 * only thousands of exports of distinct ranges around one hour get here.
 */
export class CoverageTooDenseError extends ServiceError {
  override name = 'CoverageTooDenseError';
  readonly spotId: string;
  readonly at: string;

  constructor(spotId: string, at: string, windowsRead: number, options?: ErrorOptions) {
    super(`More than ${windowsRead} windows of spot ${spotId} overlap ${at}`, options);
    this.spotId = spotId;
    this.at = at;
  }
}

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

  override get problem(): ProblemInit {
    return backfillNotFoundProblem();
  }
}

export function backfillNotFoundProblem(): ProblemInit {
  return {
    status: 404,
    type: ProblemType.BACKFILL_NOT_FOUND,
    title: 'Backfill not found',
    detail: 'No backfill with this id exists for this spot.',
  };
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

  override get problem(): ProblemInit {
    return invalidRequestProblem([
      {
        field: 'body.windowHours',
        message: `the range needs ${this.windows} windows of this length, more than the ${this.maxWindows} one backfill plans: use longer windows or split the range`,
      },
    ]);
  }
}
