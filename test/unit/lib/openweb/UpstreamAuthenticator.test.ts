import { describe, expect, it } from 'vitest';
import {
  AuthRejectedError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
} from '../../../../lib/exports/upstream/errors';
import { HttpTransport } from '../../../../lib/openweb/HttpTransport';
import type { OpenWebClientEvent } from '../../../../lib/openweb/OpenWebClientEvent';
import { RetryLoop } from '../../../../lib/openweb/RetryLoop';
import { resolveRetryPolicy } from '../../../../lib/openweb/retryPolicy';
import {
  AUTH_RATE_LIMIT_MIN_WAIT_MS,
  UpstreamAuthenticator,
} from '../../../../lib/openweb/UpstreamAuthenticator';
import { UpstreamGovernor } from '../../../../lib/openweb/UpstreamGovernor';
import { captureError } from '../../../support/captureError';
import { InMemoryAuthPacer } from '../../../support/InMemoryAuthPacer';
import {
  AUTH_ROUTE,
  BASE_URL,
  createFakeUpstream,
  FakeCredentials,
  jwtExpiringAt,
  type Routes,
  TEST_API_KEY,
  TEST_SPOT,
  VirtualClock,
} from './support/fakeUpstream';

const HOUR_MS = 60 * 60 * 1000;
const ROTATED_KEY = 'rotated-api-key';

/** An authenticator over the fake upstream, with the client's own transport and retries. */
function setUp(routes: Routes, options: { keys?: string[]; pacer?: boolean; maxAttempts?: number } = {}) {
  const clock = new VirtualClock();
  const upstream = createFakeUpstream(routes, clock.now);
  const credentials = new FakeCredentials(options.keys);
  const events: OpenWebClientEvent[] = [];
  const emit = (event: OpenWebClientEvent) => events.push(event);
  const authPacer =
    options.pacer === true
      ? new InMemoryAuthPacer({ requestsPerSecond: 1, now: clock.now, sleep: clock.sleep })
      : undefined;
  const authenticator = new UpstreamAuthenticator({
    authBaseUrl: BASE_URL,
    credentials,
    authPacer,
    transport: new HttpTransport({
      fetch: upstream.fetch,
      requestTimeoutMs: 1_000,
      governor: new UpstreamGovernor({
        maxConcurrentRequests: 1,
        maxRequestsPerSecond: undefined,
        now: clock.now,
        sleep: clock.sleep,
      }),
      now: clock.now,
      emit,
    }),
    retries: new RetryLoop({
      policy: resolveRetryPolicy({ maxAttempts: options.maxAttempts ?? 3, totalBudgetMs: 60_000 }),
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
      emit,
    }),
    requestTimeoutMs: 1_000,
    now: clock.now,
    emit,
  });
  return { authenticator, upstream, credentials, events, clock, authPacer };
}

describe('UpstreamAuthenticator', () => {
  it("signs in with the spot's key and returns the token with the expiry it carries", async () => {
    // Prepare
    const clock = new VirtualClock();
    const token = jwtExpiringAt(clock.now() + HOUR_MS);
    const { authenticator, upstream, events } = setUp({ [AUTH_ROUTE]: { status: 200, json: { token } } });

    // Act
    const issued = await authenticator.authenticate(TEST_SPOT);

    // Assess
    expect(issued.token).toBe(token);
    expect(Math.abs(issued.expiresAt - (clock.now() + HOUR_MS))).toBeLessThan(1_000);
    expect(upstream.requestsTo(AUTH_ROUTE).map((request) => request.body)).toEqual([
      { spot_id: TEST_SPOT, apikey: TEST_API_KEY },
    ]);
    expect(events).toContainEqual({ type: 'authenticated', spotId: TEST_SPOT, expiresAt: issued.expiresAt });
  });

  it('re-reads a refused key past the cache and sends the rotated one at once', async () => {
    // Prepare: the first key is refused, the rotated one accepted
    const { authenticator, upstream, credentials, events } = setUp(
      {
        [AUTH_ROUTE]: [
          { status: 401, json: { message: 'bad key' } },
          { status: 200, json: { token: 't' } },
        ],
      },
      { keys: [TEST_API_KEY, ROTATED_KEY] },
    );

    // Act
    const issued = await authenticator.authenticate(TEST_SPOT);

    // Assess
    expect(issued.token).toBe('t');
    expect(credentials.calls.map((call) => call.options?.forceRefresh ?? false)).toEqual([false, true]);
    expect(
      upstream.requestsTo(AUTH_ROUTE).map((request) => (request.body as { apikey: string }).apikey),
    ).toEqual([TEST_API_KEY, ROTATED_KEY]);
    expect(events).toContainEqual({ type: 'credentialsRefreshed', spotId: TEST_SPOT });
  });

  it('gives up with AuthRejectedError when the re-read key is refused too, re-reading only once', async () => {
    // Prepare
    const { authenticator, upstream, credentials } = setUp(
      { [AUTH_ROUTE]: { status: 403, json: {} } },
      { keys: [TEST_API_KEY, ROTATED_KEY] },
    );

    // Act
    const error = await captureError(authenticator.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(AuthRejectedError);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    expect(credentials.calls.filter((call) => call.options?.forceRefresh)).toHaveLength(1);
  });

  it('retries a 429 no sooner than the pacing interval, and holds the pacer until then', async () => {
    // Prepare: a 429 without Retry-After, then a token
    const { authenticator, clock } = setUp(
      { [AUTH_ROUTE]: [{ status: 429 }, { status: 200, json: { token: 't' } }] },
      { pacer: true },
    );
    const startedAt = clock.now();

    // Act
    const issued = await authenticator.authenticate(TEST_SPOT);

    // Assess
    expect(issued.token).toBe('t');
    expect(clock.now() - startedAt).toBeGreaterThanOrEqual(AUTH_RATE_LIMIT_MIN_WAIT_MS);
  });

  it('throws UpstreamRateLimitedError with the wait once 429s use up the attempts', async () => {
    // Prepare
    const { authenticator } = setUp(
      { [AUTH_ROUTE]: { status: 429, headers: { 'retry-after': '3' } } },
      { maxAttempts: 2 },
    );

    // Act
    const error = await captureError(authenticator.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect((error as UpstreamRateLimitedError).retryAfterMs).toBe(3_000);
  });

  it('refuses another 4xx without retrying and without quoting the body', async () => {
    // Prepare: the body echoes the key
    const { authenticator, upstream } = setUp({
      [AUTH_ROUTE]: { status: 422, json: { message: `bad apikey ${TEST_API_KEY}` } },
    });

    // Act
    const error = await captureError(authenticator.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRequestRejectedError);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(1);
    expect(JSON.stringify({ message: (error as Error).message, ...(error as object) })).not.toContain(
      TEST_API_KEY,
    );
  });

  it('reads a success without a token as a protocol error', async () => {
    // Prepare
    const { authenticator } = setUp({ [AUTH_ROUTE]: { status: 200, json: { access: 'none' } } });

    // Act
    const error = await captureError(authenticator.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamProtocolError);
  });
});
