import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTINGS } from '../../lib/settings/settingsTable';
import { MAX_LOCAL_REQUEST_BODY_BYTES, readBoundedBody } from '../http/readBoundedBody';
import {
  type CommentListing,
  type CommentListingQuery,
  listCommentHistories,
  listUsers,
} from './commentHistoryView';
import { handleControlRequest, type SimulatorControls } from './controlSurface';
import { DownloadLinkSigner } from './DownloadLinkSigner';
import { ExportRateLimit, type ExportRateLimitScope } from './ExportRateLimit';
import type { RateLimitRefusals } from './RateLimitRefusals';
import { RequestLog, type SimulatorRequest } from './RequestLog';
import { SimulatedExportComments } from './SimulatedExportComments';
import {
  defaultExportDurationMs,
  type SimulatedExportOutcome,
  SimulatedExports,
  type SimulatedExportView,
  viewOf,
} from './SimulatedExports';
import { SimulatedTokenIssuer } from './SimulatedTokenIssuer';
import type { SimulatorEndpoint } from './SimulatorEndpoint';
import { FaultInjector, type SimulatorFaults } from './SimulatorFaults';
import { errorResponse, type SimulatorResponse, truncatedResponse } from './SimulatorResponse';
import { readSimulatorState, writeSimulatorState } from './SimulatorStateFile';
import { SlidingWindowRateLimiter } from './SlidingWindowRateLimiter';
import { deriveSeed } from './seededRandom';
import { DEFAULT_USERS_PER_SPOT } from './simulatedComments';
import { checkSimulatorOptions } from './simulatorOptionsSchema';
import { CONTROL_PATH_PREFIX, matchRoute, type RouteMatch } from './simulatorRoutes';
import { UpstreamComments } from './UpstreamComments';
import {
  type CreateResponseStyle,
  type ListEntryStyle,
  UpstreamEndpoints,
  type UpstreamExchange,
} from './UpstreamEndpoints';

export interface OpenWebSimulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Accepted credentials; default DEMO_SPOTS. */
  spots?: Record<string, { apiKey: string }>;
  /** JWT lifetime (exp claim), default 86_400 (the upstream's 24 hours). */
  tokenTtlSeconds?: number;
  /** Per client address, shared by every spot calling from it; default 1 (the upstream's limit); 0 = unlimited. */
  authRequestsPerSecond?: number;
  /** Whether an auth 429 carries `Retry-After`; default true. The upstream does not document it either way. */
  authRateLimitRetryAfter?: boolean;
  /**
   * `/v4/export*` calls (create, status, abort, list) admitted per second, counted per
   * `exportRateLimitScope`; over it, 429 with `Retry-After`. Default 0 = unlimited (none is documented).
   */
  exportRequestsPerSecond?: number;
  /** Default 'clientAddress'. */
  exportRateLimitScope?: ExportRateLimitScope;
  /** Real ms per simulated ms; default 1; 0.001 makes a simulated hour last 3.6 real seconds. */
  timeScale?: number;
  /** Simulated duration; default 30 s + 60 s per hour of range (conversation: 30 s). */
  exportDurationMs?: (request: Record<string, unknown>) => number;
  /** Default 'completed'. */
  outcome?: (request: Record<string, unknown>) => SimulatedExportOutcome;
  /**
   * Comments of each hour of each spot, default 250: an export holds those written in its window
   * (UpstreamComments.ts), so counts follow the window's length and an hour exported twice holds
   * the same comments.
   */
  commentsPerHour?: number;
  /** Comments are written by `user-1` … `user-<usersPerSpot>` of each spot; default 40. */
  usersPerSpot?: number;
  /** Share of comments whose `message_status` changes once after written; default 0.2. */
  statusChangeShare?: number;
  /** Share of comments edited once after written; default 0.05. */
  editShare?: number;
  /** Share of comments deleted after written (absent from later exports); default 0.05. */
  deleteShare?: number;
  /** Changes come 60 s to this many simulated seconds after a comment is written (scaled by `timeScale`); default 2 days. */
  maxChangeDelaySeconds?: number;
  /**
   * Pads every download link with a `pad` query parameter to this many characters, like a long
   * pre-signed URL (the upstream's links may be up to 4,096). Default: no padding.
   */
  downloadLinkChars?: number;
  /** Default 'statusLinkOnly' (absolute status_link, no id field). */
  createResponseStyle?: CreateResponseStyle;
  /** Default 'withCreatedAt' (each list entry says when the export was created, as `created_at`). */
  listEntryStyle?: ListEntryStyle;
  /** PRNG seed for faults and generated data, default 1. */
  seed?: number;
  /**
   * Keep exports and signing secrets in this JSON file across restarts (local mode). Without it
   * everything lives in memory. A saved seed wins over `seed`.
   */
  statePath?: string;
  faults?: SimulatorFaults;
  /** Clock (epoch ms), default Date.now. */
  now?: () => number;
}

/** The simulator: its controls, also reachable over HTTP (controlSurface.ts), and where it listens. */
export interface OpenWebSimulator extends SimulatorControls {
  /** 'http://127.0.0.1:<port>' */
  readonly url: string;
  readonly authBaseUrl: string;
  readonly exportBaseUrl: string;
  /** Requests received and not answered yet, e.g. held by injected latency. */
  readonly requestsInProgress: number;
  requestsTo(endpoint: SimulatorEndpoint): SimulatorRequest[];
  close(): Promise<void>;
}

export const DEMO_SPOTS: Record<string, { apiKey: string }> = {
  sp_demo: { apiKey: 'demo-api-key' },
  sp_other: { apiKey: 'other-api-key' },
};

const REQUEST_LOG_PATH = `${CONTROL_PATH_PREFIX}requests`;

const defaults = {
  host: '127.0.0.1',
  port: 0,
  tokenTtlSeconds: 86_400,
  authRequestsPerSecond: SETTINGS.simulatorAuthRequestsPerSecond.default,
  exportRequestsPerSecond: 0,
  exportRateLimitScope: SETTINGS.simulatorExportRateLimitScope.default,
  timeScale: 1,
  commentsPerHour: SETTINGS.simulatorCommentsPerHour.default,
  usersPerSpot: DEFAULT_USERS_PER_SPOT,
  statusChangeShare: SETTINGS.simulatorStatusChangeShare.default,
  editShare: SETTINGS.simulatorEditShare.default,
  deleteShare: SETTINGS.simulatorDeleteShare.default,
  maxChangeDelaySeconds: SETTINGS.simulatorMaxChangeDelaySeconds.default,
  createResponseStyle: 'statusLinkOnly',
  listEntryStyle: 'withCreatedAt',
  seed: 1,
} as const;

/** Starts a stand-in for the OpenWeb Export API v4 on loopback; close() it when done. */
export async function startOpenWebSimulator(
  options: OpenWebSimulatorOptions = {},
): Promise<OpenWebSimulator> {
  checkSimulatorOptions(options);
  const server = createServer();
  await listen(server, options.host ?? defaults.host, options.port ?? defaults.port);
  try {
    return new RunningOpenWebSimulator(server, options);
  } catch (error) {
    // A state file it cannot use: do not leave the port taken.
    server.close();
    throw error;
  }
}

class RunningOpenWebSimulator implements OpenWebSimulator {
  readonly url: string;
  readonly authBaseUrl: string;
  readonly exportBaseUrl: string;
  readonly #server: Server;
  readonly #now: () => number;
  readonly #spots: Map<string, { apiKey: string }>;
  readonly #log = new RequestLog();
  readonly #faults: FaultInjector;
  readonly #exports: SimulatedExports;
  readonly #endpoints: UpstreamEndpoints;
  readonly #comments: UpstreamComments;
  readonly #usersPerSpot: number;
  // Aborts pending injected latencies, so close() leaves no timer behind.
  readonly #closing = new AbortController();
  readonly #saveState: () => void;
  readonly #refusals: RateLimitRefusals = { auth: 0, exportCalls: 0 };
  #tokenTtlSeconds: number;
  #requestsInProgress = 0;
  #closed: Promise<void> | undefined;

  constructor(server: Server, options: OpenWebSimulatorOptions) {
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.url = `http://${host}:${address.port}`;
    this.authBaseUrl = this.url;
    this.exportBaseUrl = this.url;
    this.#server = server;
    this.#now = options.now ?? Date.now;
    this.#spots = new Map(Object.entries(options.spots ?? DEMO_SPOTS).map(([id, spot]) => [id, { ...spot }]));
    this.#tokenTtlSeconds = options.tokenTtlSeconds ?? defaults.tokenTtlSeconds;
    const saved = options.statePath === undefined ? undefined : readSimulatorState(options.statePath);
    const seed = saved?.seed ?? options.seed ?? defaults.seed;
    const timeScale = options.timeScale ?? defaults.timeScale;
    this.#usersPerSpot = options.usersPerSpot ?? defaults.usersPerSpot;
    this.#comments = new UpstreamComments({
      seed,
      timeScale,
      commentsPerHour: options.commentsPerHour ?? defaults.commentsPerHour,
      usersPerSpot: this.#usersPerSpot,
      statusChangeShare: options.statusChangeShare ?? defaults.statusChangeShare,
      editShare: options.editShare ?? defaults.editShare,
      deleteShare: options.deleteShare ?? defaults.deleteShare,
      maxChangeDelaySeconds: options.maxChangeDelaySeconds ?? defaults.maxChangeDelaySeconds,
    });
    const exportComments = new SimulatedExportComments(this.#comments);
    const links = new DownloadLinkSigner(this.url, saved?.linkSecret);
    const tokens = new SimulatedTokenIssuer(this.#now, saved?.tokenSecret);
    const { statePath } = options;
    this.#saveState =
      statePath === undefined
        ? () => undefined
        : () =>
            writeSimulatorState(statePath, {
              seed,
              tokenSecret: tokens.secret,
              linkSecret: links.secret,
              exports: this.#exports.snapshot(),
            });

    this.#faults = new FaultInjector(seed, options.faults);
    this.#exports = new SimulatedExports({
      now: this.#now,
      timeScale,
      exportDurationMs: options.exportDurationMs ?? defaultExportDurationMs,
      outcome: options.outcome ?? (() => 'completed'),
      linksFor: (simulatedExport, completedAt) =>
        Array.from({ length: exportComments.fileCount(simulatedExport) }, (_, index) =>
          padLink(links.linkFor(simulatedExport.id, index + 1, completedAt), options.downloadLinkChars),
        ),
      seed: deriveSeed(seed, 'exportIds'),
      onChange: () => this.#saveState(),
    });
    if (saved !== undefined) this.#exports.restore(saved.exports);
    this.#saveState();
    this.#endpoints = new UpstreamEndpoints({
      now: this.#now,
      baseUrl: this.url,
      spots: this.#spots,
      tokenTtlSeconds: () => this.#tokenTtlSeconds,
      tokens,
      authRateLimiter: new SlidingWindowRateLimiter(
        options.authRequestsPerSecond ?? defaults.authRequestsPerSecond,
      ),
      authRateLimitRetryAfter: options.authRateLimitRetryAfter ?? true,
      exportRateLimit: exportRateLimit(options),
      refusals: this.#refusals,
      exports: this.#exports,
      links,
      createResponseStyle: options.createResponseStyle ?? defaults.createResponseStyle,
      listEntryStyle: options.listEntryStyle ?? defaults.listEntryStyle,
      exportComments,
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void this.#onRequest(request, response);
    });
  }

  get requestLog(): readonly SimulatorRequest[] {
    return this.#log.entries();
  }

  get requestsInProgress(): number {
    return this.#requestsInProgress;
  }

  get rateLimitRefusals(): RateLimitRefusals {
    return { ...this.#refusals };
  }

  requestsTo(endpoint: SimulatorEndpoint): SimulatorRequest[] {
    return this.#log.requestsTo(endpoint);
  }

  clearRequestLog(): void {
    this.#log.clear();
  }

  setFaults(faults: SimulatorFaults): void {
    this.#faults.replace(faults);
  }

  setTokenTtlSeconds(seconds: number): void {
    this.#tokenTtlSeconds = seconds;
  }

  addSpot(spotId: string, apiKey: string): void {
    this.#spots.set(spotId, { apiKey });
  }

  getExport(id: string): SimulatedExportView | undefined {
    const simulatedExport = this.#exports.get(id);
    return simulatedExport ? viewOf(simulatedExport) : undefined;
  }

  listExports(spotId?: string): SimulatedExportView[] {
    return this.#exports.list(spotId).map(viewOf);
  }

  finishExport(id: string, outcome: SimulatedExportOutcome): void {
    this.#exports.finish(id, outcome);
  }

  listComments(query: CommentListingQuery): CommentListing {
    return listCommentHistories(this.#comments, query, this.#now());
  }

  listUsers(): { userId: string; userName: string }[] {
    return listUsers(this.#usersPerSpot);
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#closing.abort();
      this.#server.close(() => resolve());
      // Keep-alive sockets would otherwise hold close() open until they time out.
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.#requestsInProgress += 1;
    try {
      await this.#serve(request, response);
    } catch {
      // A request too broken to parse (or answer) must not take the process down with it.
      request.socket.destroy();
    } finally {
      this.#requestsInProgress -= 1;
    }
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    const route = matchRoute(method, url.pathname);
    const spotHeader = request.headers['x-spot-id'];
    const entry: SimulatorRequest = {
      at: this.#now(),
      endpoint: route.kind === 'upstream' ? route.endpoint : route.kind === 'control' ? 'control' : 'unknown',
      method,
      path: url.pathname,
      spotId: typeof spotHeader === 'string' ? spotHeader : undefined,
      exportId: url.searchParams.get('id') ?? undefined,
      status: 'reset',
      clientAddress: request.socket.remoteAddress ?? 'unknown',
    };

    let answer: SimulatorResponse | 'reset';
    try {
      answer = await this.#answer(request, url, route, entry);
    } catch (error) {
      if (this.#closed) {
        request.socket.destroy();
        return;
      }
      answer = errorResponse(
        500,
        `Simulator failure: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (answer === 'reset') {
      this.#log.record(stripUndefined(entry));
      // An RST rather than a FIN, so the client sees ECONNRESET as from a crashing upstream.
      request.socket.resetAndDestroy();
      return;
    }
    entry.status = answer.status;
    // Clearing the log leaves it empty rather than holding the clearing call itself.
    const clearedLog =
      route.kind === 'control' && entry.method === 'DELETE' && url.pathname === REQUEST_LOG_PATH;
    if (!clearedLog) {
      this.#log.record(stripUndefined(entry));
    }
    writeResponse(response, answer);
  }

  async #answer(
    request: IncomingMessage,
    url: URL,
    route: RouteMatch,
    entry: SimulatorRequest,
  ): Promise<SimulatorResponse | 'reset'> {
    switch (route.kind) {
      case 'notFound':
        return errorResponse(404, `Not found: ${entry.method} ${url.pathname}`);
      case 'methodNotAllowed':
        return errorResponse(405, `Method ${entry.method} not allowed on ${url.pathname}`, {
          allow: route.allow.join(', '),
        });
      case 'control': {
        const body = await readBody(request);
        return body === 'tooLarge'
          ? errorResponse(413, 'Request body too large')
          : handleControlRequest(this, entry.method, url, body);
      }
      case 'upstream':
        return this.#answerUpstream(request, url, route.endpoint, route.params, entry);
    }
  }

  async #answerUpstream(
    request: IncomingMessage,
    url: URL,
    endpoint: SimulatorEndpoint,
    params: Record<string, string>,
    entry: SimulatorRequest,
  ): Promise<SimulatorResponse | 'reset'> {
    const fault = this.#faults.decide(endpoint);
    entry.fault = fault.kind;
    if (fault.latencyMs > 0) {
      await sleep(fault.latencyMs, undefined, { signal: this.#closing.signal });
    }
    if (fault.kind === 'resetBeforeProcessing') {
      return 'reset';
    }
    const body = await readBody(request);
    if (body === 'tooLarge') {
      return errorResponse(413, 'Request body too large');
    }
    if (fault.kind === 'error') {
      return errorResponse(fault.errorStatus, 'Simulated upstream error');
    }
    if (fault.kind === 'rateLimit') {
      const retryAfter: Record<string, string> =
        fault.retryAfterSeconds === null ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      return errorResponse(429, 'Too Many Requests', retryAfter);
    }

    const exchange: UpstreamExchange = {
      url,
      headers: request.headers,
      body,
      clientAddress: entry.clientAddress,
      params,
      subject: {},
    };
    const response = await this.#endpoints.handle(endpoint, exchange);
    entry.spotId = exchange.subject.spotId ?? entry.spotId;
    entry.exportId = exchange.subject.exportId ?? entry.exportId;
    if (fault.kind === 'resetAfterProcessing') {
      return 'reset';
    }
    return fault.kind === 'malformedBody' ? truncatedResponse(response) : response;
  }
}

function exportRateLimit(options: OpenWebSimulatorOptions): ExportRateLimit | undefined {
  const requestsPerSecond = options.exportRequestsPerSecond ?? defaults.exportRequestsPerSecond;
  if (requestsPerSecond === 0) return undefined;
  return new ExportRateLimit(
    requestsPerSecond,
    options.exportRateLimitScope ?? defaults.exportRateLimitScope,
  );
}

/** A body over the limit is drained, so the 413 reaches a client still sending it. */
function readBody(request: IncomingMessage): Promise<Buffer | 'tooLarge'> {
  return readBoundedBody(request, MAX_LOCAL_REQUEST_BODY_BYTES, 'drain');
}

function writeResponse(response: ServerResponse, answer: SimulatorResponse): void {
  if (response.destroyed) {
    return;
  }
  const body = answer.body ?? '';
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(length) });
  response.end(body);
}

function stripUndefined(entry: SimulatorRequest): SimulatorRequest {
  return Object.fromEntries(
    Object.entries(entry).filter(([, value]) => value !== undefined),
  ) as SimulatorRequest;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The link, grown to `chars` characters by a `pad` parameter when it is shorter. */
function padLink(link: string, chars: number | undefined): string {
  const missing = (chars ?? 0) - link.length - '&pad='.length;
  return missing > 0 ? `${link}&pad=${'x'.repeat(missing)}` : link;
}
