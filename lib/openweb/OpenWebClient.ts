import type { CredentialsProvider, SpotCredentials } from '../secrets/CredentialsProvider';
import type { AuthPacer } from './AuthPacer';
import { type CreateExportRequest, toCreateExportBody } from './CreateExportRequest';
import { type DownloadLinkPolicy, downloadLinkPolicy } from './downloadLinkPolicy';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  AuthRejectedError,
  InvalidSpotIdError,
  type OpenWebError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from './errors';
import { InMemoryTokenStore } from './InMemoryTokenStore';
import type { OpenWebClientEvent } from './OpenWebClientEvent';
import { OpenWebOperation } from './OpenWebOperation';
import { rejectionError } from './rejectionError';
import {
  type CreatedExport,
  type ExportStatusReport,
  type ListedExport,
  readAuthToken,
  readCreatedExport,
  readExportStatusReport,
  readListedExports,
  type UpstreamReply,
} from './responses';
import { nextRetryDelayMs, parseRetryAfterMs, type RetryPolicy, resolveRetryPolicy } from './retryPolicy';
import { TokenProvider, tokenExpiresAt } from './TokenProvider';
import type { TokenStore, UpstreamToken } from './TokenStore';
import {
  classifyFetchFailure,
  REQUEST_TIMEOUT_CODE,
  RequestDelivery,
  requestTimeoutFailure,
  type TransportFailure,
} from './transportFailure';
import { DEFAULT_MAX_CONCURRENT_REQUESTS, UpstreamGovernor } from './UpstreamGovernor';

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** An auth 429 without `Retry-After` waits at least this: the upstream's documented one request per second. */
export const AUTH_RATE_LIMIT_MIN_WAIT_MS = 1_000;
export const DEFAULT_TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** Covers one auth call with its retries, so a second process rarely authenticates in parallel. */
export const DEFAULT_TOKEN_REFRESH_LEASE_MS = 10_000;
export const DEFAULT_TOKEN_STORE_POLL_INTERVAL_MS = 250;

export interface OpenWebClientOptions {
  /** Base URL of `POST /v1/publisher/auth`, e.g. `https://api.openweb.com`. */
  authBaseUrl: string;
  /** Base URL of `/v4/export*`, e.g. `https://api-exporter.openweb.com`. */
  exportBaseUrl: string;
  /**
   * Hosts download links may point to besides the export host: `host`, `host:port` or
   * `*.domain.tld`. Default `DEFAULT_DOWNLOAD_HOSTS`. Other links are dropped.
   */
  downloadHosts?: readonly string[];
  credentials: CredentialsProvider;
  /** Where tokens are shared; default: in this process only. */
  tokenStore?: TokenStore;
  /** Spaces auth requests across the fleet (the upstream allows one per second per address); default none. */
  authPacer?: AuthPacer;
  fetch?: typeof fetch;
  /** Per attempt, covering the answer's body; time spent waiting for the governor is not counted. */
  requestTimeoutMs?: number;
  /** Upstream HTTP requests in flight at once from this client, at most; default `DEFAULT_MAX_CONCURRENT_REQUESTS`. */
  maxConcurrentRequests?: number;
  /** Upstream HTTP requests this client starts per second, at most; default: no limit. */
  maxRequestsPerSecond?: number;
  retry?: Partial<RetryPolicy>;
  /** Replace a token this long before it expires. */
  tokenRefreshMarginMs?: number;
  tokenRefreshLeaseMs?: number;
  tokenStorePollIntervalMs?: number;
  /** Epoch ms. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1), for retry jitter. */
  random?: () => number;
  onEvent?: (event: OpenWebClientEvent) => void;
}

export interface ListExportsOptions {
  limit?: number;
  offset?: number;
}

interface HttpRequest {
  operation: OpenWebOperation;
  spotId: string;
  attempt: number;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface ReceivedReply extends UpstreamReply {
  retryAfterMs: number | undefined;
}

type Exchange = { kind: 'reply'; reply: ReceivedReply } | { kind: 'failure'; failure: TransportFailure };

/** What one attempt leads to: a result, a retry after backoff, or an immediate resend (after re-auth). */
type AttemptOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'retryable'; error: OpenWebError; reason: string; retryAfterMs: number | undefined }
  | { kind: 'resend' };

interface ExportCall<T> {
  operation: OpenWebOperation;
  spotId: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  exportId?: string;
  read: (reply: UpstreamReply) => T;
}

function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

function isServerError(statusCode: number): boolean {
  return statusCode >= 500 && statusCode < 600;
}

function buildUrl(
  baseUrl: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const search = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  // Joined, not resolved: a base URL with a path prefix keeps it.
  return `${baseUrl.replace(/\/+$/, '')}${path}${search === '' ? '' : `?${search}`}`;
}

// Spot ids go into a header and a JSON body; anything else would fail inside fetch, where it looks like a network error.
const SENDABLE_SPOT_ID = /^[\x21-\x7e]+$/;

function assertSendableSpotId(spotId: string): void {
  if (!SENDABLE_SPOT_ID.test(spotId)) throw new InvalidSpotIdError();
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Typed client of the OpenWeb Export API v4 (see UPSTREAM.md).
 *
 * Retries 429, 5xx and network failures with full-jitter backoff (honouring
 * `Retry-After`) within a total budget; re-authenticates once on 401. A
 * create is never resent once it may have reached the upstream: a timeout,
 * a broken connection after sending, a 5xx (any: a backend may have
 * processed it before failing) or an unreadable 2xx throws
 * `AmbiguousCreateError`. Only failures that prove it was not processed
 * (connection refused, DNS, connect timeout, 429, 401) lead to a resend.
 * Every HTTP request, auth and retries included, first passes the client's
 * `UpstreamGovernor` (requests in flight, and optionally started per second).
 */
export class OpenWebClient {
  private readonly authBaseUrl: string;
  private readonly exportBaseUrl: string;
  private readonly downloadLinks: DownloadLinkPolicy;
  private readonly credentials: CredentialsProvider;
  private readonly fetch: typeof fetch;
  private readonly requestTimeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly onEvent: ((event: OpenWebClientEvent) => void) | undefined;
  private readonly tokens: TokenProvider;
  private readonly governor: UpstreamGovernor;
  private readonly authPacer: AuthPacer | undefined;

  constructor(options: OpenWebClientOptions) {
    this.authBaseUrl = options.authBaseUrl;
    this.exportBaseUrl = options.exportBaseUrl;
    this.downloadLinks = downloadLinkPolicy(options.exportBaseUrl, options.downloadHosts);
    this.credentials = options.credentials;
    // Looked up per call so a later replacement of the global (tests, instrumentation) is honoured.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(this.requestTimeoutMs > 0)) throw new RangeError('requestTimeoutMs must be > 0');
    this.retryPolicy = resolveRetryPolicy(options.retry);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.onEvent = options.onEvent;
    this.authPacer = options.authPacer;
    this.governor = new UpstreamGovernor({
      maxConcurrentRequests: options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
      maxRequestsPerSecond: options.maxRequestsPerSecond,
      now: this.now,
      sleep: this.sleep,
    });
    this.tokens = new TokenProvider({
      store: options.tokenStore ?? new InMemoryTokenStore({ now: this.now }),
      authenticate: (spotId) => this.authenticate(spotId),
      refreshMarginMs: options.tokenRefreshMarginMs ?? DEFAULT_TOKEN_REFRESH_MARGIN_MS,
      refreshLeaseMs: options.tokenRefreshLeaseMs ?? DEFAULT_TOKEN_REFRESH_LEASE_MS,
      storePollIntervalMs: options.tokenStorePollIntervalMs ?? DEFAULT_TOKEN_STORE_POLL_INTERVAL_MS,
      now: this.now,
      sleep: this.sleep,
      onStoreFailure: (spotId, error) =>
        this.emit({
          type: 'tokenStoreFailed',
          spotId,
          errorName: error instanceof Error ? error.name : typeof error,
        }),
    });
  }

  /**
   * Call the auth endpoint for a fresh token. Export calls do not need this:
   * they use the shared token and authenticate only when no process has one.
   * A rejected key (400/401/403) is re-read from the credentials provider
   * once, bypassing its cache (key rotation), before `AuthRejectedError`.
   */
  async authenticate(spotId: string): Promise<UpstreamToken> {
    assertSendableSpotId(spotId);
    const operation = OpenWebOperation.AUTHENTICATE;
    let credentials: SpotCredentials = await this.credentials.getCredentials(spotId);
    let credentialsRefreshed = false;
    return this.withRetries(operation, spotId, async (attempt) => {
      // Throws UpstreamAuthPaced, nothing sent, when the fleet has no slot free soon.
      await this.authPacer?.acquire(spotId);
      const exchange = await this.exchange({
        operation,
        spotId,
        attempt,
        method: 'POST',
        url: buildUrl(this.authBaseUrl, '/v1/publisher/auth'),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ spot_id: spotId, apikey: credentials.apiKey }),
      });
      if (exchange.kind === 'failure') return this.unavailable(exchange.failure);
      const { reply } = exchange;
      if (isSuccess(reply.statusCode)) {
        const token = readAuthToken(reply);
        const issued = { token, expiresAt: tokenExpiresAt(token, this.now()) };
        this.emit({ type: 'authenticated', spotId, expiresAt: issued.expiresAt });
        return { kind: 'done', value: issued };
      }
      if (reply.statusCode === 400 || reply.statusCode === 401 || reply.statusCode === 403) {
        if (credentialsRefreshed) throw new AuthRejectedError(spotId, { statusCode: reply.statusCode });
        credentialsRefreshed = true;
        credentials = await this.credentials.getCredentials(spotId, { forceRefresh: true });
        this.emit({ type: 'credentialsRefreshed', spotId });
        return { kind: 'resend' };
      }
      if (reply.statusCode === 429) return this.authRateLimited(reply);
      const retryable = this.retryableReply(reply);
      if (retryable !== undefined) return retryable;
      // The body is left out: an auth answer may echo credentials or carry a token.
      throw reply.statusCode >= 400
        ? new UpstreamRequestRejectedError(reply.statusCode, undefined)
        : new UpstreamProtocolError(
            `The upstream answered auth with unexpected HTTP ${reply.statusCode}`,
            reply.statusCode,
            '',
          );
    });
  }

  /** A token for the spot, from this process, the shared store, or one auth through the pacer. */
  async ensureAuthenticated(spotId: string): Promise<void> {
    assertSendableSpotId(spotId);
    await this.tokens.getToken(spotId);
  }

  /** Start an export. See the class comment for when a failed create is resent. */
  async createExport(spotId: string, request: CreateExportRequest): Promise<CreatedExport> {
    return this.callExportApi({
      operation: OpenWebOperation.CREATE_EXPORT,
      spotId,
      method: 'POST',
      path: '/v4/export',
      body: toCreateExportBody(request),
      read: (reply) => readCreatedExport(reply, this.exportBaseUrl),
    });
  }

  async getExportStatus(spotId: string, exportId: string): Promise<ExportStatusReport> {
    return this.callExportApi({
      operation: OpenWebOperation.GET_EXPORT_STATUS,
      spotId,
      method: 'GET',
      path: '/v4/export/status',
      query: { id: exportId },
      exportId,
      read: (reply) => {
        const report = readExportStatusReport(reply, exportId, this.downloadLinks);
        this.reportRejectedLinks(OpenWebOperation.GET_EXPORT_STATUS, spotId, report.rejectedLinkCount);
        return report;
      },
    });
  }

  /** Ask the upstream to abort (it answers 202; any 2xx is accepted). */
  async abortExport(spotId: string, exportId: string): Promise<void> {
    await this.callExportApi({
      operation: OpenWebOperation.ABORT_EXPORT,
      spotId,
      method: 'GET',
      path: '/v4/export/abort',
      query: { id: exportId },
      exportId,
      read: () => undefined,
    });
  }

  /** The spot's finished exports (useful to recover an id after an ambiguous create). */
  async listExports(spotId: string, options: ListExportsOptions = {}): Promise<ListedExport[]> {
    return this.callExportApi({
      operation: OpenWebOperation.LIST_EXPORTS,
      spotId,
      method: 'GET',
      path: '/v4/export/list',
      query: { limit: options.limit, offset: options.offset },
      read: (reply) => {
        const listed = readListedExports(reply, this.downloadLinks);
        const rejected = listed.reduce((total, item) => total + item.rejectedLinkCount, 0);
        this.reportRejectedLinks(OpenWebOperation.LIST_EXPORTS, spotId, rejected);
        return listed;
      },
    });
  }

  private reportRejectedLinks(operation: OpenWebOperation, spotId: string, count: number): void {
    if (count > 0) this.emit({ type: 'linksRejected', operation, spotId, count });
  }

  private async callExportApi<T>(call: ExportCall<T>): Promise<T> {
    const { operation, spotId } = call;
    assertSendableSpotId(spotId);
    const isCreate = operation === OpenWebOperation.CREATE_EXPORT;
    const url = buildUrl(this.exportBaseUrl, call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    let tokenReplaced = false;
    return this.withRetries(operation, spotId, async (attempt) => {
      const { token } = await this.tokens.getToken(spotId);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-spot-id': spotId };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const exchange = await this.exchange({
        operation,
        spotId,
        attempt,
        method: call.method,
        url,
        headers,
        body,
      });
      if (exchange.kind === 'failure') {
        if (isCreate && exchange.failure.delivery === RequestDelivery.MAYBE_SENT) {
          const reason =
            exchange.failure.code === REQUEST_TIMEOUT_CODE
              ? AmbiguousCreateReason.TIMEOUT
              : AmbiguousCreateReason.CONNECTION_LOST;
          throw new AmbiguousCreateError(spotId, reason, { cause: exchange.failure.cause });
        }
        return this.unavailable(exchange.failure);
      }
      const { reply } = exchange;
      if (isSuccess(reply.statusCode)) return { kind: 'done', value: this.read(call, reply) };
      if (reply.statusCode === 401) {
        if (tokenReplaced) throw new AuthRejectedError(spotId, { statusCode: 401 });
        tokenReplaced = true;
        this.emit({ type: 'tokenRejected', spotId, operation });
        await this.tokens.replaceRejectedToken(spotId, token);
        return { kind: 'resend' };
      }
      if (isCreate && isServerError(reply.statusCode)) {
        throw new AmbiguousCreateError(spotId, AmbiguousCreateReason.SERVER_ERROR, {
          statusCode: reply.statusCode,
          cause: this.serverError(reply),
        });
      }
      const retryable = this.retryableReply(reply);
      if (retryable !== undefined) return retryable;
      throw rejectionError(reply, { operation, spotId, exportId: call.exportId });
    });
  }

  private read<T>(call: ExportCall<T>, reply: UpstreamReply): T {
    try {
      return call.read(reply);
    } catch (error) {
      // A 2xx to a create means the export exists; without its id the caller must recover it.
      if (call.operation === OpenWebOperation.CREATE_EXPORT && error instanceof UpstreamProtocolError) {
        throw new AmbiguousCreateError(call.spotId, AmbiguousCreateReason.UNREADABLE_RESPONSE, {
          statusCode: reply.statusCode,
          cause: error,
        });
      }
      throw error;
    }
  }

  /** Run attempts until one is done, throws, or the policy's attempts or budget run out. */
  private async withRetries<T>(
    operation: OpenWebOperation,
    spotId: string,
    attemptOnce: (attempt: number) => Promise<AttemptOutcome<T>>,
  ): Promise<T> {
    const startedAt = this.now();
    let attemptsMade = 0;
    for (;;) {
      const outcome = await attemptOnce(attemptsMade + 1);
      // A resend after re-authentication is bounded by its caller and does not use up an attempt.
      if (outcome.kind === 'resend') continue;
      attemptsMade++;
      if (outcome.kind === 'done') return outcome.value;
      const delayMs = nextRetryDelayMs({
        policy: this.retryPolicy,
        attemptsMade,
        elapsedMs: this.now() - startedAt,
        retryAfterMs: outcome.retryAfterMs,
        random: this.random,
      });
      if (delayMs === undefined) throw outcome.error;
      this.emit({
        type: 'retry',
        operation,
        spotId,
        attempt: attemptsMade + 1,
        delayMs,
        reason: outcome.reason,
      });
      await this.sleep(delayMs);
    }
  }

  /**
   * The auth limit is per address: a 429 means the whole fleet is too fast. Without
   * `Retry-After` the wait is at least one pacing interval (the documented second), never a
   * short backoff, and the pacer holds every container's next auth until then.
   */
  private async authRateLimited(reply: ReceivedReply): Promise<AttemptOutcome<never>> {
    const intervalMs = this.authPacer?.intervalMs ?? AUTH_RATE_LIMIT_MIN_WAIT_MS;
    const waitMs = Math.max(reply.retryAfterMs ?? 0, intervalMs);
    await this.authPacer?.holdUntil(this.now() + waitMs);
    return {
      kind: 'retryable',
      error: new UpstreamRateLimitedError(waitMs),
      reason: `HTTP ${reply.statusCode}`,
      retryAfterMs: waitMs,
    };
  }

  /** 429 and 5xx: worth another attempt (the caller decides for creates before this). */
  private retryableReply(reply: ReceivedReply): AttemptOutcome<never> | undefined {
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
      return { kind: 'retryable', error: this.serverError(reply), reason, retryAfterMs: reply.retryAfterMs };
    }
    return undefined;
  }

  private serverError(reply: UpstreamReply): UpstreamUnavailableError {
    return new UpstreamUnavailableError(`The upstream answered HTTP ${reply.statusCode}`, {
      statusCode: reply.statusCode,
    });
  }

  private unavailable(failure: TransportFailure): AttemptOutcome<never> {
    const message =
      failure.code === REQUEST_TIMEOUT_CODE
        ? `The upstream did not answer within ${this.requestTimeoutMs} ms`
        : `The upstream could not be reached (${failure.code})`;
    return {
      kind: 'retryable',
      error: new UpstreamUnavailableError(message, { cause: failure.cause }),
      reason: failure.code,
      retryAfterMs: undefined,
    };
  }

  /** One HTTP request, once the governor lets it go; never throws for transport failures. */
  private exchange(request: HttpRequest): Promise<Exchange> {
    const queuedAt = this.now();
    return this.governor.run(() => this.send(request, this.now() - queuedAt));
  }

  /** The request with the per-attempt timeout, which starts only now: a queued create was not sent. */
  private async send(request: HttpRequest, queuedMs: number): Promise<Exchange> {
    const controller = new AbortController();
    let timedOut = false;
    // A timer (not AbortSignal.timeout) so fake timers in tests control it.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.requestTimeoutMs);
    const startedAt = this.now();
    const report = (status: number | undefined, failure?: string) =>
      this.emit({
        type: 'request',
        operation: request.operation,
        spotId: request.spotId,
        attempt: request.attempt,
        status,
        ...(failure === undefined ? {} : { failure }),
        durationMs: this.now() - startedAt,
        ...(queuedMs > 0 && { queuedMs }),
      });
    try {
      const response = await this.fetch(request.url, {
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
          retryAfterMs: parseRetryAfterMs(response.headers.get('retry-after'), this.now()),
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

  private emit(event: OpenWebClientEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // An observer's failure must not fail the upstream call it observes.
    }
  }
}
