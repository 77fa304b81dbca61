import { setTimeout as sleep } from 'node:timers/promises';

const DEFAULT_POLL_INTERVAL_MS = 200;

export interface JsonResponse {
  status: number;
  headers: Headers;
  // Parsed JSON; each test reads the shape it expects.
  body: unknown;
}

/** A JSON request to the local API. */
export async function requestJson(
  url: string,
  init: { method?: string; spotId?: string; body?: unknown } = {},
): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.spotId !== undefined && { 'x-spot-id': init.spotId }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
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
