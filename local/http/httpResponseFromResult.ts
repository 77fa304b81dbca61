import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** An HTTP answer ready to be written. */
export interface LocalHttpResponse {
  statusCode: number;
  /** Lower-case names; `set-cookie` may hold several values. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const JSON_CONTENT_TYPE = 'application/json';

/**
 * What API Gateway answers for a function's result (payload format 2.0): a structured
 * result as given (headers, cookies as `set-cookie`, a base64 body decoded); anything
 * else, such as a bare object or string, as a 200 JSON answer.
 */
export function httpResponseFromResult(result: unknown): LocalHttpResponse {
  if (!isStructuredResult(result)) {
    const body = typeof result === 'string' ? result : (JSON.stringify(result) ?? '');
    return {
      statusCode: 200,
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: Buffer.from(body, 'utf8'),
    };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {}))
    headers[name.toLowerCase()] = String(value);
  if (result.cookies !== undefined && result.cookies.length > 0) headers['set-cookie'] = [...result.cookies];
  const body = result.body ?? '';
  return {
    statusCode: result.statusCode,
    headers,
    body: result.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'),
  };
}

/**
 * An answer as the bytes of an HTTP/1.1 response that closes its connection, for a socket with
 * no request object to answer through (a request Node could not parse).
 */
export function rawHttpResponse(answer: LocalHttpResponse): Buffer {
  const headers = Object.entries({
    ...answer.headers,
    'content-length': String(answer.body.length),
    connection: 'close',
  }).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${one}\r\n`));
  const statusLine = `HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode] ?? ''}\r\n`;
  return Buffer.concat([Buffer.from(`${statusLine}${headers.join('')}\r\n`, 'latin1'), answer.body]);
}

/** Writes an answer with its exact length. */
export function writeHttpResponse(response: ServerResponse, answer: LocalHttpResponse): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(answer.statusCode, { ...answer.headers, 'content-length': String(answer.body.length) });
  response.end(answer.body);
}

function isStructuredResult(
  result: unknown,
): result is APIGatewayProxyStructuredResultV2 & { statusCode: number } {
  return (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { statusCode?: unknown }).statusCode === 'number'
  );
}
