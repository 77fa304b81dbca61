import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Route } from '../../lib/http/routeTable';

/** An HTTP request as received, before any interpretation. */
export interface LocalHttpRequest {
  method: string;
  /** The request target: path and query as sent, percent-encoded. */
  target: string;
  /** `1.1` */
  httpVersion: string;
  /** Name, value, name, value… in arrival order (Node's `rawHeaders`). */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  receivedAtMs: number;
  requestId: string;
}

/** The account id local events and contexts carry. */
export const LOCAL_ACCOUNT_ID = '000000000000';
export const LOCAL_API_ID = 'local';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// Media types API Gateway passes as text; every other body arrives base64-encoded.
const TEXT_MEDIA_TYPE =
  /^(?:text\/[^;]+|application\/(?:[a-z0-9.+-]+\+)?(?:json|xml)|application\/(?:javascript|x-www-form-urlencoded))$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The API Gateway HTTP API event (payload format 2.0) for a request that matched `route`,
 * shaped as API Gateway delivers it: header names lower-cased and repeated headers joined
 * with commas, cookies moved out of the headers, path and parameters percent-decoded,
 * repeated query parameters joined with commas, a text body as UTF-8 and any other
 * body base64-encoded.
 */
export function apiGatewayEventFromRequest(
  request: LocalHttpRequest,
  route: Route,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
  const queryStart = request.target.indexOf('?');
  const rawPath = queryStart === -1 ? request.target : request.target.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : request.target.slice(queryStart + 1);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const queryStringParameters = collectQuery(rawQueryString);
  const path = decodePath(rawPath);
  const domainName = (headers.host ?? '127.0.0.1').replace(/:\d+$/, '');
  const routeKey = `${route.method} ${route.path}`;
  const body = encodeBody(request.body, headers['content-type']);
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString,
    ...(cookies.length > 0 && { cookies }),
    headers,
    ...(queryStringParameters !== undefined && { queryStringParameters }),
    ...(Object.keys(pathParameters).length > 0 && { pathParameters: { ...pathParameters } }),
    ...(body !== undefined && { body: body.text }),
    isBase64Encoded: body?.isBase64Encoded ?? false,
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method,
        path,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId,
      routeKey,
      stage: '$default',
      time: accessLogTime(request.receivedAtMs),
      timeEpoch: request.receivedAtMs,
    },
  };
}

function collectHeaders(rawHeaders: readonly string[]): {
  headers: Record<string, string>;
  cookies: string[];
} {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const value = rawHeaders[index + 1] as string;
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter((cookie) => cookie !== ''),
      );
    } else {
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
    }
  }
  return { headers, cookies };
}

function collectQuery(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

/** HTTP APIs hand the function the decoded path; a badly encoded one stays as sent. */
function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return rawPath;
  }
}

function encodeBody(
  body: Buffer,
  contentType: string | undefined,
): { text: string; isBase64Encoded: boolean } | undefined {
  if (body.length === 0) return undefined;
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (TEXT_MEDIA_TYPE.test(mediaType)) {
    try {
      return { text: strictUtf8.decode(body), isBase64Encoded: false };
    } catch {
      // Declared text but not UTF-8: delivered as bytes, like any binary body.
    }
  }
  return { text: body.toString('base64'), isBase64Encoded: true };
}

/** `21/Nov/2026:19:44:00 +0000`, the format of `requestContext.time`. */
function accessLogTime(epochMs: number): string {
  const date = new Date(epochMs);
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}
