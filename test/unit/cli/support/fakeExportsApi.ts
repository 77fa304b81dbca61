import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake API received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeRoute = (request: ReceivedRequest) => FakeReply;

export interface FakeExportsApi {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A tiny stand-in for the openweb-exports HTTP API on loopback: answers with whatever `route` says. */
export async function startFakeExportsApi(route: FakeRoute): Promise<FakeExportsApi> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(request);
      const reply = route(request);
      outgoing.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      outgoing.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An RFC 9457 reply as the API sends it. */
export function problemReply(status: number, problem: Record<string, unknown>): FakeReply {
  return { status, body: { status, ...problem }, headers: { 'content-type': 'application/problem+json' } };
}

/** A URL on loopback where nothing listens. */
export async function unreachableApiUrl(): Promise<string> {
  const api = await startFakeExportsApi(() => ({ status: 500 }));
  await api.close();
  return api.url;
}
