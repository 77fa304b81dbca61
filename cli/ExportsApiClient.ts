import * as z from 'zod/mini';
import { type ArchivedFilesView, archivedFilesSchema } from '../lib/archive/archivedFilesSchema';
import type { BackfillRequest } from '../lib/exports/backfill/backfillRequestSchema';
import { type SpotCoverage, spotCoverageSchema } from '../lib/exports/coverage/spotCoverageSchema';
import type { ExportStatus } from '../lib/exports/record/ExportStatus';
import { type BackfillView, backfillViewSchema } from '../lib/http/backfillViewSchema';
import {
  type ErasureListView,
  type ErasureView,
  erasureListSchema,
  erasureViewSchema,
} from '../lib/http/erasureViewSchema';
import {
  type ExportList,
  type ExportView,
  exportListSchema,
  exportViewSchema,
} from '../lib/http/exportViewSchema';
import type { ApiRequest, RequestSigner } from './ApiRequest';
import {
  ApiProblemError,
  ApiUnreachableError,
  CliInterruptedError,
  UnexpectedApiResponseError,
} from './errors';
import {
  type BackfillListView,
  backfillListViewSchema,
  type FleetPageView,
  fleetPageViewSchema,
  type SpotStatusView,
} from './FleetView';
import { problemFromErrorResponse } from './ProblemDetails';

/** Bounds the pages of spots followed, should the API never stop handing out tokens. */
export const FLEET_MAX_PAGES = 100;

/** How long one request may take before the API counts as unreachable. */
export const API_REQUEST_TIMEOUT_SECONDS = 30;
const MS_PER_SECOND = 1000;

/** The body of `POST /exports`: a date range or a conversation, plus optional file settings. */
export type StartExportBody = ({ from: string; until: string } | { conversationId: string }) & {
  delimiter?: string;
  maxRecordsInFile?: number;
};

export interface CoverageQuery {
  from?: string;
  until?: string;
  limit?: number;
  nextToken?: string;
}

export interface ListExportsQuery {
  limit?: number;
  nextToken?: string;
  status?: ExportStatus;
}

export interface ExportsApiClientOptions {
  /** The API's base URL; a path (an API Gateway stage) is kept as a prefix. */
  baseUrl: URL;
  fetch: typeof fetch;
  signer?: RequestSigner;
  /** Aborts requests in flight (Ctrl-C). */
  signal?: AbortSignal;
}

interface SendOptions {
  /** Sent as `x-spot-id`; a fleet-wide read names none. */
  spotId?: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client of the openweb-exports HTTP API: one method per route, errors as typed exceptions. */
export class ExportsApiClient {
  readonly #options: ExportsApiClientOptions;

  constructor(options: ExportsApiClientOptions) {
    this.#options = options;
  }

  /** The API's base URL as shown to the operator. */
  get apiUrl(): string {
    const { origin, pathname } = this.#options.baseUrl;
    return pathname === '/' ? origin : `${origin}${pathname}`;
  }

  async startExport(spotId: string, body: StartExportBody, idempotencyKey?: string): Promise<ExportView> {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    return this.#parse(exportViewSchema, await this.#send('POST', '/exports', { spotId, body, headers }));
  }

  async getExport(spotId: string, exportId: string): Promise<ExportView> {
    return this.#parse(exportViewSchema, await this.#send('GET', exportPath(exportId), { spotId }));
  }

  async abortExport(spotId: string, exportId: string): Promise<ExportView> {
    return this.#parse(
      exportViewSchema,
      await this.#send('POST', `${exportPath(exportId)}/abort`, { spotId }),
    );
  }

  /** The export's archive and its files, each with a download URL that needs no credentials. */
  /** One page of the archive's files; pass the page's `nextToken` for the next. */
  async getFiles(spotId: string, exportId: string, nextToken?: string): Promise<ArchivedFilesView> {
    return this.#parse(
      archivedFilesSchema,
      await this.#send('GET', `${exportPath(exportId)}/files`, {
        spotId,
        ...(nextToken !== undefined && { query: { nextToken } }),
      }),
    );
  }

  /** The fetch and Ctrl-C signal the client uses, for downloads from the URLs it was given. */
  get transport(): { fetch: typeof fetch; signal: AbortSignal | undefined } {
    return { fetch: this.#options.fetch, signal: this.#options.signal };
  }

  async listExports(spotId: string, query: ListExportsQuery = {}): Promise<ExportList> {
    return this.#parse(
      exportListSchema,
      await this.#send('GET', '/exports', { spotId, query: { ...query } }),
    );
  }

  /** One page of the spot's coverage; pass the page's `nextToken` (and the same range) for the next. */
  async getCoverage(spotId: string, query: CoverageQuery = {}): Promise<SpotCoverage> {
    return this.#parse(
      spotCoverageSchema,
      await this.#send('GET', `/spots/${encodeURIComponent(spotId)}/coverage`, {
        spotId,
        query: { ...query },
      }),
      'coverage',
    );
  }

  /** Plans and queues a backfill of the spot's history; the same key returns the same backfill. */
  async startBackfill(spotId: string, body: BackfillRequest, idempotencyKey?: string): Promise<BackfillView> {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    return this.#parse(
      backfillViewSchema,
      await this.#send('POST', `${spotPath(spotId)}/backfills`, { spotId, body, headers }),
      'a backfill',
    );
  }

  async getBackfill(spotId: string, backfillId: string): Promise<BackfillView> {
    return this.#parse(
      backfillViewSchema,
      await this.#send('GET', backfillPath(spotId, backfillId), { spotId }),
      'a backfill',
    );
  }

  /** Asks for a user to be erased from the spot's archive; the same user again is the same erasure. */
  async requestErasure(spotId: string, userId: string): Promise<ErasureView> {
    return this.#parse(
      erasureViewSchema,
      await this.#send('POST', `${spotPath(spotId)}/erasures`, { spotId, body: { userId } }),
      'an erasure',
    );
  }

  async getErasure(spotId: string, erasureId: string): Promise<ErasureView> {
    return this.#parse(
      erasureViewSchema,
      await this.#send('GET', `${spotPath(spotId)}/erasures/${encodeURIComponent(erasureId)}`, { spotId }),
      'an erasure',
    );
  }

  /** One page of the spot's erasures, newest first. */
  async listErasures(
    spotId: string,
    query: { limit?: number; nextToken?: string } = {},
  ): Promise<ErasureListView> {
    return this.#parse(
      erasureListSchema,
      await this.#send('GET', `${spotPath(spotId)}/erasures`, { spotId, query: { ...query } }),
      'a page of erasures',
    );
  }

  async abortBackfill(spotId: string, backfillId: string): Promise<BackfillView> {
    return this.#parse(
      backfillViewSchema,
      await this.#send('POST', `${backfillPath(spotId, backfillId)}/abort`, { spotId }),
      'a backfill',
    );
  }

  /** One page of the fleet (`GET /spots`); `spotIds`: only these, each of which must be known. */
  async listSpots(
    query: { spotIds?: readonly string[]; limit?: number; nextToken?: string } = {},
  ): Promise<FleetPageView> {
    return this.#parse(
      fleetPageViewSchema,
      await this.#send('GET', '/spots', {
        query: {
          limit: query.limit,
          nextToken: query.nextToken,
          spotId: query.spotIds === undefined ? undefined : query.spotIds.join(','),
        },
      }),
      'a page of spots',
    );
  }

  /**
   * Asks `GET /spots` whether the deployment knows the spot: an unknown one is refused with
   * `404 spot-not-found` and the nearest known spot (thrown as ApiProblemError), so an answer
   * with nothing in it is not mistaken for a healthy spot.
   */
  async requireKnownSpot(spotId: string): Promise<void> {
    await this.listSpots({ spotIds: [spotId], limit: 1 });
  }

  /** Every spot of the fleet, all pages (up to `maxPages`). */
  async listAllSpots(maxPages = FLEET_MAX_PAGES): Promise<SpotStatusView[]> {
    const spots: SpotStatusView[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const page = await this.listSpots(nextToken === undefined ? {} : { nextToken });
      spots.push(...page.items);
      nextToken = page.nextToken;
      pages += 1;
    } while (nextToken !== undefined && pages < maxPages);
    return spots;
  }

  async listBackfills(
    spotId: string,
    query: { limit?: number; nextToken?: string } = {},
  ): Promise<BackfillListView> {
    return this.#parse(
      backfillListViewSchema,
      await this.#send('GET', `/spots/${encodeURIComponent(spotId)}/backfills`, {
        spotId,
        query: { ...query },
      }),
      'a page of backfills',
    );
  }

  async #send(method: ApiRequest['method'], path: string, options: SendOptions): Promise<unknown> {
    const request = this.#request(method, path, options);
    const headers = this.#options.signer ? await this.#options.signer(request) : request.headers;
    const timeout = AbortSignal.timeout(API_REQUEST_TIMEOUT_SECONDS * MS_PER_SECOND);
    const interrupt = this.#options.signal;
    const signal = interrupt ? AbortSignal.any([interrupt, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.#options.fetch(request.url, {
        method,
        headers,
        signal,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      text = await response.text();
    } catch (error) {
      if (interrupt?.aborted) throw new CliInterruptedError();
      const reason = timeout.aborted
        ? `no answer within ${API_REQUEST_TIMEOUT_SECONDS} s`
        : networkFailureReason(error);
      throw new ApiUnreachableError(this.apiUrl, reason, { cause: error });
    }
    if (!response.ok) {
      throw new ApiProblemError(
        problemFromErrorResponse(response.status, response.statusText, text),
        response.status,
      );
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new UnexpectedApiResponseError(
        `the API answered ${method} ${path} with HTTP ${response.status} but no JSON body; is ${this.apiUrl} the openweb-exports API?`,
        { cause: error },
      );
    }
  }

  #request(method: ApiRequest['method'], path: string, options: SendOptions): ApiRequest {
    const base = this.#options.baseUrl;
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}${path}`, base);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...(options.spotId !== undefined && { 'x-spot-id': options.spotId }),
      ...options.headers,
    };
    if (options.body === undefined) return { method, url, headers };
    headers['content-type'] = 'application/json';
    return { method, url, headers, body: JSON.stringify(options.body) };
  }

  /**
   * The answer, checked with the schema the API's own type is inferred from. It is returned as
   * received: members a newer API adds are kept, so `--json` passes them on.
   */
  #parse<T>(schema: z.core.$ZodType<T>, body: unknown, what = 'an export'): T {
    if (!z.safeParse(schema, body).success) {
      throw new UnexpectedApiResponseError(
        `the API at ${this.apiUrl} answered with JSON that is not ${what}; is it the openweb-exports API?`,
      );
    }
    return body as T;
  }
}

function exportPath(exportId: string): string {
  return `/exports/${encodeURIComponent(exportId)}`;
}

function spotPath(spotId: string): string {
  return `/spots/${encodeURIComponent(spotId)}`;
}

function backfillPath(spotId: string, backfillId: string): string {
  return `${spotPath(spotId)}/backfills/${encodeURIComponent(backfillId)}`;
}

/** The most specific reason Node gives for a failed fetch (`ECONNREFUSED`, `ENOTFOUND`, …). */
function networkFailureReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code} (${cause.message})` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
