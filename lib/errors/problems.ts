import type { UpstreamWaitKind } from './ClassifiedError';
import type { FieldProblem } from './fieldProblemSchema';

/** One invalid field of a request, as RFC 9457 extension member `errors` (./fieldProblemSchema.ts). */
export type { FieldProblem };

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
  ERASURE_NOT_FOUND: 'erasure-not-found',
  SPOT_NOT_FOUND: 'spot-not-found',
} as const;

export type ProblemType = (typeof ProblemType)[keyof typeof ProblemType];

/** The data a kind of problem is told from, beyond its type: what its detail, members and headers need. */
interface ProblemData {
  [ProblemType.INVALID_REQUEST]: { errors: FieldProblem[] };
  [ProblemType.PAYLOAD_TOO_LARGE]: { maxBodyBytes: number };
  [ProblemType.REQUEST_HEADERS_TOO_LARGE]: { maxHeadersBytes: number };
  [ProblemType.SPOT_BUSY]: { activeExportId: string | undefined };
  [ProblemType.EXPORT_ALREADY_FINISHED]: { exportId: string; exportStatus: string };
  [ProblemType.SPOT_NOT_CONFIGURED]: { spotId: string; source: string; credentials: 'missing' | 'unusable' };
  [ProblemType.UPSTREAM_REJECTED_REQUEST]: { upstreamMessage: string | undefined };
  [ProblemType.SPOT_NOT_FOUND]: { spotId: string; suggestion: string | undefined };
  [ProblemType.UPSTREAM_RATE_LIMITED]: {
    wait: typeof UpstreamWaitKind.THROTTLED | typeof UpstreamWaitKind.AUTH_PACED;
    retryAfterMs: number | undefined;
  };
}

/**
 * A problem as an error carries it: its type and its data, never prose. How it reads (status,
 * title, detail) is the business of `PROBLEMS` below, for every error alike.
 */
export type Problem = {
  [K in ProblemType]: { readonly type: K } & (K extends keyof ProblemData ? ProblemData[K] : unknown);
}[ProblemType];

type ProblemOf<K extends ProblemType> = Extract<Problem, { type: K }>;

/** How a kind of problem reads: the same status and title always, the detail fixed or built from the data. */
interface ProblemKind<P> {
  status: number;
  title: string;
  detail: string | ((problem: P) => string);
  /** Members a client can act on, from the problem's data. */
  extensions?: (problem: P) => Record<string, unknown> | undefined;
  headers?: (problem: P) => Record<string, string> | undefined;
}

const MS_PER_SECOND = 1000;

/** Every kind of problem the API answers with, and how it reads. Details never quote a secret or a request's values. */
export const PROBLEMS: { readonly [K in ProblemType]: ProblemKind<ProblemOf<K>> } = {
  'invalid-request': {
    status: 400,
    title: 'Invalid request',
    detail: 'The request has invalid fields; see errors.',
  },
  // Says neither which spots the caller may use nor whether the spot exists.
  'spot-not-allowed': {
    status: 403,
    title: 'Spot not allowed',
    detail: "The caller's credentials do not grant access to the spot named in x-spot-id or the path.",
  },
  // The same for an unknown export, a malformed id and another spot's export, so probing ids tells nothing.
  'export-not-found': {
    status: 404,
    title: 'Export not found',
    detail: 'No export with this id exists for this spot.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    detail: ({ maxBodyBytes }) => `The request body may be at most ${maxBodyBytes} bytes.`,
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    detail: 'The body must be JSON: Content-Type application/json (UTF-8), not compressed.',
    headers: () => ({ 'accept-post': 'application/json' }),
  },
  'request-headers-too-large': {
    status: 431,
    title: 'Request header fields too large',
    detail: ({ maxHeadersBytes }) => `The request's headers may total at most ${maxHeadersBytes} bytes.`,
  },
  'spot-busy': {
    status: 409,
    title: 'Spot busy',
    detail: 'Another export of this spot is in progress; the upstream runs one at a time.',
    extensions: ({ activeExportId }) => (activeExportId === undefined ? undefined : { activeExportId }),
  },
  'export-already-finished': {
    status: 409,
    title: 'Export already finished',
    detail: ({ exportStatus }) =>
      `The export finished with status ${exportStatus} and can no longer be aborted.`,
    extensions: ({ exportId, exportStatus }) => ({ exportId, exportStatus }),
  },
  'upstream-export-in-progress': {
    status: 409,
    title: 'Upstream export in progress',
    detail: 'OpenWeb is already running an export for this spot that was not started here; retry later.',
  },
  // Another writer changed the export first: a lost race, the caller reads again.
  'export-changed-concurrently': {
    status: 409,
    title: 'Export changed concurrently',
    detail: 'The export changed while this request was handled; read it again and retry if still needed.',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'Idempotency key reused',
    detail: 'This idempotency key was already used with a different request; use a new key.',
  },
  // Where they were looked up is configuration the operator needs to fix it; what was wrong with
  // unusable ones is left out: it describes the secret's value.
  'spot-not-configured': {
    status: 422,
    title: 'Spot not configured',
    detail: ({ spotId, source, credentials }) =>
      credentials === 'missing'
        ? `No OpenWeb credentials are configured for spot ${spotId}: looked in ${source}.`
        : `The OpenWeb credentials of spot ${spotId} in ${source} are not usable.`,
  },
  'upstream-rejected-request': {
    status: 422,
    title: 'Upstream rejected the request',
    detail: ({ upstreamMessage }) => upstreamMessage ?? 'OpenWeb refused the export request.',
  },
  // The operator has to act.
  'upstream-credentials-rejected': {
    status: 502,
    title: 'Upstream rejected the credentials',
    detail: "OpenWeb refused this spot's configured credentials.",
  },
  'upstream-protocol-error': {
    status: 502,
    title: 'Unexpected upstream answer',
    detail: 'OpenWeb answered in a way this service does not understand.',
  },
  'upstream-error': {
    status: 502,
    title: 'Upstream error',
    detail: 'OpenWeb refused or failed the request.',
  },
  'upstream-unavailable': {
    status: 503,
    title: 'Upstream unavailable',
    detail: 'OpenWeb could not be reached; retry later.',
  },
  // Retry-After in whole seconds, when the upstream or the pacer said when.
  'upstream-rate-limited': {
    status: 503,
    title: 'Upstream rate limited',
    detail: ({ wait }) =>
      wait === 'auth-paced'
        ? 'OpenWeb allows one sign-in per second per address and none is free now; retry later.'
        : 'OpenWeb is limiting requests; retry later.',
    headers: ({ retryAfterMs }) =>
      retryAfterMs === undefined
        ? undefined
        : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / MS_PER_SECOND))) },
  },
  'credentials-unavailable': {
    status: 503,
    title: 'Credentials unavailable',
    detail: "The spot's credentials could not be read; retry later.",
  },
  'upstream-timeout': {
    status: 504,
    title: 'Upstream timeout',
    detail: 'OpenWeb did not answer in time; retry later.',
  },
  // The same for an unknown id, a malformed one and another spot's backfill.
  'backfill-not-found': {
    status: 404,
    title: 'Backfill not found',
    detail: 'No backfill with this id exists for this spot.',
  },
  // The same for an unknown id, a malformed one and another spot's erasure.
  'erasure-not-found': {
    status: 404,
    title: 'Erasure not found',
    detail: 'No erasure with this id exists for this spot.',
  },
  // Among the spots the caller may see only: another caller's spot reads as unknown too.
  'spot-not-found': {
    status: 404,
    title: 'Spot not found',
    detail: ({ spotId, suggestion }) =>
      `Spot ${spotId} is unknown${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`,
    extensions: ({ suggestion }) => (suggestion === undefined ? undefined : { suggestion }),
  },
};

/** What the API answers for a problem: its kind's status and title, the rest built from its data. */
export function renderProblem(problem: Problem): ProblemInit {
  const kind = PROBLEMS[problem.type] as ProblemKind<Problem>;
  const extensions = kind.extensions?.(problem);
  const headers = kind.headers?.(problem);
  return {
    status: kind.status,
    type: problem.type,
    title: kind.title,
    detail: typeof kind.detail === 'string' ? kind.detail : kind.detail(problem),
    ...('errors' in problem && { errors: problem.errors }),
    ...(extensions !== undefined && { extensions }),
    ...(headers !== undefined && { headers }),
  };
}
