import { setTimeout as sleep } from 'node:timers/promises';
import {
  LOCAL_ROUTE_PREFIX,
  LOCAL_TOP_LEVEL_PATHS,
  OPENAPI_DOCUMENT_PATH,
} from '../../../../local/http/LocalHttpApi';
import { OpenApiResponseValidator } from '../../../support/openApiResponses';

const DEFAULT_POLL_INTERVAL_MS = 200;

export interface JsonResponse {
  status: number;
  headers: Headers;
  // Parsed JSON; each test reads the shape it expects.
  body: unknown;
}

const openApi = OpenApiResponseValidator.committed();

/**
 * A JSON request to the local API. Every answer of the API is held to the OpenAPI document
 * (status, headers, body); the runtime's own routes (`/_local/…`, `/openapi.json`, `/`, `/health`) are not part
 * of the API, and a request the document has no operation for must say so with `outsideApi`.
 */
export async function requestJson(
  url: string,
  init: { method?: string; spotId?: string; body?: unknown; outsideApi?: boolean } = {},
): Promise<JsonResponse> {
  const method = init.method ?? 'GET';
  const { pathname } = new URL(url);
  const localOnly =
    pathname.startsWith(LOCAL_ROUTE_PREFIX) ||
    pathname === OPENAPI_DOCUMENT_PATH ||
    LOCAL_TOP_LEVEL_PATHS.includes(pathname);
  if (init.outsideApi === true && openApi.documents(method, pathname)) {
    throw new Error(`${method} ${pathname} is an operation of the OpenAPI document`);
  }
  const response = await fetch(url, {
    method,
    headers: {
      ...(init.spotId !== undefined && { 'x-spot-id': init.spotId }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const received: JsonResponse = {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
  if (!localOnly && init.outsideApi !== true) {
    openApi.assertDocumented(method, pathname, {
      status: received.status,
      headers: Object.fromEntries(received.headers),
      body: received.body,
    });
  }
  return received;
}

/** Polls `probe` until it returns a value, at most `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  intervalMs = DEFAULT_POLL_INTERVAL_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
