import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType, renderProblem } from '../../lib/errors/problems';
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADERS_BYTES } from '../../lib/http/apiRequestLimits';
import { INTERNAL_ERROR_PROBLEM } from '../../lib/http/problemResponses';
import type { HandlerName, Route } from '../../lib/http/routeTable';
import { LocalRuntimeError } from '../errors';
import { apiGatewayEventFromRequest } from './apiGatewayEventFromRequest';
import {
  httpResponseFromResult,
  type LocalHttpResponse,
  rawHttpResponse,
  writeHttpResponse,
} from './httpResponseFromResult';
import { localProblem } from './localProblem';
import { matchRoute } from './matchRoute';
import { readBoundedBody } from './readBoundedBody';

/** Loopback only: local mode has no authorization, so nothing else may reach it. */
export const LOCAL_API_HOST = '127.0.0.1';
/** Routes of the local runtime itself live under this prefix, which no API route starts with. */
export const LOCAL_ROUTE_PREFIX = '/_local/';
/** The OpenAPI document of the API, served by the runtime itself next to the API's routes. */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';
/** Local routes outside the prefix: the index and the health check, which the deployed API never has. */
export const LOCAL_TOP_LEVEL_PATHS: readonly string[] = ['/', '/health'];
/** How long close() lets requests in progress finish before cutting their connections. */
export const HTTP_CLOSE_GRACE_MS = 5_000;

export interface LocalRouteRequest {
  pathParameters: Record<string, string>;
  query: URLSearchParams;
}

/** A route that exists only on this machine (schedules, events, the OpenAPI document), answered by the runtime itself. */
export interface LocalRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(request: LocalRouteRequest): Promise<LocalHttpResponse>;
}

export interface LocalHttpApiOptions {
  /** 0 picks a free port. */
  port: number;
  /** The API's routes (ROUTES): each request to one becomes an API Gateway event for its handler. */
  routes: readonly Route[];
  invoke: (handler: HandlerName, event: APIGatewayProxyEventV2) => Promise<unknown>;
  localRoutes?: readonly LocalRoute[];
  /** Default: the handlers' own limit, so the 413 is the same whichever refuses the body. */
  maxBodyBytes?: number;
  logger?: Logger;
  /** Counts the requests in flight, so background work can let them go first. */
  activity?: { begin(): () => void };
}

export interface LocalHttpApi {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Refuses new requests (503) and stops listening; requests in progress go on. */
  stopAccepting(): void;
  /** Stops accepting, then resolves once requests in progress have finished (or the grace period ended). */
  close(): Promise<void>;
}

/** The HTTP API on loopback, dispatching with the same route table as API Gateway. */
export async function startLocalHttpApi(options: LocalHttpApiOptions): Promise<LocalHttpApi> {
  const localRoutes = options.localRoutes ?? [];
  checkRouteTables(options.routes, localRoutes);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  let accepting = true;

  const server = createServer((request, response) => {
    const end = options.activity?.begin();
    if (end !== undefined) {
      response.once('close', end);
      response.once('finish', end);
    }
    void serve(request, response).catch((error: unknown) => {
      options.logger?.error('Local API request failed', { error });
      send(response, localProblem(INTERNAL_ERROR_PROBLEM));
    });
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!accepting) {
      send(response, localProblem({ status: 503, title: 'Service Unavailable', detail: 'Stopping.' }));
      return;
    }
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const rawPath = target.split('?')[0] as string;
    const api = matchRoute(options.routes, method, rawPath);
    if (api.kind === 'matched') {
      const body = await readBoundedBody(request, maxBodyBytes);
      if (body === 'tooLarge') {
        // The rest of the body is not read: the connection cannot be reused.
        response.setHeader('connection', 'close');
        send(response, localProblem(renderProblem({ type: ProblemType.PAYLOAD_TOO_LARGE, maxBodyBytes })));
        return;
      }
      const event = apiGatewayEventFromRequest(
        {
          method,
          target,
          httpVersion: request.httpVersion,
          rawHeaders: request.rawHeaders,
          body,
          sourceIp: request.socket.remoteAddress ?? LOCAL_API_HOST,
          receivedAtMs: Date.now(),
          requestId: randomUUID(),
        },
        api.route,
        api.pathParameters,
      );
      send(response, httpResponseFromResult(await options.invoke(api.route.handler, event)));
      return;
    }
    // The runtime's own GET routes answer HEAD too (`curl -I …/health`), headers without the body.
    const localMethod = method === 'HEAD' ? 'GET' : method;
    const local = api.kind === 'notFound' ? matchRoute(localRoutes, localMethod, rawPath) : api;
    if (local.kind === 'matched') {
      const query = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
      send(response, await local.route.handle({ pathParameters: local.pathParameters, query }));
    } else if (local.kind === 'methodNotAllowed') {
      const allow =
        api.kind === 'notFound' && local.allow.includes('GET') ? [...local.allow, 'HEAD'] : local.allow;
      send(
        response,
        localProblem({
          status: 405,
          title: 'Method Not Allowed',
          detail: `${method} is not allowed here; allowed: ${allow.join(', ')}.`,
          headers: { allow: allow.join(', ') },
        }),
      );
    } else {
      send(
        response,
        localProblem({ status: 404, title: 'Not Found', detail: `No route for ${method} ${rawPath}.` }),
      );
    }
  }

  /** Once stopping, every answer closes its connection, so close() need not wait for idle keep-alives. */
  function send(response: ServerResponse, answer: LocalHttpResponse): void {
    if (!accepting) response.setHeader('connection', 'close');
    writeHttpResponse(response, answer);
  }

  // Node answers a request it cannot read (headers past its 16 KiB, bad HTTP) with a bare status
  // line; these answer as the API's problems do.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawHttpResponse(localProblem(clientErrorProblem(error))));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOCAL_API_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const stopAccepting = () => {
    accepting = false;
    closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
  };
  return {
    url: `http://${LOCAL_API_HOST}:${port}`,
    stopAccepting,
    close: async () => {
      stopAccepting();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, HTTP_CLOSE_GRACE_MS);
      });
      await Promise.race([closed, grace]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
    },
  };
}

/** What a request Node could not read gets: 431 past its header limit, 408 when too slow, else 400. */
function clientErrorProblem(error: NodeJS.ErrnoException) {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return renderProblem({
      type: ProblemType.REQUEST_HEADERS_TOO_LARGE,
      maxHeadersBytes: MAX_REQUEST_HEADERS_BYTES,
    });
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, title: 'Request Timeout', detail: 'The request was not received in time.' };
  }
  return { status: 400, title: 'Bad Request', detail: 'The request is not valid HTTP/1.1.' };
}

function checkRouteTables(routes: readonly Route[], localRoutes: readonly LocalRoute[]): void {
  const isLocalPath = (path: string) =>
    path.startsWith(LOCAL_ROUTE_PREFIX) ||
    path === OPENAPI_DOCUMENT_PATH ||
    LOCAL_TOP_LEVEL_PATHS.includes(path);
  const clash = routes.find((route) => isLocalPath(route.path));
  const stray = localRoutes.find((route) => !isLocalPath(route.path));
  if (clash !== undefined || stray !== undefined) {
    throw new LocalRuntimeError(
      `Local-only routes must live under ${LOCAL_ROUTE_PREFIX} (or be ${[OPENAPI_DOCUMENT_PATH, ...LOCAL_TOP_LEVEL_PATHS].join(' or ')}) ` +
        'and API routes must not: ' +
        `${(clash ?? stray)?.method} ${(clash ?? stray)?.path}`,
    );
  }
}
