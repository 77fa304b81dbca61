import type { OpenWebOperation } from './OpenWebOperation';

/**
 * What the client reports for logs and metrics. Events never carry tokens,
 * API keys or upstream bodies.
 */
export type OpenWebClientEvent =
  | {
      type: 'request';
      operation: OpenWebOperation;
      spotId: string;
      /** 1 for the first attempt of a call. */
      attempt: number;
      /** HTTP status, or undefined when no answer arrived (see `failure`). */
      status: number | undefined;
      /** Network error code or 'TIMEOUT' when no answer arrived. */
      failure?: string;
      durationMs: number;
      /** Time it waited for the client's concurrency or rate limit before it was sent; absent when none. */
      queuedMs?: number;
    }
  | {
      type: 'retry';
      operation: OpenWebOperation;
      spotId: string;
      /** The attempt about to be made (2 for the first retry). */
      attempt: number;
      delayMs: number;
      /** 'HTTP 429', 'HTTP 503', or a network error code. */
      reason: string;
    }
  | { type: 'authenticated'; spotId: string; expiresAt: number }
  | { type: 'tokenRejected'; spotId: string; operation: OpenWebOperation }
  | { type: 'credentialsRefreshed'; spotId: string }
  | { type: 'tokenStoreFailed'; spotId: string; errorName: string }
  /** Download links the link policy dropped from one answer (never the links themselves: they are bearer URLs). */
  | { type: 'linksRejected'; operation: OpenWebOperation; spotId: string; count: number };
