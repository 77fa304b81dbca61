import type { CreateExportRequest } from '../exports/record/CreateExportRequest';
import type { CredentialsProvider } from '../exports/upstream/CredentialsProvider';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  InvalidSpotIdError,
  UpstreamProtocolError,
} from '../exports/upstream/errors';
import type {
  CreatedExport,
  ExportStatusReport,
  ListExportsOptions,
  ListedExport,
} from '../exports/upstream/UpstreamExports';
import { SETTINGS } from '../settings/settingsTable';
import type { AuthPacer } from './AuthPacer';
import { buildUrl } from './buildUrl';
import { toCreateExportBody } from './createExportBody';
import { type DownloadLinkPolicy, downloadLinkPolicy } from './downloadLinkPolicy';
import { FreshTokenSender } from './FreshTokenSender';
import { type Exchange, HttpTransport } from './HttpTransport';
import { isServerError, isSuccess } from './httpStatus';
import { InMemoryTokenStore } from './InMemoryTokenStore';
import type { OpenWebClientEvent } from './OpenWebClientEvent';
import { OpenWebOperation } from './OpenWebOperation';
import { type AttemptOutcome, RetryLoop } from './RetryLoop';
import { rejectionError } from './rejectionError';
import {
  readCreatedExport,
  readExportStatusReport,
  readListedExports,
  type UpstreamReply,
} from './responses';
import { retryableReply, serverError, unavailable } from './retryableOutcome';
import { type RetryPolicy, resolveRetryPolicy } from './retryPolicy';
import { TokenProvider } from './TokenProvider';
import type { TokenStore, UpstreamToken } from './TokenStore';
import { REQUEST_TIMEOUT_CODE, RequestDelivery } from './transportFailure';
import { UpstreamAuthenticator } from './UpstreamAuthenticator';
import { DEFAULT_MAX_CONCURRENT_REQUESTS, UpstreamGovernor } from './UpstreamGovernor';

/** As the functions are configured by default (lib/settings). */
export const DEFAULT_REQUEST_TIMEOUT_MS = SETTINGS.upstreamRequestTimeoutMs.default;
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

// Spot ids go into a header and a JSON body; anything else would fail inside fetch, where it looks like a network error.
const SENDABLE_SPOT_ID = /^[\x21-\x7e]+$/;

function assertSendableSpotId(spotId: string): void {
  if (!SENDABLE_SPOT_ID.test(spotId)) throw new InvalidSpotIdError();
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Typed client of the OpenWeb Export API v4 (see docs/upstream.md).
 *
 * Retries 429, 5xx and network failures with full-jitter backoff (honouring
 * `Retry-After`) within a total budget (`RetryLoop`); re-authenticates once per
 * call on 401 (`FreshTokenSender`). A create is never resent once it may have
 * reached the upstream: a timeout, a broken connection after sending, a 5xx
 * (any: a backend may have processed it before failing) or an unreadable 2xx
 * throws `AmbiguousCreateError`. Only failures that prove it was not processed
 * (connection refused, DNS, connect timeout, 429, 401) lead to a resend.
 * Every HTTP request, auth and retries included, first passes the client's
 * `UpstreamGovernor` (requests in flight, and optionally started per second).
 */
export class OpenWebClient {
  private readonly exportBaseUrl: string;
  private readonly downloadLinks: DownloadLinkPolicy;
  private readonly requestTimeoutMs: number;
  private readonly onEvent: ((event: OpenWebClientEvent) => void) | undefined;
  private readonly transport: HttpTransport;
  private readonly retries: RetryLoop;
  private readonly authenticator: UpstreamAuthenticator;
  private readonly tokens: TokenProvider;

  constructor(options: OpenWebClientOptions) {
    this.exportBaseUrl = options.exportBaseUrl;
    this.downloadLinks = downloadLinkPolicy(options.exportBaseUrl, options.downloadHosts);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(this.requestTimeoutMs > 0)) throw new RangeError('requestTimeoutMs must be > 0');
    const retryPolicy = resolveRetryPolicy(options.retry);
    const now = options.now ?? Date.now;
    const sleep = options.sleep ?? defaultSleep;
    this.onEvent = options.onEvent;
    const emit = (event: OpenWebClientEvent) => this.emit(event);
    this.transport = new HttpTransport({
      // Looked up per call so a later replacement of the global (tests, instrumentation) is honoured.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      requestTimeoutMs: this.requestTimeoutMs,
      governor: new UpstreamGovernor({
        maxConcurrentRequests: options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
        maxRequestsPerSecond: options.maxRequestsPerSecond,
        now,
        sleep,
      }),
      now,
      emit,
    });
    this.retries = new RetryLoop({
      policy: retryPolicy,
      now,
      sleep,
      random: options.random ?? Math.random,
      emit,
    });
    this.authenticator = new UpstreamAuthenticator({
      authBaseUrl: options.authBaseUrl,
      credentials: options.credentials,
      authPacer: options.authPacer,
      transport: this.transport,
      retries: this.retries,
      requestTimeoutMs: this.requestTimeoutMs,
      now,
      emit,
    });
    this.tokens = new TokenProvider({
      store: options.tokenStore ?? new InMemoryTokenStore({ now }),
      authenticate: (spotId) => this.authenticate(spotId),
      refreshMarginMs: options.tokenRefreshMarginMs ?? DEFAULT_TOKEN_REFRESH_MARGIN_MS,
      refreshLeaseMs: options.tokenRefreshLeaseMs ?? DEFAULT_TOKEN_REFRESH_LEASE_MS,
      storePollIntervalMs: options.tokenStorePollIntervalMs ?? DEFAULT_TOKEN_STORE_POLL_INTERVAL_MS,
      now,
      sleep,
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
    return this.authenticator.authenticate(spotId);
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
    const url = buildUrl(this.exportBaseUrl, call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const tokenSender = new FreshTokenSender({
      tokens: this.tokens,
      spotId,
      onTokenRejected: () => this.emit({ type: 'tokenRejected', spotId, operation }),
    });
    return this.retries.run(operation, spotId, async (attempt) => {
      const exchange = await tokenSender.sendWithFreshToken((token) => {
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-spot-id': spotId };
        if (body !== undefined) headers['content-type'] = 'application/json';
        return this.transport.exchange({
          operation,
          spotId,
          attempt,
          method: call.method,
          url,
          headers,
          body,
        });
      });
      return this.outcomeOf(call, exchange);
    });
  }

  /** What an export call's exchange means; a 401 never gets here (the token sender handles it). */
  private outcomeOf<T>(call: ExportCall<T>, exchange: Exchange): AttemptOutcome<T> {
    const { operation, spotId } = call;
    const isCreate = operation === OpenWebOperation.CREATE_EXPORT;
    if (exchange.kind === 'failure') {
      if (isCreate && exchange.failure.delivery === RequestDelivery.MAYBE_SENT) {
        const reason =
          exchange.failure.code === REQUEST_TIMEOUT_CODE
            ? AmbiguousCreateReason.TIMEOUT
            : AmbiguousCreateReason.CONNECTION_LOST;
        throw new AmbiguousCreateError(spotId, reason, { cause: exchange.failure.cause });
      }
      return unavailable(exchange.failure, this.requestTimeoutMs);
    }
    const { reply } = exchange;
    if (isSuccess(reply.statusCode)) return { kind: 'done', value: this.read(call, reply) };
    if (isCreate && isServerError(reply.statusCode)) {
      throw new AmbiguousCreateError(spotId, AmbiguousCreateReason.SERVER_ERROR, {
        statusCode: reply.statusCode,
        cause: serverError(reply),
      });
    }
    const retryable = retryableReply(reply);
    if (retryable !== undefined) return retryable;
    throw rejectionError(reply, { operation, spotId, exportId: call.exportId });
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

  private emit(event: OpenWebClientEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // An observer's failure must not fail the upstream call it observes.
    }
  }
}
