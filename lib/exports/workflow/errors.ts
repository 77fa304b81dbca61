import { type LogLevel, ServiceError } from '../../errors/ClassifiedError';
import { WorkflowErrorNames } from './workflowContract';

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
