import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpstreamRateLimitedError, UpstreamUnavailableError } from '../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../lib/exports/upstream/UpstreamExports';
import { OpenWebOperation } from '../../../../lib/openweb/OpenWebOperation';
import {
  AUTH_ROUTE,
  fetchFailure,
  hangingReply,
  LIST_ROUTE,
  STATUS_ROUTE,
  TEST_API_KEY,
  TEST_SPOT,
} from './support/fakeUpstream';
import { createTestClient, rejectionOf } from './support/testClient';

const processing = { status: 200, json: { id: 'exp_1', status: 'Processing' } };

describe('OpenWebClient retries', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('honours Retry-After: 2 on a 429 before calling again', async () => {
    // Prepare
    vi.useFakeTimers();
    const { client, upstream } = createTestClient({
      realTime: true,
      routes: { [STATUS_ROUTE]: [{ status: 429, headers: { 'retry-after': '2' } }, processing] },
    });

    // Act
    const pending = client.getExportStatus(TEST_SPOT, 'exp_1');
    await vi.advanceTimersByTimeAsync(1_999);
    const callsBeforeTwoSeconds = upstream.requestsTo(STATUS_ROUTE).length;
    await vi.advanceTimersByTimeAsync(1);
    const report = await pending;

    // Assess
    expect(callsBeforeTwoSeconds).toBe(1);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(2);
    expect(report.status).toBe(UpstreamExportStatus.PROCESSING);
  });

  it('honours an HTTP-date Retry-After', async () => {
    // Prepare
    const { client, clock } = createTestClient({
      routes: {
        [STATUS_ROUTE]: [
          {
            status: 503,
            headers: { 'retry-after': new Date(Date.parse('2026-03-01T00:00:03Z')).toUTCString() },
          },
          processing,
        ],
      },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(clock.sleeps).toEqual([3_000]);
  });

  it('uses Retry-After even above maxDelayMs when it fits the budget', async () => {
    // Prepare
    const { client, clock } = createTestClient({
      routes: { [STATUS_ROUTE]: [{ status: 429, headers: { 'retry-after': '8' } }, processing] },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(clock.sleeps).toEqual([8_000]);
  });

  it('backs off with full jitter when there is no Retry-After', async () => {
    // Prepare
    const { client, clock } = createTestClient({
      routes: {
        [STATUS_ROUTE]: [{ status: 429 }, { status: 502 }, { error: fetchFailure('ECONNRESET') }, processing],
      },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess: random() = 0.5 of caps 200, 400, 800
    expect(clock.sleeps).toEqual([100, 200, 400]);
  });

  it('stops after maxAttempts with UpstreamUnavailableError carrying the last status', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 503 } } });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ statusCode: 503 });
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(4);
  });

  it('stops after maxAttempts with UpstreamRateLimitedError carrying the last Retry-After', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      options: { retry: { maxAttempts: 3 } },
      routes: { [LIST_ROUTE]: { status: 429, headers: { 'retry-after': '1' } } },
    });

    // Act
    const error = await rejectionOf(client.listExports(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 1_000, statusCode: 429 });
    expect(upstream.requestsTo(LIST_ROUTE)).toHaveLength(3);
  });

  it('does not wait for a Retry-After that would end beyond the total budget', async () => {
    // Prepare
    const { client, upstream, clock } = createTestClient({
      routes: { [STATUS_ROUTE]: [{ status: 429, headers: { 'retry-after': '30' } }, processing] },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 30_000 });
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('stops retrying once the total budget is spent', async () => {
    // Prepare
    const { client, upstream, clock } = createTestClient({
      options: {
        random: () => 0.999,
        retry: { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 1_000, totalBudgetMs: 2_500 },
      },
      routes: { [STATUS_ROUTE]: { status: 500 } },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(clock.sleeps).toEqual([999, 999]);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(3);
  });

  it('counts slow answers against the total budget', async () => {
    // Prepare
    const { client, upstream, clock } = createTestClient({
      options: { retry: { totalBudgetMs: 5_000 } },
      routes: {
        [STATUS_ROUTE]: () => {
          clock.advance(4_950);
          return new Response(null, { status: 503 });
        },
      },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(1);
  });

  it('retries network failures of idempotent calls', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: {
        [STATUS_ROUTE]: [
          { error: fetchFailure('ECONNRESET') },
          { error: fetchFailure('ECONNREFUSED') },
          processing,
        ],
      },
    });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(report.exportId).toBe('exp_1');
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(3);
  });

  it('gives up on network failures with UpstreamUnavailableError carrying the cause', async () => {
    // Prepare
    const failure = fetchFailure('ECONNRESET');
    const { client } = createTestClient({
      options: { retry: { maxAttempts: 2 } },
      routes: { [STATUS_ROUTE]: { error: failure } },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.cause).toBe(failure);
    expect(error.message).toContain('ECONNRESET');
    expect((error as UpstreamUnavailableError).statusCode).toBeUndefined();
  });

  it('times out an attempt that gets no answer and retries it', async () => {
    // Prepare
    const { client, upstream, events } = createTestClient({
      options: { requestTimeoutMs: 20, retry: { maxAttempts: 2 } },
      routes: { [STATUS_ROUTE]: [hangingReply, processing] },
    });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(report.status).toBe(UpstreamExportStatus.PROCESSING);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(2);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'request', failure: 'TIMEOUT', attempt: 1 }),
    );
  });

  it('reports UpstreamUnavailableError naming the timeout when every attempt times out', async () => {
    // Prepare
    const { client } = createTestClient({
      options: { requestTimeoutMs: 20, retry: { maxAttempts: 2 } },
      routes: { [STATUS_ROUTE]: hangingReply },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.message).toContain('20 ms');
  });

  it('retries the auth call on 429 and 5xx', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: {
        [AUTH_ROUTE]: [
          { status: 429, headers: { 'retry-after': '1' } },
          { status: 503 },
          { status: 200, json: { token: 'opaque-token' } },
        ],
        [STATUS_ROUTE]: processing,
      },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(3);
    expect(upstream.requestsTo(STATUS_ROUTE)[0]?.headers.authorization).toBe('Bearer opaque-token');
  });

  it('reports requests and retries without tokens or keys', async () => {
    // Prepare
    const { client, upstream, events } = createTestClient({
      routes: { [STATUS_ROUTE]: [{ status: 503, headers: { 'retry-after': '1' } }, processing] },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(events).toEqual([
      expect.objectContaining({
        type: 'request',
        operation: OpenWebOperation.AUTHENTICATE,
        status: 200,
        attempt: 1,
      }),
      expect.objectContaining({ type: 'authenticated', spotId: TEST_SPOT }),
      expect.objectContaining({
        type: 'request',
        operation: OpenWebOperation.GET_EXPORT_STATUS,
        status: 503,
        attempt: 1,
      }),
      {
        type: 'retry',
        operation: OpenWebOperation.GET_EXPORT_STATUS,
        spotId: TEST_SPOT,
        attempt: 2,
        delayMs: 1_000,
        reason: 'HTTP 503',
      },
      expect.objectContaining({
        type: 'request',
        operation: OpenWebOperation.GET_EXPORT_STATUS,
        status: 200,
        attempt: 2,
      }),
    ]);
    const serialised = JSON.stringify(events);
    expect(serialised).not.toContain(upstream.issuedTokens[0]);
    expect(serialised).not.toContain(TEST_API_KEY);
  });

  it('keeps working when the event observer throws', async () => {
    // Prepare
    const { client } = createTestClient({
      options: {
        onEvent: () => {
          throw new Error('observer broke');
        },
      },
      routes: { [STATUS_ROUTE]: processing },
    });

    // Act / Assess
    await expect(client.getExportStatus(TEST_SPOT, 'exp_1')).resolves.toMatchObject({ exportId: 'exp_1' });
  });
});
