import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProblemType } from '../errors/problems';
import { headerValue } from './apiGatewayEvent';
import { invalidRequest } from './invalidRequest';
import { ProblemError } from './ProblemError';

const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;
const UTF_8_CHARSETS = new Set(['utf-8', 'utf8']);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body, or undefined when there is none. The body must be declared JSON
 * (415 otherwise), may arrive base64-encoded, and must be UTF-8 JSON (400 otherwise).
 * Parser messages are not passed on: they quote the input.
 */
export function readJsonBody(event: APIGatewayProxyEventV2): unknown {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  assertJsonContent(event);
  let text = raw;
  if (event.isBase64Encoded) {
    if (!BASE64.test(raw)) throw invalidRequest([{ field: 'body', message: 'is not valid base64' }]);
    try {
      text = strictUtf8.decode(Buffer.from(raw, 'base64'));
    } catch {
      throw invalidRequest([{ field: 'body', message: 'is not valid UTF-8' }]);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest([{ field: 'body', message: 'is not valid JSON' }]);
  }
}

function assertJsonContent(event: APIGatewayProxyEventV2): void {
  const contentEncoding = headerValue(event, 'content-encoding')?.trim().toLowerCase();
  const [mediaType = '', ...parameters] = (headerValue(event, 'content-type') ?? '').split(';');
  const charset = parameters
    .map((parameter) => parameter.split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1];
  const acceptable =
    JSON_MEDIA_TYPE.test(mediaType.trim().toLowerCase()) &&
    (charset === undefined || UTF_8_CHARSETS.has(charset.trim().replace(/^"|"$/g, '').toLowerCase())) &&
    (contentEncoding === undefined || contentEncoding === 'identity');
  if (!acceptable) {
    throw new ProblemError({ type: ProblemType.UNSUPPORTED_MEDIA_TYPE });
  }
}
