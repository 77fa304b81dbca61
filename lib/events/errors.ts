import { ServiceError } from '../errors/ClassifiedError';

/** EventBridge refused an export event; the export's state is recorded, only the announcement is missing. */
export class ExportEventPublishError extends ServiceError {
  override name = 'ExportEventPublishError';
  readonly errorCode: string | undefined;

  constructor(exportId: string, errorCode: string | undefined, options?: ErrorOptions) {
    super(
      `EventBridge did not accept the event of export ${exportId} (${errorCode ?? 'no error code'})`,
      options,
    );
    this.errorCode = errorCode;
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
