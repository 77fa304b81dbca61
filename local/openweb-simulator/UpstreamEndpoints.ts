import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { buildCommentsArchive } from './commentsArchive';
import { DownloadLinkChecks, type DownloadLinkSigner } from './DownloadLinkSigner';
import type { ExportRateLimit } from './ExportRateLimit';
import { SimulatedExportFinishedError, SimulatedHttpError, SpotExportInProgressError } from './errors';
import type { RateLimitRefusals } from './RateLimitRefusals';
import { validateCreateExportRequest } from './requestValidation';
import type { SimulatedExportComments } from './SimulatedExportComments';
import { type SimulatedExport, SimulatedExportStates, type SimulatedExports } from './SimulatedExports';
import type { SimulatedTokenIssuer } from './SimulatedTokenIssuer';
import type { SimulatorEndpoint } from './SimulatorEndpoint';
import { emptyResponse, errorResponse, jsonResponse, type SimulatorResponse } from './SimulatorResponse';
import type { SlidingWindowRateLimiter } from './SlidingWindowRateLimiter';
import { DOWNLOAD_FILE_NAME } from './simulatorRoutes';

/** How `POST /v4/export` answers: the upstream's exact shape is not documented. */
export type CreateResponseStyle = 'statusLinkOnly' | 'statusLinkPath' | 'withId';

/**
 * What each entry of `GET /v4/export/list` carries besides id, status and links: the upstream's
 * list shape is not documented, and whether it says when an export was created decides how an
 * export whose create answer was lost is recognised in it.
 */
export type ListEntryStyle = 'withCreatedAt' | 'withoutCreatedAt';

/** The upstream's spelling of each state in status and list answers. */
export const UpstreamExportStatuses = {
  processing: 'Processing',
  completed: 'Done',
  failed: 'Failed',
  aborted: 'Aborted',
} as const;

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1_000;
export const SIMULATED_EXPORT_FAILURE_MESSAGE = 'Export failed while generating files';

export interface UpstreamExchange {
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  clientAddress: string;
  params: Record<string, string>;
  /** Filled in while handling, for the request log. */
  subject: { spotId?: string; exportId?: string };
}

export interface UpstreamEndpointsDependencies {
  now: () => number;
  baseUrl: string;
  spots: ReadonlyMap<string, { apiKey: string }>;
  tokenTtlSeconds: () => number;
  tokens: SimulatedTokenIssuer;
  /** Per client address. */
  authRateLimiter: SlidingWindowRateLimiter;
  /** Whether its 429 says when to come back. */
  authRateLimitRetryAfter: boolean;
  /** On `/v4/export*` calls; undefined = unlimited. */
  exportRateLimit: ExportRateLimit | undefined;
  /** Counted here as calls are refused. */
  refusals: RateLimitRefusals;
  exports: SimulatedExports;
  links: DownloadLinkSigner;
  createResponseStyle: CreateResponseStyle;
  listEntryStyle: ListEntryStyle;
  /** What each export holds, file by file. */
  exportComments: SimulatedExportComments;
}

/** What the upstream does for each call, answered as a value so faults can still replace it. */
export class UpstreamEndpoints {
  constructor(private readonly deps: UpstreamEndpointsDependencies) {}

  async handle(endpoint: SimulatorEndpoint, exchange: UpstreamExchange): Promise<SimulatorResponse> {
    try {
      if (endpoint !== 'auth' && endpoint !== 'download') this.#admitExportCall(exchange);
      switch (endpoint) {
        case 'auth':
          return await this.#auth(exchange);
        case 'create':
          return await this.#create(exchange);
        case 'status':
          return await this.#status(exchange);
        case 'abort':
          return await this.#abort(exchange);
        case 'list':
          return await this.#list(exchange);
        case 'download':
          return this.#download(exchange);
      }
    } catch (error) {
      if (error instanceof SimulatedHttpError) {
        return errorResponse(error.status, error.message, error.headers);
      }
      throw error;
    }
  }

  #admitExportCall(exchange: UpstreamExchange): void {
    const spotHeader = exchange.headers['x-spot-id'];
    const spotId = typeof spotHeader === 'string' ? spotHeader : undefined;
    const admission = this.deps.exportRateLimit?.admit(
      { clientAddress: exchange.clientAddress, spotId },
      this.deps.now(),
    );
    if (admission !== undefined && !admission.admitted) {
      this.deps.refusals.exportCalls += 1;
      throw new SimulatedHttpError(429, 'Too many export requests', {
        'retry-after': String(admission.retryAfterSeconds),
      });
    }
  }

  async #auth(exchange: UpstreamExchange): Promise<SimulatorResponse> {
    const admission = this.deps.authRateLimiter.admit(exchange.clientAddress, this.deps.now());
    if (!admission.admitted) {
      this.deps.refusals.auth += 1;
      throw new SimulatedHttpError(
        429,
        'Too many authentication requests',
        this.deps.authRateLimitRetryAfter ? { 'retry-after': String(admission.retryAfterSeconds) } : {},
      );
    }
    const body = parseJsonObject(exchange.body);
    if (typeof body.spot_id !== 'string' || typeof body.apikey !== 'string') {
      throw new SimulatedHttpError(400, 'spot_id and apikey are required strings');
    }
    exchange.subject.spotId = body.spot_id;
    const spot = this.deps.spots.get(body.spot_id);
    if (!spot || !sameText(spot.apiKey, body.apikey)) {
      throw new SimulatedHttpError(401, 'Invalid spot_id or apikey');
    }
    const token = await this.deps.tokens.issue(body.spot_id, this.deps.tokenTtlSeconds());
    return jsonResponse(200, { token });
  }

  async #create(exchange: UpstreamExchange): Promise<SimulatorResponse> {
    const spotId = await this.#authorize(exchange);
    const body = parseJsonObject(exchange.body);
    const validation = validateCreateExportRequest(body, spotId);
    if (!validation.ok) {
      throw new SimulatedHttpError(400, validation.message);
    }
    let created: SimulatedExport;
    try {
      created = this.deps.exports.create(spotId, body, validation.request);
    } catch (error) {
      if (error instanceof SpotExportInProgressError) {
        throw new SimulatedHttpError(409, 'Same request already in progress');
      }
      throw error;
    }
    exchange.subject.exportId = created.id;
    return jsonResponse(200, this.#createAnswer(created.id));
  }

  #createAnswer(exportId: string): Record<string, string> {
    const statusPath = `/v4/export/status?id=${encodeURIComponent(exportId)}`;
    const absoluteLink = new URL(statusPath, this.deps.baseUrl).toString();
    switch (this.deps.createResponseStyle) {
      case 'statusLinkPath':
        return { status_link: statusPath };
      case 'withId':
        return { id: exportId, status_link: absoluteLink };
      case 'statusLinkOnly':
        return { status_link: absoluteLink };
    }
  }

  async #status(exchange: UpstreamExchange): Promise<SimulatorResponse> {
    const simulatedExport = await this.#requireOwnExport(exchange);
    return jsonResponse(200, statusAnswer(simulatedExport));
  }

  async #abort(exchange: UpstreamExchange): Promise<SimulatorResponse> {
    const simulatedExport = await this.#requireOwnExport(exchange);
    try {
      this.deps.exports.abort(simulatedExport.id);
    } catch (error) {
      if (error instanceof SimulatedExportFinishedError) {
        throw new SimulatedHttpError(
          400,
          `Export is not in progress (${statusAnswer(simulatedExport).status})`,
        );
      }
      throw error;
    }
    return emptyResponse(202);
  }

  async #list(exchange: UpstreamExchange): Promise<SimulatorResponse> {
    const spotId = await this.#authorize(exchange);
    const limit = parseCount(exchange.url.searchParams.get('limit'), 'limit', DEFAULT_LIST_LIMIT, 1);
    const offset = parseCount(exchange.url.searchParams.get('offset'), 'offset', 0, 0);
    const finished = this.deps.exports
      .list(spotId)
      .filter((candidate) => candidate.state !== SimulatedExportStates.processing);
    const exports = finished.slice(offset, offset + Math.min(limit, MAX_LIST_LIMIT)).map((candidate) => ({
      id: candidate.id,
      status: UpstreamExportStatuses[candidate.state],
      links: candidate.links,
      ...(this.deps.listEntryStyle === 'withCreatedAt' && {
        created_at: new Date(candidate.createdAt).toISOString(),
      }),
    }));
    return jsonResponse(200, { exports });
  }

  #download(exchange: UpstreamExchange): SimulatorResponse {
    const exportId = exchange.params.exportId ?? '';
    const fileNumber = Number(DOWNLOAD_FILE_NAME.exec(exchange.params.fileName ?? '')?.[1]);
    exchange.subject.exportId = exportId;
    const check = this.deps.links.check(
      exportId,
      fileNumber,
      exchange.url.searchParams.get('expires'),
      exchange.url.searchParams.get('signature'),
      this.deps.now(),
    );
    if (check !== DownloadLinkChecks.valid) {
      throw new SimulatedHttpError(
        403,
        check === DownloadLinkChecks.expired ? 'Link expired' : 'Invalid signature',
      );
    }
    const simulatedExport = this.deps.exports.get(exportId);
    exchange.subject.spotId = simulatedExport?.spotId;
    if (!simulatedExport || simulatedExport.state !== SimulatedExportStates.completed) {
      throw new SimulatedHttpError(404, 'File not found');
    }
    const fileComments = this.deps.exportComments.fileRows(simulatedExport, fileNumber);
    if (!fileComments) {
      throw new SimulatedHttpError(404, 'File not found');
    }
    const csvFileName = `${simulatedExport.id}_${fileNumber}.csv`;
    return {
      status: 200,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${csvFileName}.zip"`,
      },
      body: buildCommentsArchive(
        csvFileName,
        fileComments,
        simulatedExport.parsedRequest.delimiter,
        simulatedExport.finishesAt,
      ),
    };
  }

  /** The spot a call may act for: a valid bearer token (else 401) for the spot in `x-spot-id` (else 403). */
  async #authorize(exchange: UpstreamExchange): Promise<string> {
    const spotHeader = exchange.headers['x-spot-id'];
    const claimedSpot = typeof spotHeader === 'string' ? spotHeader : undefined;
    exchange.subject.spotId = claimedSpot;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(exchange.headers.authorization ?? '')?.[1];
    if (bearer === undefined) {
      throw new SimulatedHttpError(401, 'Missing bearer token');
    }
    const tokenSpot = await this.deps.tokens.spotOf(bearer);
    if (tokenSpot === undefined) {
      throw new SimulatedHttpError(401, 'Invalid or expired token');
    }
    if (claimedSpot !== tokenSpot) {
      throw new SimulatedHttpError(403, 'Token does not grant access to this spot');
    }
    return tokenSpot;
  }

  async #requireOwnExport(exchange: UpstreamExchange): Promise<SimulatedExport> {
    const spotId = await this.#authorize(exchange);
    const id = exchange.url.searchParams.get('id');
    if (!id) {
      throw new SimulatedHttpError(400, 'Query parameter id is required');
    }
    exchange.subject.exportId = id;
    const simulatedExport = this.deps.exports.get(id);
    // Another spot's export answers like an unknown one, so ids cannot be probed.
    if (!simulatedExport || simulatedExport.spotId !== spotId) {
      throw new SimulatedHttpError(404, 'Export not found');
    }
    return simulatedExport;
  }
}

function statusAnswer(simulatedExport: SimulatedExport): Record<string, unknown> {
  const status = UpstreamExportStatuses[simulatedExport.state];
  switch (simulatedExport.state) {
    case SimulatedExportStates.completed:
      return { id: simulatedExport.id, status, links: simulatedExport.links };
    case SimulatedExportStates.failed:
      return { id: simulatedExport.id, status, error: SIMULATED_EXPORT_FAILURE_MESSAGE };
    default:
      return { id: simulatedExport.id, status };
  }
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new SimulatedHttpError(400, 'Request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SimulatedHttpError(400, 'Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function parseCount(raw: string | null, name: string, fallback: number, minimum: number): number {
  if (raw === null) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < minimum) {
    throw new SimulatedHttpError(400, `${name} must be an integer of at least ${minimum}`);
  }
  return Number(raw);
}

function sameText(expected: string, received: string): boolean {
  const expectedBytes = Buffer.from(expected);
  const receivedBytes = Buffer.from(received);
  return expectedBytes.length === receivedBytes.length && timingSafeEqual(expectedBytes, receivedBytes);
}
