import { matchRoute } from '../http/matchRoute';
import {
  type CommentListing,
  type CommentListingQuery,
  DEFAULT_LISTED_COMMENTS,
  MAX_LISTED_COMMENTS,
} from './commentHistoryView';
import {
  InvalidSimulatorFaultsError,
  SimulatedExportFinishedError,
  SimulatedHttpError,
  UnknownSimulatedExportError,
} from './errors';
import type { RateLimitRefusals } from './RateLimitRefusals';
import type { SimulatorRequest } from './RequestLog';
import { MAX_EXPORT_RANGE_HOURS, parseRfc3339Utc } from './requestValidation';
import type { SimulatedExportOutcome, SimulatedExportView } from './SimulatedExports';
import { parseSimulatorFaults, type SimulatorFaults } from './SimulatorFaults';
import { emptyResponse, errorResponse, jsonResponse, type SimulatorResponse } from './SimulatorResponse';
import { CONTROL_PATH_PREFIX } from './simulatorRoutes';

/** The simulator's own methods that the control surface offers over HTTP. */
export interface SimulatorControls {
  readonly requestLog: readonly SimulatorRequest[];
  /** Calls refused because a configured rate limit was exceeded, since the start. */
  readonly rateLimitRefusals: RateLimitRefusals;
  clearRequestLog(): void;
  /** Replaces the fault configuration, script queue included. */
  setFaults(faults: SimulatorFaults): void;
  /** Applies to tokens issued from now on. */
  setTokenTtlSeconds(seconds: number): void;
  addSpot(spotId: string, apiKey: string): void;
  getExport(id: string): SimulatedExportView | undefined;
  listExports(spotId?: string): SimulatedExportView[];
  /** Forces an outcome now on a processing export. */
  finishExport(id: string, outcome: SimulatedExportOutcome): void;
  /** A spot's comments of a range with what happens to each, oldest first. */
  listComments(query: CommentListingQuery): CommentListing;
  /** Who writes each spot's comments. */
  listUsers(): { userId: string; userName: string }[];
}

/**
 * `/__simulator/*`: the simulator's own methods over HTTP, for tests and tools running in
 * another process than the simulator.
 */
export function handleControlRequest(
  simulator: SimulatorControls,
  method: string,
  url: URL,
  body: Buffer,
): SimulatorResponse {
  try {
    return dispatch(simulator, method, url, body);
  } catch (error) {
    if (error instanceof SimulatedHttpError) {
      return errorResponse(error.status, error.message, error.headers);
    }
    if (error instanceof InvalidSimulatorFaultsError) {
      return errorResponse(400, error.message);
    }
    if (error instanceof UnknownSimulatedExportError) {
      return errorResponse(404, error.message);
    }
    if (error instanceof SimulatedExportFinishedError) {
      return errorResponse(409, error.message);
    }
    throw error;
  }
}

type ControlAction =
  | 'listRequests'
  | 'rateLimitRefusals'
  | 'clearRequests'
  | 'setFaults'
  | 'listExports'
  | 'getExport'
  | 'finishExport'
  | 'setTokenTtl'
  | 'addSpot'
  | 'listComments'
  | 'listUsers';

const CONTROL_ROUTES: readonly { method: string; path: string; action: ControlAction }[] = [
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}requests`, action: 'listRequests' },
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}rate-limit-refusals`, action: 'rateLimitRefusals' },
  { method: 'DELETE', path: `${CONTROL_PATH_PREFIX}requests`, action: 'clearRequests' },
  { method: 'PUT', path: `${CONTROL_PATH_PREFIX}faults`, action: 'setFaults' },
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}exports`, action: 'listExports' },
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}exports/{id}`, action: 'getExport' },
  { method: 'POST', path: `${CONTROL_PATH_PREFIX}exports/{id}/finish`, action: 'finishExport' },
  { method: 'PUT', path: `${CONTROL_PATH_PREFIX}token-ttl`, action: 'setTokenTtl' },
  { method: 'PUT', path: `${CONTROL_PATH_PREFIX}spots/{id}`, action: 'addSpot' },
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}comments`, action: 'listComments' },
  { method: 'GET', path: `${CONTROL_PATH_PREFIX}users`, action: 'listUsers' },
];
const MS_PER_HOUR = 60 * 60 * 1000;

function dispatch(simulator: SimulatorControls, method: string, url: URL, body: Buffer): SimulatorResponse {
  const match = matchRoute(CONTROL_ROUTES, method, url.pathname);
  if (match.kind !== 'matched') {
    return errorResponse(404, `Unknown simulator control route: ${method} ${url.pathname}`);
  }
  const id = match.pathParameters.id ?? '';

  switch (match.route.action) {
    case 'listRequests':
      return jsonResponse(200, { requests: simulator.requestLog });
    case 'rateLimitRefusals':
      return jsonResponse(200, simulator.rateLimitRefusals);
    case 'clearRequests':
      simulator.clearRequestLog();
      return emptyResponse(204);
    case 'setFaults':
      simulator.setFaults(parseSimulatorFaults(parseJson(body)));
      return emptyResponse(204);
    case 'listExports':
      return jsonResponse(200, {
        exports: simulator.listExports(url.searchParams.get('spotId') ?? undefined),
      });
    case 'getExport': {
      const view = simulator.getExport(id);
      return view ? jsonResponse(200, view) : errorResponse(404, `No simulated export with id ${id}`);
    }
    case 'finishExport': {
      const { outcome } = parseJson(body);
      if (outcome !== 'completed' && outcome !== 'failed') {
        throw new SimulatedHttpError(400, 'outcome must be "completed" or "failed"');
      }
      simulator.finishExport(id, outcome);
      return jsonResponse(200, simulator.getExport(id));
    }
    case 'setTokenTtl': {
      const { seconds } = parseJson(body);
      if (!Number.isInteger(seconds) || (seconds as number) < 1) {
        throw new SimulatedHttpError(400, 'seconds must be a positive integer');
      }
      simulator.setTokenTtlSeconds(seconds as number);
      return emptyResponse(204);
    }
    case 'addSpot': {
      const { apiKey } = parseJson(body);
      if (typeof apiKey !== 'string' || apiKey === '') {
        throw new SimulatedHttpError(400, 'apiKey must be a non-empty string');
      }
      simulator.addSpot(id, apiKey);
      return emptyResponse(204);
    }
    case 'listComments':
      return jsonResponse(200, simulator.listComments(commentListingQuery(url.searchParams)));
    case 'listUsers':
      return jsonResponse(200, { users: simulator.listUsers() });
  }
}

/** `?spotId=&from=&until=[&userId=][&postId=][&limit=]`, the range as an export's (at most 730 hours). */
function commentListingQuery(params: URLSearchParams): CommentListingQuery {
  const spotId = params.get('spotId');
  if (!spotId) throw new SimulatedHttpError(400, 'spotId is required');
  const fromMs = parseRfc3339Utc(params.get('from') ?? undefined);
  const untilMs = parseRfc3339Utc(params.get('until') ?? undefined);
  if (fromMs === undefined || untilMs === undefined) {
    throw new SimulatedHttpError(
      400,
      'from and until must both be RFC 3339 date-times like 2024-01-31T23:59:59Z',
    );
  }
  if (fromMs >= untilMs || untilMs - fromMs > MAX_EXPORT_RANGE_HOURS * MS_PER_HOUR) {
    throw new SimulatedHttpError(
      400,
      `from must be before until, at most ${MAX_EXPORT_RANGE_HOURS} hours apart`,
    );
  }
  const limitText = params.get('limit') ?? String(DEFAULT_LISTED_COMMENTS);
  const limit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LISTED_COMMENTS)) {
    throw new SimulatedHttpError(400, `limit must be an integer from 1 to ${MAX_LISTED_COMMENTS}`);
  }
  const userId = params.get('userId');
  const postId = params.get('postId');
  return {
    spotId,
    fromMs,
    untilMs,
    limit,
    ...(userId !== null && { userId }),
    ...(postId !== null && { postId }),
  };
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Falls through to the same 400 as a body of the wrong shape.
  }
  throw new SimulatedHttpError(400, 'Request body must be a JSON object');
}
