/** One invalid field of a request, as RFC 9457 extension member `errors`. */
export interface FieldProblem {
  /** Where the problem is, e.g. `body.from`, `header.x-spot-id`, `query.limit`. */
  field: string;
  message: string;
}

/** What the API answers for a failure, rendered as `application/problem+json` (RFC 9457). */
export interface ProblemInit {
  status: number;
  title: string;
  detail?: string;
  /** A URI reference naming the problem kind; relative, resolved against the API. */
  type?: string;
  errors?: FieldProblem[];
  /** Extra members a client can act on, e.g. `activeExportId`. */
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

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
  BACKFILL_NOT_FOUND: 'backfill-not-found',
} as const;

export type ProblemType = (typeof ProblemType)[keyof typeof ProblemType];

/** 400 listing every invalid field. Messages describe the rule, never the value sent. */
export function invalidRequestProblem(errors: FieldProblem[]): ProblemInit {
  return {
    status: 400,
    type: ProblemType.INVALID_REQUEST,
    title: 'Invalid request',
    detail: 'The request has invalid fields; see errors.',
    errors,
  };
}
