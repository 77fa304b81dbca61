import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADERS_BYTES } from '../../../lib/http/apiRequestLimits';
import { type HandlerName, HandlerNames, ROUTES } from '../../../lib/http/routeTable';
import { type LocalHttpApi, type LocalRoute, startLocalHttpApi } from '../../../local/http/LocalHttpApi';
import { localJson } from '../../../local/http/localProblem';

interface Invocation {
  handler: HandlerName;
  event: APIGatewayProxyEventV2;
}

const MAX_BODY_BYTES = 64;

describe('the local HTTP API', () => {
  let api: LocalHttpApi | undefined;
  const invocations: Invocation[] = [];

  afterEach(async () => {
    await api?.close();
    api = undefined;
    invocations.length = 0;
  });

  async function start(localRoutes: LocalRoute[] = []): Promise<string> {
    api = await startLocalHttpApi({
      port: 0,
      routes: ROUTES,
      maxBodyBytes: MAX_BODY_BYTES,
      localRoutes,
      invoke: async (handler, event) => {
        invocations.push({ handler, event });
        return {
          statusCode: 202,
          headers: { 'content-type': 'application/json', location: '/exports/ex_1' },
          body: JSON.stringify({ handler }),
        };
      },
    });
    return api.url;
  }

  it('listens on loopback and hands each route to its handler as an API Gateway event', async () => {
    // Prepare
    const url = await start();

    // Act
    const response = await fetch(`${url}/exports/ex_1/abort?reason=test`, {
      method: 'POST',
      headers: { 'x-spot-id': 'sp_demo', 'content-type': 'application/json' },
      body: '{}',
    });

    // Assess
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(response.status).toBe(202);
    expect(response.headers.get('location')).toBe('/exports/ex_1');
    expect(await response.json()).toEqual({ handler: HandlerNames.ABORT });
    expect(invocations).toHaveLength(1);
    expect(invocations[0]?.handler).toBe(HandlerNames.ABORT);
    expect(invocations[0]?.event).toMatchObject({
      routeKey: 'POST /exports/{exportId}/abort',
      pathParameters: { exportId: 'ex_1' },
      queryStringParameters: { reason: 'test' },
      headers: { 'x-spot-id': 'sp_demo' },
      body: '{}',
      requestContext: { http: { method: 'POST', sourceIp: '127.0.0.1' } },
    });
  });

  it('answers an unknown route 404 and a known path with the wrong method 405 with Allow, as problems', async () => {
    // Prepare
    const url = await start();

    // Act
    const notFound = await fetch(`${url}/nothing-here`);
    const wrongMethod = await fetch(`${url}/exports`, { method: 'DELETE' });

    // Assess
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('content-type')).toBe('application/problem+json');
    expect(await notFound.json()).toMatchObject({ status: 404, title: 'Not Found' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET');
    expect(await wrongMethod.json()).toMatchObject({ status: 405 });
    expect(invocations).toHaveLength(0);
  });

  it('refuses a body over the cap with 413 before calling the handler, declared or streamed', async () => {
    // Prepare
    const url = await start();
    const oversized = 'x'.repeat(MAX_BODY_BYTES + 1);

    // Act
    const declared = await fetch(`${url}/exports`, { method: 'POST', body: oversized });
    const streamed = await postChunked(`${url}/exports`, [oversized.slice(0, 40), oversized.slice(40)]);

    // Assess
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({
      status: 413,
      type: '/problems/payload-too-large',
      title: 'Payload too large',
    });
    expect(streamed).toBe(413);
    expect(invocations).toHaveLength(0);
  });

  it('refuses a body with the limit and the problem the handlers answer, whatever the body', async () => {
    // Prepare: the default limit, the handlers' own.
    api = await startLocalHttpApi({
      port: 0,
      routes: ROUTES,
      invoke: async (handler, event) => {
        invocations.push({ handler, event });
        return { statusCode: 202, body: '{}' };
      },
    });
    const sizes = [MAX_REQUEST_BODY_BYTES + 1, 2 * 1024 * 1024];

    // Act
    const answers = await Promise.all(
      sizes.map(async (size) => {
        const response = await fetch(`${api?.url}/exports`, { method: 'POST', body: 'x'.repeat(size) });
        return { status: response.status, body: await response.json() };
      }),
    );

    // Assess
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 413,
        body: {
          type: '/problems/payload-too-large',
          title: 'Payload too large',
          status: 413,
          detail: `The request body may be at most ${MAX_REQUEST_BODY_BYTES} bytes.`,
        },
      });
    }
    expect(invocations).toHaveLength(0);
  });

  it('answers headers too large to read with the API 431 problem, not a bare status line', async () => {
    // Prepare
    const url = await start();

    // Act
    const answer = await rawRequest(
      url,
      `GET /exports HTTP/1.1\r\nHost: 127.0.0.1\r\nx-spot-id: sp_demo\r\nx-padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );

    // Assess
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual({
      type: '/problems/request-headers-too-large',
      title: 'Request header fields too large',
      status: 431,
      detail: `The request's headers may total at most ${MAX_REQUEST_HEADERS_BYTES} bytes.`,
    });
    expect(invocations).toHaveLength(0);
  });

  it('answers HEAD on its own GET routes with their headers and no body', async () => {
    // Prepare
    const url = await start([
      { method: 'GET', path: '/health', handle: async () => localJson(200, { status: 'ok' }) },
    ]);

    // Act
    const head = await fetch(`${url}/health`, { method: 'HEAD' });
    const wrongMethod = await fetch(`${url}/health`, { method: 'POST' });

    // Assess
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String('{"status":"ok"}'.length));
    expect(await head.text()).toBe('');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves local-only routes under /_local/ with their own 405', async () => {
    // Prepare
    const url = await start([
      {
        method: 'POST',
        path: '/_local/things/{name}/poke',
        handle: async ({ pathParameters }) => localJson(200, { poked: pathParameters.name }),
      },
    ]);

    // Act
    const poked = await fetch(`${url}/_local/things/a%20b/poke`, { method: 'POST' });
    const wrongMethod = await fetch(`${url}/_local/things/a/poke`);

    // Assess
    expect(await poked.json()).toEqual({ poked: 'a b' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('refuses local-only routes outside the /_local/ prefix', async () => {
    // Act
    const starting = startLocalHttpApi({
      port: 0,
      routes: ROUTES,
      invoke: async () => undefined,
      localRoutes: [{ method: 'GET', path: '/exports/debug', handle: async () => localJson(200, {}) }],
    });

    // Assess
    await expect(starting).rejects.toThrow(/\/_local\//);
  });

  it('answers 503 and closes connections once it stops accepting', async () => {
    // Prepare
    const url = await start();
    const agentless = { keepalive: false } as const;

    // Act
    api?.stopAccepting();
    const refused = await fetch(`${url}/exports`, agentless).then(
      (response) => response.status,
      () => 'connection refused',
    );

    // Assess
    expect([503, 'connection refused']).toContain(refused);
    expect(invocations).toHaveLength(0);
  });
});

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are over a fresh connection and reads the answer until the server closes it. */
function rawRequest(url: string, bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ statusLine, headers, body });
    });
  });
}

/** A POST whose body has no Content-Length (chunked), to test the cap while reading. */
function postChunked(url: string, chunks: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    // The server may close the connection before the whole body is sent.
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}
