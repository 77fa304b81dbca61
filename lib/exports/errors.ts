import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';

/** Base of the export domain's errors. */
export class ExportDomainError extends Error {
  override name = 'ExportDomainError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * A status change the lifecycle does not allow. `current` is the stored record
 * when the refusal came from the store, so the caller can see who won.
 */
export class IllegalTransitionError extends ExportDomainError {
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
}

/** Abort asked of an export that already completed or failed: the first conditional write won. */
export class ExportAlreadyFinishedError extends ExportDomainError {
  override name = 'ExportAlreadyFinishedError';
  readonly current: ExportRecord;

  constructor(current: ExportRecord, options?: ErrorOptions) {
    super(`Export ${current.exportId} already finished with status ${current.status}`, options);
    this.current = current;
  }
}
