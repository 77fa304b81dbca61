import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamUnavailableError,
} from '../../../../lib/exports/upstream/errors';
import { OpenWebClient } from '../../../../lib/openweb/OpenWebClient';
import {
  BASE_URL,
  CREATE_ROUTE,
  FakeCredentials,
  fetchFailure,
  hangingReply,
  jwtExpiringAt,
  TEST_SPOT,
  VirtualClock,
} from './support/fakeUpstream';
import { createTestClient, rejectionOf } from './support/testClient';

const created = { status: 200, json: { status_link: `${BASE_URL}/v4/export/status?id=exp_1` } };
const range = { from: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' };

describe('OpenWebClient.createExport', () => {
  it.each([
    ['ECONNRESET', AmbiguousCreateReason.CONNECTION_LOST],
    ['UND_ERR_SOCKET', AmbiguousCreateReason.CONNECTION_LOST],
    ['EPIPE', AmbiguousCreateReason.CONNECTION_LOST],
    ['UND_ERR_HEADERS_TIMEOUT', AmbiguousCreateReason.CONNECTION_LOST],
  ])('does not resend after %s and throws AmbiguousCreateError', async (code, reason) => {
    // Prepare
    const failure = fetchFailure(code);
    const { client, upstream } = createTestClient({
      routes: { [CREATE_ROUTE]: [{ error: failure }, created] },
    });

    // Act
    const error = await rejectionOf(client.createExport(TEST_SPOT, range));

    // Assess
    expect(error).toBeInstanceOf(AmbiguousCreateError);
    expect(error).toMatchObject({ spotId: TEST_SPOT, reason });
    expect(error.cause).toBe(failure);
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(1);
  });

  it('does not resend after a timeout', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      options: { requestTimeoutMs: 20 },
      routes: { [CREATE_ROUTE]: [hangingReply, created] },
    });

    // Act
    const error = await rejectionOf(client.createExport(TEST_SPOT, range));

    // Assess
    expect(error).toMatchObject({ name: 'AmbiguousCreateError', reason: AmbiguousCreateReason.TIMEOUT });
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])('does not resend after HTTP %i', async (status) => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [CREATE_ROUTE]: [{ status }, created] } });

    // Act
    const error = await rejectionOf(client.createExport(TEST_SPOT, range));

    // Assess
    expect(error).toBeInstanceOf(AmbiguousCreateError);
    expect(error).toMatchObject({ reason: AmbiguousCreateReason.SERVER_ERROR, statusCode: status });
    expect(error.cause).toBeInstanceOf(UpstreamUnavailableError);
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(1);
  });

  it('reports a 2xx without a readable id as ambiguous, since the export exists', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: { [CREATE_ROUTE]: { status: 201, json: { ok: true } } },
    });

    // Act
    const error = await rejectionOf(client.createExport(TEST_SPOT, range));

    // Assess
    expect(error).toBeInstanceOf(AmbiguousCreateError);
    expect(error).toMatchObject({ reason: AmbiguousCreateReason.UNREADABLE_RESPONSE, statusCode: 201 });
    expect(error.cause).toBeInstanceOf(UpstreamProtocolError);
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(1);
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'])(
    'resends after %s, which proves nothing was sent',
    async (code) => {
      // Prepare
      const { client, upstream } = createTestClient({
        routes: { [CREATE_ROUTE]: [{ error: fetchFailure(code) }, created] },
      });

      // Act
      const result = await client.createExport(TEST_SPOT, range);

      // Assess
      expect(result.exportId).toBe('exp_1');
      expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(2);
    },
  );

  it('resends after 429, honouring Retry-After', async () => {
    // Prepare
    const { client, upstream, clock } = createTestClient({
      routes: { [CREATE_ROUTE]: [{ status: 429, headers: { 'retry-after': '3' } }, created] },
    });

    // Act
    const result = await client.createExport(TEST_SPOT, range);

    // Assess
    expect(result.exportId).toBe('exp_1');
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(2);
    expect(clock.sleeps).toEqual([3_000]);
  });

  it('gives up with UpstreamRateLimitedError when 429s outlast the attempts', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [CREATE_ROUTE]: { status: 429 } } });

    // Act
    const error = await rejectionOf(client.createExport(TEST_SPOT, range));

    // Assess
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(4);
  });

  describe('over real HTTP', () => {
    const servers: Server[] = [];

    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    });

    /** Serves auth, and hands every create to `onCreate` once its body has arrived. */
    async function serve(onCreate: (destroySocket: () => void) => void) {
      const received: string[] = [];
      const server = createServer((request, response) => {
        received.push(`${request.method} ${request.url}`);
        if (request.url === '/v1/publisher/auth') {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ token: jwtExpiringAt(Date.now() + 3_600_000) }));
          return;
        }
        request.resume();
        request.on('end', () => onCreate(() => request.socket.destroy()));
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
    }

    async function closedPortUrl(): Promise<string> {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await new Promise((resolve) => server.close(resolve));
      return url;
    }

    function clientFor(authBaseUrl: string, exportBaseUrl: string, onEvent?: (type: string) => void) {
      return new OpenWebClient({
        authBaseUrl,
        exportBaseUrl,
        credentials: new FakeCredentials(),
        sleep: new VirtualClock().sleep,
        retry: { maxAttempts: 2 },
        onEvent: (event) => onEvent?.(`${event.type}:${event.type === 'request' ? event.operation : ''}`),
      });
    }

    it('throws AmbiguousCreateError when the connection is dropped after the request arrived', async () => {
      // Prepare
      const { url, received } = await serve((destroySocket) => destroySocket());
      const client = clientFor(url, url);

      // Act
      const error = await rejectionOf(client.createExport(TEST_SPOT, range));

      // Assess
      expect(error).toBeInstanceOf(AmbiguousCreateError);
      expect(error).toMatchObject({ reason: AmbiguousCreateReason.CONNECTION_LOST });
      expect(received.filter((line) => line === 'POST /v4/export')).toHaveLength(1);
    });

    it('retries a create whose connection was refused, then reports the upstream unavailable', async () => {
      // Prepare
      const { url: authUrl } = await serve(() => undefined);
      const events: string[] = [];
      const client = clientFor(authUrl, await closedPortUrl(), (event) => events.push(event));

      // Act
      const error = await rejectionOf(client.createExport(TEST_SPOT, range));

      // Assess
      expect(error).toBeInstanceOf(UpstreamUnavailableError);
      expect(error.message).toContain('ECONNREFUSED');
      expect(events.filter((event) => event.startsWith('request:createExport'))).toHaveLength(2);
      expect(events).toContain('retry:');
    });
  });
});
