import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeCoverageHandler } from '../../../functions/coverage';
import { makeListHandler } from '../../../functions/list';
import { makeStartHandler } from '../../../functions/start';
import type { ExportDependencies } from '../../../lib/exports/ExportDependencies';
import { DEFAULT_EXPORT_SETTINGS } from '../../../lib/exports/record/ExportSettings';
import { isValidExportId } from '../../../lib/exports/record/exportId';
import { SPOT_ID_PATTERN } from '../../../lib/exports/record/spotId';
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADERS_BYTES } from '../../../lib/http/apiRequestLimits';
import type { ExportHandler } from '../../../lib/runtime/createHandler';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import {
  type ApiEventInit,
  apiEvent,
  lambdaContext,
  type ParsedResponse,
  parseResponse,
  silentLogger,
} from '../../support/apiGatewayEvents';

const SPOT = 'sp_demo';
const EXPORT_ID = 'ex_01kak3f4v2aaaaaaaaaaaaaaaa';
const DATE_RANGE = { from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' };
const SPOT_CLAIM = 'spots';
/** Per property: enough variety of junk per route, quick without I/O. */
const PROPERTY_RUNS = 300;

type Route = 'start' | 'check' | 'abort' | 'list' | 'coverage';
const ROUTES: Route[] = ['start', 'check', 'abort', 'list', 'coverage'];
const ROUTE_EVENTS: Record<Route, Pick<ApiEventInit, 'method' | 'route'>> = {
  start: { method: 'POST', route: '/exports' },
  check: { method: 'GET', route: '/exports/{exportId}' },
  abort: { method: 'POST', route: '/exports/{exportId}/abort' },
  list: { method: 'GET', route: '/exports' },
  coverage: { method: 'GET', route: '/spots/{spotId}/coverage' },
};

/** A port that records every call and fails it: any I/O a refused request attempts shows up here. */
function recordingPort<T extends object>(name: string, calls: string[]): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      return (..._args: unknown[]) => {
        calls.push(`${name}.${String(property)}`);
        return Promise.reject(new Error(`${name}.${String(property)} was called`));
      };
    },
  });
}

/** A well-formed request for `route`, changed by `init`. */
function requestFor(route: Route, init: ApiEventInit = {}) {
  return apiEvent({
    ...ROUTE_EVENTS[route],
    ...(route === 'check' || route === 'abort' ? { exportId: EXPORT_ID } : {}),
    ...(route === 'start' ? { body: JSON.stringify(DATE_RANGE) } : {}),
    ...(route === 'coverage' ? { pathSpotId: SPOT } : {}),
    ...init,
    headers: {
      'x-spot-id': SPOT,
      ...(route === 'start' ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });
}

describe('input hardening: refusals happen before any I/O', () => {
  let io: string[];
  let handlers: Record<Route, ExportHandler>;
  let claimChecked: Record<Route, ExportHandler>;

  async function answer(route: Route, event: unknown, set = handlers): Promise<ParsedResponse> {
    return parseResponse(await set[route](event, lambdaContext()));
  }

  beforeEach(() => {
    io = [];
    const dependencies: ExportDependencies = {
      store: recordingPort('store', io),
      coverage: recordingPort('coverage', io),
      backfills: recordingPort('backfills', io),
      spotLocks: recordingPort('spotLocks', io),
      idempotencyKeys: recordingPort('idempotencyKeys', io),
      upstream: recordingPort('upstream', io),
      credentials: recordingPort('credentials', io),
      workflows: recordingPort('workflows', io),
      events: recordingPort('events', io),
      metrics: { count: () => {} },
      settings: DEFAULT_EXPORT_SETTINGS,
      now: Date.now,
    };
    const build = (spotClaim?: string): Record<Route, ExportHandler> => {
      const runtime = handlerRuntimeFor(dependencies, { logger: silentLogger(), spotClaim });
      return {
        start: makeStartHandler(runtime),
        check: makeCheckStatusHandler(runtime),
        abort: makeAbortHandler(runtime),
        list: makeListHandler(runtime),
        coverage: makeCoverageHandler(runtime),
      };
    };
    handlers = build();
    claimChecked = build(SPOT_CLAIM);
  });

  it.each(ROUTES)('reaches the store for a well-formed %s request (the spy sees I/O)', async (route) => {
    // Act
    const response = await answer(route, requestFor(route));

    // Assess
    expect(response.statusCode).toBe(500);
    expect(io.length).toBeGreaterThan(0);
  });

  it.each(ROUTES)('refuses an oversize body on %s with 413, raw or base64', async (route) => {
    // Prepare
    const oversize = 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1);

    // Act
    const raw = await answer(route, requestFor(route, { body: oversize }));
    const base64 = await answer(
      route,
      requestFor(route, { body: Buffer.from(oversize).toString('base64'), isBase64Encoded: true }),
    );

    // Assess
    expect([raw.statusCode, base64.statusCode]).toEqual([413, 413]);
    expect(io).toEqual([]);
  });

  it.each(ROUTES)('refuses oversize headers on %s with 431, whatever else is wrong', async (route) => {
    // Prepare
    const padding = 'h'.repeat(MAX_REQUEST_HEADERS_BYTES);

    // Act
    const response = await answer(
      route,
      requestFor(route, { headers: { 'x-padding': padding, 'x-spot-id': 'not a spot' } }),
    );

    // Assess
    expect(response.statusCode).toBe(431);
    expect(io).toEqual([]);
  });

  it.each(ROUTES)('refuses %s for a spot the token does not list with 403', async (route) => {
    // Act
    const response = await answer(route, requestFor(route), claimChecked);

    // Assess
    expect(response.statusCode).toBe(403);
    expect(io).toEqual([]);
  });

  it.each([
    ['a body that is not JSON', { body: '{"from":' }, 400],
    ['a body of another media type', { headers: { 'content-type': 'text/plain' } }, 415],
    ['an unknown body field', { body: JSON.stringify({ ...DATE_RANGE, extra: 1 }) }, 400],
    [
      'a range over 730 hours',
      { body: JSON.stringify({ ...DATE_RANGE, from: '2026-01-01T00:00:00Z' }) },
      400,
    ],
    ['an idempotency key with control characters', { headers: { 'idempotency-key': 'a\u0000b' } }, 400],
  ] as const)('refuses a start with %s', async (_case, init, status) => {
    // Act
    const response = await answer('start', requestFor('start', init));

    // Assess
    expect(response.statusCode).toBe(status);
    expect(io).toEqual([]);
  });

  it.each<Record<string, string>>([
    { limit: '0' },
    { limit: '101' },
    { status: 'completed' },
    { nextToken: 'a'.repeat(3000) },
    { nextToken: '../../etc' },
    { offset: '1' },
  ])('refuses the list query %o with 400', async (query) => {
    // Act
    const response = await answer('list', requestFor('list', { query }));

    // Assess
    expect(response.statusCode).toBe(400);
    expect(io).toEqual([]);
  });

  it.each<[string, ApiEventInit]>([
    ['an instant that is not RFC 3339 UTC', { query: { from: '2026-11-01 00:00' } }],
    ['from after until', { query: { from: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' } }],
    ['a range over 366 days', { query: { from: '2020-01-01T00:00:00Z', until: '2026-01-01T00:00:00Z' } }],
    ['a limit over 1000', { query: { limit: '1001' } }],
    ['a forged token', { query: { nextToken: 'Zm9yZ2Vk' } }],
    ['a token too long', { query: { nextToken: 'a'.repeat(3000) } }],
    ['an unknown parameter', { query: { spot: 'sp_other' } }],
    ['a path that names another spot', { pathSpotId: 'sp_other' }],
  ])('refuses a coverage request with %s with 400', async (_case, init) => {
    // Act
    const response = await answer('coverage', requestFor('coverage', init));

    // Assess
    expect(response.statusCode).toBe(400);
    expect(io).toEqual([]);
  });

  it('validates x-spot-id before use: anything but sp_<1-64 of [A-Za-z0-9_-]> is a 400', async () => {
    // Prepare
    const notSpotIds = fc
      .oneof(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.stringMatching(/^sp_[A-Za-z0-9_-]{65,70}$/),
        fc.constantFrom('SP_demo', 'sp_', ' sp_demo', 'sp_demo\n', 'sp_dé', 'sp_demo;x', '"sp_demo"'),
      )
      .filter((value) => !SPOT_ID_PATTERN.test(value));

    // Act / Assess
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), notSpotIds, async (route, spotId) => {
        io.length = 0;
        const response = await answer(route, requestFor(route, { headers: { 'x-spot-id': spotId } }));
        expect(response.statusCode).toBe(400);
        expect(response.body.errors).toEqual([{ field: 'header.x-spot-id', message: expect.any(String) }]);
        expect(io).toEqual([]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('validates export ids before use: anything but a well-formed id is a 404, as for an unknown one', async () => {
    // Prepare
    const notExportIds = fc
      .oneof(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.stringMatching(/^ex_[0-9a-z]{26}$/),
        fc.constantFrom('..%2F..', 'ex_', `${EXPORT_ID}/`, EXPORT_ID.toUpperCase(), `${EXPORT_ID}\u0000`),
      )
      .filter((value) => !isValidExportId(value));

    // Act / Assess
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Route>('check', 'abort'), notExportIds, async (route, exportId) => {
        io.length = 0;
        const response = await answer(route, requestFor(route, { exportId }));
        expect(response.statusCode).toBe(404);
        expect(response.body.type).toBe('/problems/export-not-found');
        expect(io).toEqual([]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
