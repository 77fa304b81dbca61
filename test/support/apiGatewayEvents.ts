import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createLogger } from '../../lib/observability/createLogger';

export interface ApiEventInit {
  method?: 'GET' | 'POST';
  /** Route path with `{exportId}` where it applies, e.g. `/exports/{exportId}`. */
  route?: string;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  exportId?: string;
  /** The `{spotId}` of the path, for routes under `/spots/{spotId}`. */
  pathSpotId?: string;
  /** Other path parameters, e.g. `{ spotId, backfillId }`, put into the path as its `{name}`s. */
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
}

let requestCounter = 0;

/** An API Gateway HTTP API (payload 2.0) event, as API Gateway would deliver it. */
export function apiEvent(init: ApiEventInit = {}): APIGatewayProxyEventV2 {
  const method = init.method ?? 'GET';
  const route = init.route ?? '/exports';
  const pathParameters = {
    ...init.pathParameters,
    ...(init.exportId !== undefined && { exportId: init.exportId }),
    ...(init.pathSpotId !== undefined && { spotId: init.pathSpotId }),
  };
  const rawPath = Object.entries(pathParameters).reduce(
    (path, [name, value]) => path.replace(`{${name}}`, encodeURIComponent(value)),
    route,
  );
  const query = init.query ?? {};
  requestCounter += 1;
  return {
    version: '2.0',
    routeKey: `${method} ${route}`,
    rawPath,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: Object.fromEntries(
      Object.entries(init.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
    ...(Object.keys(pathParameters).length > 0 && { pathParameters }),
    ...(init.body !== undefined && { body: init.body }),
    isBase64Encoded: init.isBase64Encoded ?? false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: `req-${requestCounter}`,
      routeKey: `${method} ${route}`,
      stage: '$default',
      time: '01/Nov/2026:00:00:00 +0000',
      timeEpoch: 0,
    },
  };
}

/** The routes as events, with JSON bodies encoded as API Gateway does. */
export const apiRequests = {
  start: (spotId: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    apiEvent({
      method: 'POST',
      route: '/exports',
      headers: {
        ...(spotId !== undefined && { 'x-spot-id': spotId }),
        'content-type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  check: (spotId: string, exportId: string) =>
    apiEvent({ route: '/exports/{exportId}', headers: { 'x-spot-id': spotId }, exportId }),
  abort: (spotId: string, exportId: string) =>
    apiEvent({
      method: 'POST',
      route: '/exports/{exportId}/abort',
      headers: { 'x-spot-id': spotId },
      exportId,
    }),
  list: (spotId: string, query: Record<string, string> = {}) =>
    apiEvent({ route: '/exports', headers: { 'x-spot-id': spotId }, query }),
  files: (spotId: string, exportId: string) =>
    apiEvent({ route: '/exports/{exportId}/files', headers: { 'x-spot-id': spotId }, exportId }),
  /** The spot's coverage; the path names `pathSpotId` (the header's spot unless given). */
  coverage: (spotId: string, query: Record<string, string> = {}, pathSpotId = spotId) =>
    apiEvent({ route: '/spots/{spotId}/coverage', headers: { 'x-spot-id': spotId }, pathSpotId, query }),
  startBackfill: (spotId: string, body: unknown, headers: Record<string, string> = {}) =>
    apiEvent({
      method: 'POST',
      route: '/spots/{spotId}/backfills',
      pathParameters: { spotId },
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  readBackfill: (spotId: string, backfillId: string, headers: Record<string, string> = {}) =>
    apiEvent({
      route: '/spots/{spotId}/backfills/{backfillId}',
      pathParameters: { spotId, backfillId },
      headers,
    }),
  abortBackfill: (spotId: string, backfillId: string) =>
    apiEvent({
      method: 'POST',
      route: '/spots/{spotId}/backfills/{backfillId}/abort',
      pathParameters: { spotId, backfillId },
    }),
};

/** A Lambda context without a deadline (so middy sets no early timeout). */
export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test-function',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:test-function',
    memoryLimitInMB: '256',
    awsRequestId: 'aws-request-id',
    logGroupName: '/aws/lambda/test-function',
    logStreamName: 'stream',
  } as Context;
}

export function silentLogger() {
  return createLogger({ logLevel: 'SILENT' });
}

export interface ParsedResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A handler's API answer with its JSON body parsed. */
export function parseResponse(result: unknown): ParsedResponse {
  const response = result as APIGatewayProxyStructuredResultV2;
  return {
    statusCode: response.statusCode ?? 0,
    headers: Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    body: JSON.parse(response.body ?? 'null') as Record<string, unknown>,
  };
}
