import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpRequest, HttpTransport } from '../../../../lib/openweb/HttpTransport';
import type { OpenWebClientEvent } from '../../../../lib/openweb/OpenWebClientEvent';
import { OpenWebOperation } from '../../../../lib/openweb/OpenWebOperation';
import { RequestDelivery } from '../../../../lib/openweb/transportFailure';
import { UpstreamGovernor } from '../../../../lib/openweb/UpstreamGovernor';

const NOW_MS = Date.parse('2026-11-28T10:00:00Z');
const REQUEST_TIMEOUT_MS = 2_000;

const REQUEST: HttpRequest = {
  operation: OpenWebOperation.GET_EXPORT_STATUS,
  spotId: 'sp_test',
  attempt: 2,
  method: 'POST',
  url: 'https://api-exporter.openweb.test/v4/exports/status',
  headers: { authorization: 'Bearer token-1', 'content-type': 'application/json' },
  body: '{"id":"up-1"}',
};

/** A transport around `fetch`, with a governor of one place and the events it reports. */
function transportWith(fetch: typeof globalThis.fetch, options: { maxConcurrentRequests?: number } = {}) {
  const events: OpenWebClientEvent[] = [];
  let nowMs = NOW_MS;
  const governor = new UpstreamGovernor({
    maxConcurrentRequests: options.maxConcurrentRequests ?? 1,
    maxRequestsPerSecond: undefined,
    now: () => nowMs,
    sleep: async () => {},
  });
  const transport = new HttpTransport({
    fetch,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    governor,
    now: () => nowMs,
    emit: (event) => events.push(event),
  });
  return {
    transport,
    events,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe('HttpTransport', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the request as given and answers with its status, body and Retry-After', async () => {
    // Prepare
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response('{"status":"processing"}', { status: 429, headers: { 'retry-after': '7' } }),
    );
    const { transport, events } = transportWith(fetch);

    // Act
    const exchange = await transport.exchange(REQUEST);

    // Assess
    expect(exchange).toEqual({
      kind: 'reply',
      reply: { statusCode: 429, bodyText: '{"status":"processing"}', retryAfterMs: 7_000 },
    });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(REQUEST.url);
    expect(init).toMatchObject({ method: 'POST', headers: REQUEST.headers, body: REQUEST.body });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(events).toEqual([
      {
        type: 'request',
        operation: 'getExportStatus',
        spotId: 'sp_test',
        attempt: 2,
        status: 429,
        durationMs: 0,
      },
    ]);
  });

  it('returns a refused connection as a failure not sent, never throwing', async () => {
    // Prepare
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const { transport, events } = transportWith(async () => {
      throw refused;
    });

    // Act
    const exchange = await transport.exchange(REQUEST);

    // Assess
    expect(exchange).toEqual({
      kind: 'failure',
      failure: { delivery: RequestDelivery.NOT_SENT, code: 'ECONNREFUSED', cause: refused },
    });
    expect(events).toEqual([
      expect.objectContaining({ type: 'request', status: undefined, failure: 'ECONNREFUSED' }),
    ]);
  });

  it('returns a reset after sending as a failure that may have been sent', async () => {
    // Prepare
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    });
    const { transport } = transportWith(async () => {
      throw reset;
    });

    // Act
    const exchange = await transport.exchange(REQUEST);

    // Assess
    expect(exchange).toMatchObject({
      kind: 'failure',
      failure: { delivery: RequestDelivery.MAYBE_SENT, code: 'ECONNRESET' },
    });
  });

  it('aborts a request that outlives its timeout and returns it as a timeout that may have been sent', async () => {
    // Prepare: the upstream never answers until the request is aborted
    vi.useFakeTimers();
    const fetch = vi.fn<typeof globalThis.fetch>(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const { transport, events } = transportWith(fetch);

    // Act
    const pending = transport.exchange(REQUEST);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    const abortedEarly = fetch.mock.calls[0]?.[1]?.signal?.aborted;
    await vi.advanceTimersByTimeAsync(1);
    const exchange = await pending;

    // Assess
    expect(abortedEarly).toBe(false);
    expect(exchange).toMatchObject({
      kind: 'failure',
      failure: { delivery: RequestDelivery.MAYBE_SENT, code: 'TIMEOUT' },
    });
    expect(events).toEqual([expect.objectContaining({ failure: 'TIMEOUT' })]);
  });

  it('reports how long a request waited for the governor, and times only what follows', async () => {
    // Prepare: one place; the first request holds it until released
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { transport, events, advance } = transportWith(async (url) => {
      if (String(url).endsWith('first')) await held;
      return new Response('ok', { status: 200 });
    });

    // Act: the second waits 1.5 s for the first's place
    const first = transport.exchange({ ...REQUEST, url: `${REQUEST.url}?first` });
    const second = transport.exchange(REQUEST);
    await new Promise((resolve) => setImmediate(resolve));
    advance(1_500);
    release();
    await Promise.all([first, second]);

    // Assess
    const requests = events.flatMap((event) => (event.type === 'request' ? [event] : []));
    expect(requests.map(({ queuedMs, durationMs }) => ({ queuedMs, durationMs }))).toEqual([
      { queuedMs: undefined, durationMs: 1_500 },
      { queuedMs: 1_500, durationMs: 0 },
    ]);
  });
});
