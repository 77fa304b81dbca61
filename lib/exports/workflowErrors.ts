import { ServiceError } from '../errors/ServiceError';
import { PollingWorkflowErrors } from './pollingWorkflowContract';

/**
 * Errors the polling workflow's Retry/Catch key on. Lambda reports an error's
 * `name` as its type, so each name is exactly the contract's string. Each is a
 * decision already taken, which the state machine acts on: not passing trouble for
 * the code that meets it, and never shown to an API caller.
 */

export class ExportStillProcessingError extends ServiceError {
  override name = PollingWorkflowErrors.STILL_PROCESSING;

  constructor(exportId: string) {
    super(`Export ${exportId} is still processing`);
  }
}

export class ExportPollingTimedOutError extends ServiceError {
  override name = PollingWorkflowErrors.POLLING_TIMED_OUT;

  constructor(exportId: string, deadline: string) {
    super(`Export ${exportId} did not finish before ${deadline}`);
  }
}

/** Transient upstream or AWS trouble: the workflow retries it on its own bounded schedule. */
export class UpstreamUnavailableForWorkflowError extends ServiceError {
  override name = PollingWorkflowErrors.UPSTREAM_UNAVAILABLE;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The create could not be sent yet; nothing exists upstream. The workflow's Retry waits. */
export class ExportCreateDeferredError extends ServiceError {
  override name = PollingWorkflowErrors.CREATE_DEFERRED;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The upstream refused the create for good; the record already says FAILED and why. */
export class ExportCreateRejectedError extends ServiceError {
  override name = PollingWorkflowErrors.CREATE_REJECTED;

  constructor(exportId: string, reason: string, options?: ErrorOptions) {
    super(`Export ${exportId} was rejected: ${reason}`, options);
  }
}
