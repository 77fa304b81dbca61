/**
 * Bounds on a call from this process to its own stand-ins (dynalite, the S3 stand-in). The
 * functions' bounds (`AWS_REQUEST_HANDLER`: 1 s to connect, 5 s a request) keep one stuck
 * connection to AWS from eating an API request's 29 s; here the other end is this very process,
 * and a slow answer only means that the process is busy: it comes once the event loop gets to
 * it. Lambda's bounds would turn a loaded machine into failed runs, so these only catch a
 * stand-in that stopped answering. Both stay below the workflow's task timeouts (60 s and more),
 * so a task whose call waits this long still fails as itself rather than as a timed-out task.
 */
export const STAND_IN_CONNECTION_TIMEOUT_MS = 30_000;
export const STAND_IN_REQUEST_TIMEOUT_MS = 30_000;

/** The request handler options of the local runtime's clients of its stand-ins. */
export const STAND_IN_REQUEST_HANDLER = {
  connectionTimeout: STAND_IN_CONNECTION_TIMEOUT_MS,
  requestTimeout: STAND_IN_REQUEST_TIMEOUT_MS,
  // Without it the SDK only logs a request past its timeout, and the call waits on.
  throwOnRequestTimeout: true,
};
