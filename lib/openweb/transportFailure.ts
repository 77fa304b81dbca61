/**
 * Whether a request that failed without an HTTP answer may have reached the
 * upstream. Decides if a create (not idempotent) may be resent.
 */
export const RequestDelivery = {
  /** Failed before the request left (connection refused, DNS, connect timeout): safe to resend. */
  NOT_SENT: 'notSent',
  /** Failed after the request may have been sent (reset, socket closed, timeout): resending may duplicate it. */
  MAYBE_SENT: 'maybeSent',
} as const;
export type RequestDelivery = (typeof RequestDelivery)[keyof typeof RequestDelivery];

export interface TransportFailure {
  delivery: RequestDelivery;
  /** The system/undici error code, or 'TIMEOUT' for the client's own request timeout. */
  code: string;
  cause: unknown;
}

export const REQUEST_TIMEOUT_CODE = 'TIMEOUT';
const UNKNOWN_CODE = 'UNKNOWN';

// Errors raised while resolving or connecting, before any byte of the request is written.
const notSentCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// Undici wraps the system error: TypeError('fetch failed') → cause (maybe an AggregateError) → code.
const CAUSE_SEARCH_DEPTH = 4;

function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > CAUSE_SEARCH_DEPTH) return undefined;
  const candidate = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof candidate.code === 'string' && candidate.code !== '') return candidate.code;
  const fromCause = errorCode(candidate.cause, depth + 1);
  if (fromCause !== undefined) return fromCause;
  if (Array.isArray(candidate.errors)) return errorCode(candidate.errors[0], depth + 1);
  return undefined;
}

/** Classify a fetch rejection. Unknown failures count as maybe sent: the safe assumption for a create. */
export function classifyFetchFailure(error: unknown): TransportFailure {
  const code = errorCode(error) ?? UNKNOWN_CODE;
  return {
    delivery: notSentCodes.has(code) ? RequestDelivery.NOT_SENT : RequestDelivery.MAYBE_SENT,
    code,
    cause: error,
  };
}

export function requestTimeoutFailure(cause: unknown): TransportFailure {
  return { delivery: RequestDelivery.MAYBE_SENT, code: REQUEST_TIMEOUT_CODE, cause };
}
