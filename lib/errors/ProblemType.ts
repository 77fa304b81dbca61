/**
 * The kinds of problem the API answers with, as the last segment of the RFC 9457
 * `type` (`/problems/<kind>`). A client branches on these, never on `title` or `detail`.
 */
export const ProblemType = {
  INVALID_REQUEST: 'invalid-request',
  SPOT_NOT_ALLOWED: 'spot-not-allowed',
  EXPORT_NOT_FOUND: 'export-not-found',
  PAYLOAD_TOO_LARGE: 'payload-too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  REQUEST_HEADERS_TOO_LARGE: 'request-headers-too-large',
  SPOT_BUSY: 'spot-busy',
  EXPORT_ALREADY_FINISHED: 'export-already-finished',
  UPSTREAM_EXPORT_IN_PROGRESS: 'upstream-export-in-progress',
  EXPORT_CHANGED_CONCURRENTLY: 'export-changed-concurrently',
  IDEMPOTENCY_KEY_REUSED: 'idempotency-key-reused',
  SPOT_NOT_CONFIGURED: 'spot-not-configured',
  UPSTREAM_REJECTED_REQUEST: 'upstream-rejected-request',
  UPSTREAM_CREDENTIALS_REJECTED: 'upstream-credentials-rejected',
  UPSTREAM_PROTOCOL_ERROR: 'upstream-protocol-error',
  UPSTREAM_ERROR: 'upstream-error',
  UPSTREAM_UNAVAILABLE: 'upstream-unavailable',
  UPSTREAM_RATE_LIMITED: 'upstream-rate-limited',
  CREDENTIALS_UNAVAILABLE: 'credentials-unavailable',
  UPSTREAM_TIMEOUT: 'upstream-timeout',
} as const;

export type ProblemType = (typeof ProblemType)[keyof typeof ProblemType];
