import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType } from '../errors/problems';
import { isApiGatewayEvent } from './apiGatewayEvent';
import { ProblemError } from './ProblemError';

/**
 * Every request body we accept is a small JSON object; anything bigger is refused before it is
 * decoded, by the handlers and by the local runtime's HTTP server alike.
 */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024;
/** API Gateway's own limit on a request's headers; the local runtime has none, so it is checked here too. */
export const MAX_REQUEST_HEADERS_BYTES = 10 * 1024;

const defaults = {
  maxBodyBytes: MAX_REQUEST_BODY_BYTES,
  maxHeadersBytes: MAX_REQUEST_HEADERS_BYTES,
};

export type ApiRequestLimitsOptions = Partial<typeof defaults>;

// ": " between name and value, CRLF after each header line.
const HEADER_LINE_OVERHEAD_BYTES = 4;

/** Refuses oversized API requests: 431 for headers, 413 for the body. Other event sources pass through. */
export function apiRequestLimits(options: ApiRequestLimitsOptions = {}): MiddlewareObj {
  const { maxBodyBytes, maxHeadersBytes } = { ...defaults, ...options };

  function enforceApiRequestLimits(request: Request): void {
    const { event } = request;
    if (!isApiGatewayEvent(event)) return;
    if (headersBytes(event) > maxHeadersBytes)
      throw new ProblemError({ type: ProblemType.REQUEST_HEADERS_TOO_LARGE, maxHeadersBytes });
    if (bodyBytes(event) > maxBodyBytes)
      throw new ProblemError({ type: ProblemType.PAYLOAD_TOO_LARGE, maxBodyBytes });
  }

  return { before: enforceApiRequestLimits };
}

function headersBytes(event: APIGatewayProxyEventV2): number {
  let total = 0;
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    total += Buffer.byteLength(name) + Buffer.byteLength(value ?? '') + HEADER_LINE_OVERHEAD_BYTES;
  }
  for (const cookie of event.cookies ?? []) total += Buffer.byteLength(cookie) + HEADER_LINE_OVERHEAD_BYTES;
  return total;
}

/** The body's decoded size, computed without decoding it. */
function bodyBytes(event: APIGatewayProxyEventV2): number {
  const body = event.body ?? '';
  if (!event.isBase64Encoded) return Buffer.byteLength(body);
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  return Math.floor((body.length * 3) / 4) - padding;
}
