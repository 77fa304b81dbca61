import { type LogLevel, ServiceError } from '../errors/ClassifiedError';
import type { ExportRecord } from '../exports/record/ExportRecord';
import { WorkflowErrorNames } from '../exports/workflow/workflowContract';

/**
 * Base of the archive's errors. None is passing trouble to the caller: a passing failure is
 * already `ArchiveRetryableError`, whose name the workflow's Retry keys on.
 */
export class ArchiveError extends ServiceError {
  override name = 'ArchiveError';
}

/**
 * The archive cannot be made and trying again will not help: a link the upstream refuses
 * (403/404/410: expired or withdrawn), a link the download policy refuses, a corrupt zip.
 * The export stays COMPLETED; its archive is FAILED with this message as the reason.
 */
export class ArchiveRejectedError extends ArchiveError {
  override name = 'ArchiveRejected';
}

/** A zip that is not well formed: no central directory, a bad entry, a CRC or size mismatch. */
export class CorruptArchiveError extends ArchiveRejectedError {
  override name = 'CorruptArchive';
}

/**
 * A CSV whose Parquet file holds another number of rows than were counted in the CSV: the
 * table would not match the raw file, so the archive is not kept.
 */
export class TableRowCountMismatchError extends ArchiveRejectedError {
  override name = 'TableRowCountMismatch';
}

/**
 * A passing failure (a 5xx or 429 from the link, a reset, storage or table unavailable, another
 * run holding the archive): the workflow retries the archive task with backoff.
 * The name is the one the state machine's Retry keys on.
 */
export class ArchiveRetryableError extends ArchiveError {
  override name = WorkflowErrorNames.ARCHIVE_RETRY;

  // The workflow retries it: worth seeing, not an alarm.
  override get logLevel(): LogLevel {
    return 'warn';
  }
}

/** Another run holds the archive, or it is already final: the claim or the result was not written. */
export class ArchiveClaimRefusedError extends ArchiveError {
  override name = 'ArchiveClaimRefusedError';
  readonly current: ExportRecord | undefined;

  constructor(spotId: string, exportId: string, current: ExportRecord | undefined, options?: ErrorOptions) {
    super(
      current === undefined
        ? `Export ${exportId} of spot ${spotId} does not exist`
        : `The archive of export ${exportId} is ${current.archive?.status ?? 'absent'} and held by another run, or the export is ${current.status}`,
      options,
    );
    this.current = current;
  }
}

/** An object the record names is not in the bucket (expired by the lifecycle rule, deleted, another bucket). */
export class ArchivedObjectMissingError extends ArchiveError {
  override name = 'ArchivedObjectMissing';
  readonly key: string;

  constructor(key: string, options?: ErrorOptions) {
    super(`The archive holds no object ${key}`, options);
    this.key = key;
  }
}

/** The archive's bucket refused a read, or could not be reached after retries. */
export class ArchiveReadError extends ArchiveError {
  override name = 'ArchiveReadError';
  readonly key: string;

  constructor(key: string, reason: string, options?: ErrorOptions) {
    super(`Reading ${key} from the archive failed: ${reason}`, options);
    this.key = key;
  }
}
