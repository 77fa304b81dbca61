import { ServiceError } from '../errors/ClassifiedError';

/** The entry error codes EventBridge documents as passing (PutEventsResultEntry): worth sending again. */
const PASSING_ENTRY_ERROR_CODES: ReadonlySet<string> = new Set(['InternalFailure', 'ThrottlingException']);

/** EventBridge refused an export event; the export's state is recorded, only the announcement is missing. */
export class ExportEventPublishError extends ServiceError {
  override name = 'ExportEventPublishError';
  readonly errorCode: string | undefined;
  /** How often the entry was sent. */
  readonly sends: number;

  constructor(exportId: string, errorCode: string | undefined, sends = 1, options?: ErrorOptions) {
    super(
      `EventBridge did not accept the event of export ${exportId} (${errorCode ?? 'no error code'}, ${sends} send(s))`,
      options,
    );
    this.errorCode = errorCode;
    this.sends = sends;
  }

  /** Throttling and EventBridge's own failures pass; a refusal of the entry itself does not. */
  override get retryable(): boolean {
    return this.errorCode !== undefined && PASSING_ENTRY_ERROR_CODES.has(this.errorCode);
  }
}

/** A scheduled start whose input cannot be turned into an export request. Not retried usefully: fix the schedule. */
export class InvalidScheduledExportEventError extends ServiceError {
  override name = 'InvalidScheduledExportEventError';
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid scheduled export event: ${problems.join('; ')}`);
    this.problems = problems;
  }
}
