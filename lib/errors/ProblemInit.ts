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
