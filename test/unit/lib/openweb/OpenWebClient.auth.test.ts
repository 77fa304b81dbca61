import { describe, expect, it } from 'vitest';
import {
  AuthRejectedError,
  UpstreamProtocolError,
  UpstreamRequestRejectedError,
} from '../../../../lib/exports/upstream/errors';
import { InMemoryTokenStore } from '../../../../lib/openweb/InMemoryTokenStore';
import { OpenWebClient } from '../../../../lib/openweb/OpenWebClient';
import {
  AUTH_ROUTE,
  BASE_URL,
  CREATE_ROUTE,
  createFakeUpstream,
  FakeCredentials,
  jwtExpiringAt,
  STATUS_ROUTE,
  TEST_API_KEY,
  TEST_SPOT,
  VirtualClock,
} from './support/fakeUpstream';
import { createTestClient, rejectionOf } from './support/testClient';

const processing = { status: 200, json: { id: 'exp_1', status: 'Processing' } };
const HOUR_MS = 60 * 60 * 1000;

describe('OpenWebClient authentication', () => {
  it('reuses one token across calls', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: processing } });

    // Act
    for (let call = 0; call < 5; call++) await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(1);
  });

  it('shares one auth call among concurrent callers with a cold cache', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: processing } });

    // Act
    await Promise.all(Array.from({ length: 30 }, () => client.getExportStatus(TEST_SPOT, 'exp_1')));

    // Assess
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(1);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(30);
  });

  it('authenticates again once the token is within the refresh margin of its exp', async () => {
    // Prepare
    const { client, upstream, clock } = createTestClient({
      options: { tokenRefreshMarginMs: 60_000 },
      routes: {
        [AUTH_ROUTE]: [
          { status: 200, json: { token: jwtExpiringAt(Date.parse('2026-03-01T01:00:00Z'), 'first') } },
          { status: 200, json: { token: jwtExpiringAt(Date.parse('2026-03-01T02:00:00Z'), 'second') } },
        ],
        [STATUS_ROUTE]: processing,
      },
    });
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Act
    clock.advance(HOUR_MS - 60_001);
    await client.getExportStatus(TEST_SPOT, 'exp_1');
    const authsBeforeMargin = upstream.requestsTo(AUTH_ROUTE).length;
    clock.advance(1);
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(authsBeforeMargin).toBe(1);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    const tokensUsed = upstream.requestsTo(STATUS_ROUTE).map((request) => request.headers.authorization);
    expect(new Set(tokensUsed).size).toBe(2);
  });

  it('uses a token another process stored instead of authenticating', async () => {
    // Prepare
    const clock = new VirtualClock();
    const tokenStore = new InMemoryTokenStore({ now: clock.now });
    await tokenStore.put(TEST_SPOT, { token: 'shared-token', expiresAt: clock.now() + HOUR_MS });
    const upstream = createFakeUpstream({ [STATUS_ROUTE]: processing });
    const client = new OpenWebClient({
      authBaseUrl: BASE_URL,
      exportBaseUrl: BASE_URL,
      credentials: new FakeCredentials(),
      tokenStore,
      fetch: upstream.fetch,
      now: clock.now,
      sleep: clock.sleep,
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(0);
    expect(upstream.requestsTo(STATUS_ROUTE)[0]?.headers.authorization).toBe('Bearer shared-token');
  });

  it('re-authenticates once and resends once after a 401', async () => {
    // Prepare
    const { client, upstream, events } = createTestClient({
      routes: { [STATUS_ROUTE]: [{ status: 401 }, processing] },
    });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(report.exportId).toBe('exp_1');
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    const [first, second] = upstream.requestsTo(STATUS_ROUTE);
    expect(first?.headers.authorization).toBe(`Bearer ${upstream.issuedTokens[0]}`);
    expect(second?.headers.authorization).toBe(`Bearer ${upstream.issuedTokens[1]}`);
    expect(events).toContainEqual({ type: 'tokenRejected', spotId: TEST_SPOT, operation: 'getExportStatus' });
  });

  it('fails with AuthRejectedError on a second 401', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 401 } } });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(AuthRejectedError);
    expect(error).toMatchObject({ spotId: TEST_SPOT, statusCode: 401 });
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(2);
  });

  it('re-authenticates at most once per call: a 401 on a later attempt is AuthRejectedError', async () => {
    // Prepare
    const { client, upstream, events } = createTestClient({
      routes: { [STATUS_ROUTE]: [{ status: 401 }, { status: 503 }, { status: 401 }, processing] },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(AuthRejectedError);
    expect(error).toMatchObject({ spotId: TEST_SPOT, statusCode: 401 });
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(3);
    expect(events.filter((event) => event.type === 'tokenRejected')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'request').map((event) => event.attempt)).toEqual([
      1, 1, 1, 1, 2,
    ]);
  });

  it('re-reads a refused key at most once per call: refused on a later attempt is AuthRejectedError', async () => {
    // Prepare
    const credentials = new FakeCredentials(['old-key', 'rotated-key']);
    const { client, upstream } = createTestClient({
      credentials,
      routes: { [AUTH_ROUTE]: [{ status: 401 }, { status: 503 }, { status: 403 }, { status: 200 }] },
    });

    // Act
    const error = await rejectionOf(client.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(AuthRejectedError);
    expect(error).toMatchObject({ spotId: TEST_SPOT, statusCode: 403 });
    expect(credentials.calls.filter((call) => call.options?.forceRefresh)).toHaveLength(1);
    expect(
      upstream.requestsTo(AUTH_ROUTE).map((request) => (request.body as { apikey: string }).apikey),
    ).toEqual(['old-key', 'rotated-key', 'rotated-key']);
  });

  it('resends a create after a 401, since a rejected request was not processed', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: { [CREATE_ROUTE]: [{ status: 401 }, { status: 200, json: { id: 'exp_2' } }] },
    });

    // Act
    const created = await client.createExport(TEST_SPOT, { conversationId: 'c' });

    // Assess
    expect(created.exportId).toBe('exp_2');
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(2);
  });

  it.each([401, 403, 400])(
    're-reads the credentials bypassing their cache once after auth %i',
    async (status) => {
      // Prepare
      const credentials = new FakeCredentials(['old-key', 'rotated-key']);
      const { client, upstream, events } = createTestClient({
        credentials,
        routes: {
          [AUTH_ROUTE]: [{ status }, { status: 200, json: { token: 'fresh' } }],
          [STATUS_ROUTE]: processing,
        },
      });

      // Act
      await client.getExportStatus(TEST_SPOT, 'exp_1');

      // Assess
      expect(credentials.calls).toEqual([
        { spotId: TEST_SPOT, options: undefined },
        { spotId: TEST_SPOT, options: { forceRefresh: true } },
      ]);
      expect(
        upstream.requestsTo(AUTH_ROUTE).map((request) => (request.body as { apikey: string }).apikey),
      ).toEqual(['old-key', 'rotated-key']);
      expect(events).toContainEqual({ type: 'credentialsRefreshed', spotId: TEST_SPOT });
    },
  );

  it('fails with AuthRejectedError when the refreshed key is rejected too, without leaking it', async () => {
    // Prepare
    const credentials = new FakeCredentials();
    const { client, upstream } = createTestClient({
      credentials,
      routes: { [AUTH_ROUTE]: { status: 401, json: { message: `bad key ${TEST_API_KEY}` } } },
    });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

    // Assess
    expect(error).toBeInstanceOf(AuthRejectedError);
    expect(error).toMatchObject({ spotId: TEST_SPOT, statusCode: 401 });
    expect(error.message).not.toContain(TEST_API_KEY);
    expect(credentials.calls.filter((call) => call.options?.forceRefresh)).toHaveLength(1);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(2);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(0);
  });

  it('turns another auth 4xx into UpstreamRequestRejectedError without the body', async () => {
    // Prepare
    const { client } = createTestClient({
      routes: { [AUTH_ROUTE]: { status: 404, json: { message: 'secret' } } },
    });

    // Act
    const error = await rejectionOf(client.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRequestRejectedError);
    expect(error).toMatchObject({ statusCode: 404, upstreamMessage: undefined });
  });

  it('turns an unexpected auth status into UpstreamProtocolError', async () => {
    // Prepare
    const { client } = createTestClient({ routes: { [AUTH_ROUTE]: { status: 302 } } });

    // Act / Assess
    await expect(client.authenticate(TEST_SPOT)).rejects.toBeInstanceOf(UpstreamProtocolError);
  });

  it('turns an auth 200 without a token into UpstreamProtocolError without the body', async () => {
    // Prepare
    const { client } = createTestClient({
      routes: { [AUTH_ROUTE]: { status: 200, text: 'jwt=abc.def.ghi' } },
    });

    // Act
    const error = await rejectionOf(client.authenticate(TEST_SPOT));

    // Assess
    expect(error).toBeInstanceOf(UpstreamProtocolError);
    expect(error).toMatchObject({ bodySnippet: '' });
  });

  it('returns the token with its expiry from the JWT on a direct authenticate', async () => {
    // Prepare
    const expiresAt = Date.parse('2026-03-01T05:00:00Z');
    const token = jwtExpiringAt(expiresAt);
    const { client } = createTestClient({ routes: { [AUTH_ROUTE]: { status: 200, json: { token } } } });

    // Act / Assess
    await expect(client.authenticate(TEST_SPOT)).resolves.toEqual({ token, expiresAt });
  });

  it('reports a failure to share a token and still completes the call', async () => {
    // Prepare
    const tokenStore = new InMemoryTokenStore();
    tokenStore.put = async () => {
      throw new Error('table unavailable');
    };
    const { client, events } = createTestClient({
      options: { tokenStore },
      routes: { [STATUS_ROUTE]: processing },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(events).toContainEqual({ type: 'tokenStoreFailed', spotId: TEST_SPOT, errorName: 'Error' });
  });
});
