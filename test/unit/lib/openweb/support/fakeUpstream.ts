import { UnsecuredJWT } from 'jose';
import type {
  CredentialsProvider,
  GetCredentialsOptions,
} from '../../../../../lib/exports/upstream/CredentialsProvider';

/** One request the fake upstream received. Header names are lower case. */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted answer: an HTTP reply, a thrown fetch error, or a function of the request. */
export type ScriptedReply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | { error: unknown }
  | ((request: RecordedRequest, signal: AbortSignal | undefined) => Promise<Response> | Response);

/** Routes are `"METHOD /path"`; a list of replies is used in order, its last one repeating. */
export type Routes = Record<string, ScriptedReply | ScriptedReply[]>;

export const TEST_SPOT = 'sp_demo';
export const TEST_API_KEY = 'test-api-key-do-not-log';
export const AUTH_ROUTE = 'POST /v1/publisher/auth';
export const CREATE_ROUTE = 'POST /v4/export';
export const STATUS_ROUTE = 'GET /v4/export/status';
export const ABORT_ROUTE = 'GET /v4/export/abort';
export const LIST_ROUTE = 'GET /v4/export/list';
export const BASE_URL = 'http://upstream.test';

export function jwtExpiringAt(expiresAtMs: number, subject = 'token'): string {
  return new UnsecuredJWT({ spot_id: TEST_SPOT, nonce: subject })
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .encode();
}

export function fetchFailure(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

export interface FakeUpstream {
  fetch: typeof fetch;
  requests: RecordedRequest[];
  requestsTo(route: string): RecordedRequest[];
  /** Tokens handed out by the default auth route, in order. */
  issuedTokens: string[];
}

/**
 * A scriptable stand-in for `fetch`. Unrouted auth calls issue a new JWT
 * (valid 24 h from `now()`); other unrouted calls answer 599 so a test notices.
 */
export function createFakeUpstream(routes: Routes = {}, now: () => number = Date.now): FakeUpstream {
  const requests: RecordedRequest[] = [];
  const issuedTokens: string[] = [];
  const served = new Map<string, number>();

  const defaultAuth: ScriptedReply = () => {
    const token = jwtExpiringAt(now() + 24 * 60 * 60 * 1000, `t${issuedTokens.length + 1}`);
    issuedTokens.push(token);
    return Response.json({ token });
  };

  const fakeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const request: RecordedRequest = { method, url, headers, body };
    requests.push(request);
    const route = `${method} ${url.pathname}`;
    const isAuth = method === 'POST' && url.pathname.endsWith('/v1/publisher/auth');
    const script = routes[route] ?? (isAuth ? defaultAuth : { status: 599 });
    const replies = Array.isArray(script) ? script : [script];
    const index = served.get(route) ?? 0;
    served.set(route, index + 1);
    const reply = replies[Math.min(index, replies.length - 1)] as ScriptedReply;
    if (typeof reply === 'function') return reply(request, init.signal ?? undefined);
    if ('error' in reply) throw reply.error;
    const text = reply.json === undefined ? (reply.text ?? null) : JSON.stringify(reply.json);
    return new Response(reply.status === 204 ? null : text, { status: reply.status, headers: reply.headers });
  };

  return {
    fetch: fakeFetch as typeof fetch,
    requests,
    requestsTo: (route) =>
      requests.filter((request) => `${request.method} ${request.url.pathname}` === route),
    issuedTokens,
  };
}

/** Answers only when the request is aborted, with the abort reason, like fetch does. */
export function hangingReply(_request: RecordedRequest, signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export class FakeCredentials implements CredentialsProvider {
  readonly calls: Array<{ spotId: string; options: GetCredentialsOptions | undefined }> = [];

  constructor(private readonly keys: string[] = [TEST_API_KEY]) {}

  async getCredentials(spotId: string, options?: GetCredentialsOptions) {
    this.calls.push({ spotId, options });
    const forced = this.calls.filter((call) => call.options?.forceRefresh).length;
    return { spotId, apiKey: this.keys[Math.min(forced, this.keys.length - 1)] as string };
  }
}

/** A clock that only moves when the code under test sleeps (or the test moves it). */
export class VirtualClock {
  readonly sleeps: number[] = [];

  constructor(public nowMs = Date.parse('2026-03-01T00:00:00Z')) {}

  readonly now = (): number => this.nowMs;

  readonly sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.nowMs += ms;
  };

  advance(ms: number): void {
    this.nowMs += ms;
  }
}
