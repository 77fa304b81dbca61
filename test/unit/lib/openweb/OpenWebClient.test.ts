import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../../lib/config';
import { UpstreamRateLimitedError, UpstreamUnavailableError } from '../../../../lib/exports/upstream/errors';
import { OpenWebClient } from '../../../../lib/openweb/OpenWebClient';
import {
  BASE_URL,
  createFakeUpstream,
  FakeCredentials,
  hangingReply,
  type Routes,
  STATUS_ROUTE,
  TEST_SPOT,
  VirtualClock,
} from './support/fakeUpstream';
import { rejectionOf } from './support/testClient';

/** A client given no timeout, retry or concurrency options, on a virtual clock. */
function clientWithDefaults(routes: Routes, clock?: VirtualClock) {
  const upstream = createFakeUpstream(routes, clock?.now ?? Date.now);
  const client = new OpenWebClient({
    authBaseUrl: BASE_URL,
    exportBaseUrl: BASE_URL,
    credentials: new FakeCredentials(),
    fetch: upstream.fetch,
    random: () => 0.5,
    ...(clock !== undefined && { now: clock.now, sleep: clock.sleep }),
  });
  return { client, upstream };
}

describe('OpenWebClient defaults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives up within the retry budget the functions are configured with by default', async () => {
    // Prepare: a Retry-After longer than the default budget of the functions' configuration.
    const { retryBudgetMs } = loadConfig({}).openWeb;
    const clock = new VirtualClock();
    const retryAfterSeconds = Math.floor(retryBudgetMs / 1000) + 1;
    const { client, upstream } = clientWithDefaults(
      {
        [STATUS_ROUTE]: [
          { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
          { status: 200, json: { id: 'exp_1', status: 'Processing' } },
        ],
      },
      clock,
    );

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(clock.sleeps).toEqual([]);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(1);
  });

  it('times a request out after the request timeout the functions are configured with by default', async () => {
    // Prepare
    vi.useFakeTimers();
    const { requestTimeoutMs } = loadConfig({}).openWeb;
    const { client } = clientWithDefaults({ [STATUS_ROUTE]: hangingReply });
    let settled = false;

    // Act
    const pending = rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1')).finally(() => {
      settled = true;
    });
    // Every attempt times out, and the retries' backoff stays within the budget.
    await vi.advanceTimersByTimeAsync(requestTimeoutMs - 1);
    const settledBeforeTimeout = settled;
    await vi.advanceTimersByTimeAsync(loadConfig({}).openWeb.maxAttempts * requestTimeoutMs);
    const error = await pending;

    // Assess
    expect(settledBeforeTimeout).toBe(false);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.message).toContain(`${requestTimeoutMs} ms`);
  });
});
