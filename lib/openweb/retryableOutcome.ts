import { UpstreamRateLimitedError, UpstreamUnavailableError } from '../exports/upstream/errors';
import type { ReceivedReply } from './HttpTransport';
import { isServerError } from './httpStatus';
import type { AttemptOutcome } from './RetryLoop';
import type { UpstreamReply } from './responses';
import { REQUEST_TIMEOUT_CODE, type TransportFailure } from './transportFailure';

/** 429 and 5xx: worth another attempt (a create decides before this: its 5xx may have been processed). */
export function retryableReply(reply: ReceivedReply): AttemptOutcome<never> | undefined {
  const reason = `HTTP ${reply.statusCode}`;
  if (reply.statusCode === 429) {
    return {
      kind: 'retryable',
      error: new UpstreamRateLimitedError(reply.retryAfterMs),
      reason,
      retryAfterMs: reply.retryAfterMs,
    };
  }
  if (isServerError(reply.statusCode)) {
    return { kind: 'retryable', error: serverError(reply), reason, retryAfterMs: reply.retryAfterMs };
  }
  return undefined;
}

export function serverError(reply: UpstreamReply): UpstreamUnavailableError {
  return new UpstreamUnavailableError(`The upstream answered HTTP ${reply.statusCode}`, {
    statusCode: reply.statusCode,
  });
}

/** No answer (a network failure or the request timeout): worth another attempt. */
export function unavailable(failure: TransportFailure, requestTimeoutMs: number): AttemptOutcome<never> {
  const message =
    failure.code === REQUEST_TIMEOUT_CODE
      ? `The upstream did not answer within ${requestTimeoutMs} ms`
      : `The upstream could not be reached (${failure.code})`;
  return {
    kind: 'retryable',
    error: new UpstreamUnavailableError(message, { cause: failure.cause }),
    reason: failure.code,
    retryAfterMs: undefined,
  };
}
