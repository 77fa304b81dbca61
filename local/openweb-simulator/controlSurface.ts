import {
  InvalidSimulatorFaultsError,
  SimulatedExportFinishedError,
  SimulatedHttpError,
  UnknownSimulatedExportError,
} from './errors';
import type { OpenWebSimulator } from './OpenWebSimulator';
import { parseSimulatorFaults } from './SimulatorFaults';
import { emptyResponse, errorResponse, jsonResponse, type SimulatorResponse } from './SimulatorResponse';
import { CONTROL_PATH_PREFIX } from './simulatorRoutes';

/**
 * `/__simulator/*`: the simulator's own methods over HTTP, for tests and tools running in
 * another process than the simulator.
 */
export function handleControlRequest(
  simulator: OpenWebSimulator,
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

function dispatch(simulator: OpenWebSimulator, method: string, url: URL, body: Buffer): SimulatorResponse {
  const segments = url.pathname.slice(CONTROL_PATH_PREFIX.length).split('/').map(decodeURIComponent);
  const route = `${method} ${segments.map((segment, index) => (index === 1 ? ':id' : segment)).join('/')}`;
  const id = segments[1] ?? '';

  switch (route) {
    case 'GET requests':
      return jsonResponse(200, { requests: simulator.requestLog });
    case 'GET rate-limit-refusals':
      return jsonResponse(200, simulator.rateLimitRefusals);
    case 'DELETE requests':
      simulator.clearRequestLog();
      return emptyResponse(204);
    case 'PUT faults':
      simulator.setFaults(parseSimulatorFaults(parseJson(body)));
      return emptyResponse(204);
    case 'GET exports':
      return jsonResponse(200, {
        exports: simulator.listExports(url.searchParams.get('spotId') ?? undefined),
      });
    case 'GET exports/:id': {
      const view = simulator.getExport(id);
      return view ? jsonResponse(200, view) : errorResponse(404, `No simulated export with id ${id}`);
    }
    case 'POST exports/:id/finish': {
      const { outcome } = parseJson(body);
      if (outcome !== 'completed' && outcome !== 'failed') {
        throw new SimulatedHttpError(400, 'outcome must be "completed" or "failed"');
      }
      simulator.finishExport(id, outcome);
      return jsonResponse(200, simulator.getExport(id));
    }
    case 'PUT token-ttl': {
      const { seconds } = parseJson(body);
      if (!Number.isInteger(seconds) || (seconds as number) < 1) {
        throw new SimulatedHttpError(400, 'seconds must be a positive integer');
      }
      simulator.setTokenTtlSeconds(seconds as number);
      return emptyResponse(204);
    }
    case 'PUT spots/:id': {
      const { apiKey } = parseJson(body);
      if (typeof apiKey !== 'string' || apiKey === '') {
        throw new SimulatedHttpError(400, 'apiKey must be a non-empty string');
      }
      simulator.addSpot(id, apiKey);
      return emptyResponse(204);
    }
    default:
      return errorResponse(404, `Unknown simulator control route: ${method} ${url.pathname}`);
  }
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
