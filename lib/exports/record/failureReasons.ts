import { isClassified } from '../../errors/ClassifiedError';

/**
 * How the failure reasons the lifecycle writes begin, for the readers that tell them apart (the
 * coverage ledger decides from them whether a window is exported again). The rest of a reason
 * says why, in the words of the error that caused it.
 */

/** The upstream refused the request itself: the same request would be refused again. */
export const REQUEST_REJECTED_REASON_PREFIX = 'the upstream rejected the request: ';
/** The create was refused for another reason (credentials, access, the spot held elsewhere): it may pass. */
export const CREATE_REFUSED_REASON_PREFIX = 'the create was refused: ';
/** The deadline passed while the export ran upstream: it was aborted there. */
export const DEADLINE_PASSED_REASON = 'polling deadline passed';
/** The deadline passed before the create was accepted: nothing was sent. */
export const DEADLINE_PASSED_BEFORE_CREATE_REASON =
  'deadline passed before the upstream accepted the create; nothing was sent';

/** Network failures Node reports by code, from any client (the upstream's or AWS's). */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The codes AWS services refuse a call with when it came too fast (DynamoDB's
 * `ThrottlingException` and `ProvisionedThroughputExceededException`, Step Functions' and
 * EventBridge's `ThrottlingException`, S3's `SlowDown`…): the SDK's own list of throttling errors.
 * The SDK marks none of them `$retryable` (DynamoDB's are client faults, status 400): once its
 * retries are spent, they reach us by name only.
 */
const AWS_THROTTLING_CODES: ReadonlySet<string> = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);
const HTTP_TOO_MANY_REQUESTS = 429;

/**
 * Whether a failure of a workflow task is passing trouble worth trying again on the
 * task's own schedule: our own errors say so themselves (the upstream's throttling, outages
 * and garbled answers, credentials that could not be read); of other errors, AWS service
 * faults, throttling and network failures are (DynamoDB unreachable is an outage, not a bug).
 * AWS client faults such as AccessDenied are not: they need a fix.
 */
export function isTransientFailure(error: unknown): boolean {
  if (isClassified(error)) return error.retryable;
  return isTransientAwsOrNetworkFailure(error);
}

function isTransientAwsOrNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const sdk = error as Error & {
    $fault?: unknown;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    code?: unknown;
    cause?: unknown;
  };
  if (sdk.$fault === 'server' || sdk.$retryable !== undefined) return true;
  if (sdk.$fault !== undefined && AWS_THROTTLING_CODES.has(sdk.name)) return true;
  if (sdk.$metadata?.httpStatusCode === HTTP_TOO_MANY_REQUESTS) return true;
  if (sdk.name === 'TimeoutError' || sdk.name === 'AbortError') return true;
  if (typeof sdk.code === 'string' && TRANSIENT_NETWORK_CODES.has(sdk.code)) return true;
  const causeCode = (sdk.cause as { code?: unknown } | undefined)?.code;
  return typeof causeCode === 'string' && TRANSIENT_NETWORK_CODES.has(causeCode);
}
