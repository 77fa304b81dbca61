import type { OpenWebClientEvent } from './OpenWebClientEvent';
import type { OpenWebOperation } from './OpenWebOperation';
import type { UpstreamReply } from './responses';
import { parseRetryAfterMs } from './retryPolicy';
import { classifyFetchFailure, requestTimeoutFailure, type TransportFailure } from './transportFailure';
import type { UpstreamGovernor } from './UpstreamGovernor';

export interface HttpRequest {
  operation: OpenWebOperation;
  spotId: string;
  /** 1 for the first attempt of a call; a re-send after re-authentication keeps its attempt's number. */
  attempt: number;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ReceivedReply extends UpstreamReply {
  retryAfterMs: number | undefined;
}

/** What one HTTP request led to: an answer (any status), or a failure without one. */
export type Exchange =
  | { kind: 'reply'; reply: ReceivedReply }
  | { kind: 'failure'; failure: TransportFailure };

export interface HttpTransportOptions {
  fetch: typeof fetch;
  /** Per request, covering the answer's body; time spent waiting for the governor is not counted. */
  requestTimeoutMs: number;
  governor: UpstreamGovernor;
  now: () => number;
  emit: (event: OpenWebClientEvent) => void;
}

/**
 * The client's HTTP: one request once the governor lets it go, under a timeout that starts
 * only then (a queued create was not sent), its answer read in full. Never throws for
 * transport failures: they come back classified (sent or maybe sent). Every request is
 * reported as a `request` event.
 */
export class HttpTransport {
  readonly #options: HttpTransportOptions;

  constructor(options: HttpTransportOptions) {
    this.#options = options;
  }

  exchange(request: HttpRequest): Promise<Exchange> {
    const { governor, now } = this.#options;
    const queuedAt = now();
    return governor.run(() => this.#send(request, now() - queuedAt));
  }

  async #send(request: HttpRequest, queuedMs: number): Promise<Exchange> {
    const { fetch, requestTimeoutMs, now, emit } = this.#options;
    const controller = new AbortController();
    let timedOut = false;
    // A timer (not AbortSignal.timeout) so fake timers in tests control it.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, requestTimeoutMs);
    const startedAt = now();
    const report = (status: number | undefined, failure?: string) =>
      emit({
        type: 'request',
        operation: request.operation,
        spotId: request.spotId,
        attempt: request.attempt,
        status,
        ...(failure === undefined ? {} : { failure }),
        durationMs: now() - startedAt,
        ...(queuedMs > 0 && { queuedMs }),
      });
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
      });
      const bodyText = await response.text();
      report(response.status);
      return {
        kind: 'reply',
        reply: {
          statusCode: response.status,
          bodyText,
          retryAfterMs: parseRetryAfterMs(response.headers.get('retry-after'), now()),
        },
      };
    } catch (error) {
      const failure = timedOut ? requestTimeoutFailure(error) : classifyFetchFailure(error);
      report(undefined, failure.code);
      return { kind: 'failure', failure };
    } finally {
      clearTimeout(timer);
    }
  }
}
