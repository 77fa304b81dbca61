import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../functions/abort';
import { makeCheckStatusHandler } from '../../functions/check-status';
import { makeListHandler } from '../../functions/list';
import { makeStartHandler } from '../../functions/start';
import { EXPORT_STATUSES } from '../../lib/exports/record/ExportStatus';
import type { ExportHandler } from '../../lib/runtime/createHandler';
import { handlerRuntimeFor } from '../../lib/runtime/HandlerRuntime';
import { apiEvent, lambdaContext, silentLogger } from '../support/apiGatewayEvents';
import { OpenApiResponseValidator } from '../support/openApiResponses';
import { type MockedAwsRuntime, startMockedAwsRuntime } from '../unit/functions/support/mockedAwsRuntime';

/** Enough cases to cover every route many times over; most are invalid, so upstream calls stay few. */
const DEFAULT_FUZZ_CASES = 1_200;
/** `API_FUZZ_RUNS` sets the case count (`npm run test:fuzz:full` runs 10,000). */
const FUZZ_CASES = fuzzCaseCount(process.env.API_FUZZ_RUNS);
/**
 * The cases drawn: `API_FUZZ_SEED` replays a run fast-check reported, or draws others. By default
 * every run draws the same cases, so the coverage checks after the run (every happy path reached)
 * cannot pass one run and fail the next by chance.
 */
const DEFAULT_FUZZ_SEED = 20_261_123;
const FUZZ_SEED = fuzzSeed(process.env.API_FUZZ_SEED);
/** Simulated time per case, so exports finish and leases age while the fuzz runs. */
const CLOCK_STEP_MS = 1_000;
/** A generous budget per case, so a longer run keeps the same margin (a limit, not a measurement). */
const FUZZ_TIMEOUT_MS_PER_CASE = 100;
const FUZZ_TIMEOUT_MS = Math.max(120_000, FUZZ_CASES * FUZZ_TIMEOUT_MS_PER_CASE);
/** The JWT claim the spot-checked handlers read, as `auth.spotClaim` would configure it. */
const SPOT_CLAIM = 'spots';

function fuzzCaseCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_CASES;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`API_FUZZ_RUNS must be a positive integer, not ${raw}`);
  return count;
}

function fuzzSeed(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`API_FUZZ_SEED must be an integer, not ${raw}`);
  return seed;
}

type Route = 'start' | 'check' | 'abort' | 'list';

interface FuzzCase {
  route: Route;
  headers: Record<string, string>;
  body: string | undefined;
  isBase64Encoded: boolean;
  exportId: string | undefined;
  /** Index into the export ids answered so far, used instead of `exportId` when set. */
  knownExportIndex: number | undefined;
  query: Record<string, string>;
  /** Served by the handlers that check the spot claim (JWT mode with `auth.spotClaim`). */
  spotChecked: boolean;
  /** The verified JWT claims API Gateway would pass on, when a JWT authorized the request. */
  claims: Record<string, unknown> | undefined;
}

const anyText = fc.string({ unit: 'binary', maxLength: 80 });
const spotIds = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('sp_demo', 'sp_demo', 'sp_demo', 'sp_other', 'sp_nobody') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('SP_demo', 'sp_', 'sp_demo ', '"sp_demo"', `sp_${'a'.repeat(70)}`),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^sp_[A-Za-z0-9_-]{1,12}$/) },
  { weight: 1, arbitrary: anyText },
);
const idempotencyKeys = fc.oneof(
  fc.constantFrom('key-1', 'key-2', 'schedule:P1D:2026-11-01T00:00:00Z', ''),
  anyText,
  fc.constant('k'.repeat(300)),
);
const instants = fc
  .integer({ min: Date.parse('2026-09-01T00:00:00Z') / 1000, max: Date.parse('2026-11-02T00:00:00Z') / 1000 })
  .map((seconds) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'));
const fileOptions = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        delimiter: fc.constantFrom(',', ';', '|', '\t', 'x', ''),
        maxRecordsInFile: fc.oneof(fc.integer({ min: -5, max: 200_000 }), fc.constant('10')),
      },
      { requiredKeys: [] },
    ),
  },
);
const SECONDS_PER_HOUR = 3600;
const dateRanges = fc
  .tuple(instants, fc.integer({ min: -SECONDS_PER_HOUR, max: 800 * SECONDS_PER_HOUR }))
  .map(([from, lengthSeconds]) => ({
    from,
    until: new Date(Date.parse(from) + lengthSeconds * 1000).toISOString().replace('.000Z', 'Z'),
  }));
const plausibleBodies = fc.oneof(
  fc.tuple(dateRanges, fileOptions).map(([range, options]) => ({ ...range, ...options })),
  fc
    .tuple(
      fc.constantFrom('sp_demo', 'sp_other', 'sp_x'),
      fc.stringMatching(/^[A-Za-z0-9_.:-]{0,12}$/),
      fileOptions,
    )
    .map(([spot, post, options]) => ({ conversationId: `${spot}_${post}`, ...options })),
  fc.record({ from: instants, conversationId: fc.constant('sp_demo_1') }),
);
const bodyTexts = fc.oneof(
  { weight: 16, arbitrary: plausibleBodies.map((body) => JSON.stringify(body)) },
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: fc.constant('x'.repeat(17 * 1024)) },
);
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/problem+json',
  'application/json; charset=latin1',
  'text/plain',
  '',
);
const exportIds = fc.oneof(fc.stringMatching(/^ex_[0-9a-hjkmnp-tv-z]{26}$/), anyText, fc.constant('..%2F..'));
const queries = fc.dictionary(
  fc.constantFrom('limit', 'nextToken', 'status', 'offset', ''),
  fc.oneof(
    fc.integer({ min: -5, max: 150 }).map(String),
    fc.constantFrom(...EXPORT_STATUSES, 'completed'),
    fc.base64String({ maxLength: 60 }),
    anyText,
  ),
  { maxKeys: 3 },
);

const spotLists = fc.array(fc.oneof(spotIds, fc.constant('sp_demo')), { maxLength: 3 });
const claimSets = fc.oneof(
  fc.record({ [SPOT_CLAIM]: spotLists.map((spots) => `[${spots.join(' ')}]`) }),
  fc.record({ [SPOT_CLAIM]: spotLists }),
  fc.record({ [SPOT_CLAIM]: spotLists.map((spots) => spots.join(',')) }),
  fc.record({ [SPOT_CLAIM]: fc.oneof(fc.jsonValue({ maxDepth: 2 }), anyText) }),
  fc.dictionary(anyText, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);

const fuzzCases: fc.Arbitrary<FuzzCase> = fc
  .record({
    route: fc.constantFrom<Route>('start', 'start', 'check', 'abort', 'list'),
    spotId: fc.option(spotIds, { freq: 8 }),
    idempotencyKey: fc.option(idempotencyKeys, { freq: 2 }),
    contentType: fc.option(contentTypes, { freq: 8 }),
    extraHeaders: fc.dictionary(anyText, anyText, { maxKeys: 2 }),
    hugeHeader: fc.nat({ max: 29 }).map((draw) => (draw === 0 ? 'h'.repeat(11 * 1024) : undefined)),
    bodyText: fc.option(bodyTexts, { freq: 6 }),
    base64: fc.constantFrom('no', 'no', 'no', 'no', 'no', 'no', 'encoded', 'encoded', 'raw'),
    exportId: fc.option(exportIds, { freq: 3 }),
    knownExportIndex: fc.option(fc.nat({ max: 50 }), { freq: 2 }),
    query: queries,
    spotChecked: fc.boolean(),
    claims: fc.option(claimSets, { freq: 4 }),
  })
  .map((raw) => ({
    route: raw.route,
    headers: {
      ...raw.extraHeaders,
      ...(raw.hugeHeader !== undefined && { 'x-padding': raw.hugeHeader }),
      ...(raw.contentType !== null && { 'content-type': raw.contentType }),
      ...(raw.idempotencyKey !== null && { 'idempotency-key': raw.idempotencyKey }),
      ...(raw.spotId !== null && { 'x-spot-id': raw.spotId }),
    },
    body:
      raw.bodyText === null
        ? undefined
        : raw.base64 === 'encoded'
          ? Buffer.from(raw.bodyText).toString('base64')
          : raw.bodyText,
    isBase64Encoded: raw.base64 !== 'no',
    exportId: raw.exportId ?? undefined,
    knownExportIndex: raw.knownExportIndex ?? undefined,
    query: raw.query,
    spotChecked: raw.spotChecked,
    claims: raw.claims ?? undefined,
  }));

const ROUTE_PATHS: Record<Route, { method: 'GET' | 'POST'; route: string }> = {
  start: { method: 'POST', route: '/exports' },
  check: { method: 'GET', route: '/exports/{exportId}' },
  abort: { method: 'POST', route: '/exports/{exportId}/abort' },
  list: { method: 'GET', route: '/exports' },
};

describe('the HTTP API under random requests', () => {
  let aws: MockedAwsRuntime;
  let handlers: Record<Route, ExportHandler>;
  let spotCheckedHandlers: Record<Route, ExportHandler>;
  const knownExportIds: string[] = [];
  /** `<route> <status>` → how often it was answered. */
  const outcomes = new Map<string, number>();
  const openApi = OpenApiResponseValidator.committed();

  beforeAll(async () => {
    aws = await startMockedAwsRuntime();
    handlers = {
      start: makeStartHandler(aws.runtime),
      check: makeCheckStatusHandler(aws.runtime),
      abort: makeAbortHandler(aws.runtime),
      list: makeListHandler(aws.runtime),
    };
    const spotChecked = handlerRuntimeFor(aws.dependencies, {
      logger: silentLogger(),
      spotClaim: SPOT_CLAIM,
    });
    spotCheckedHandlers = {
      start: makeStartHandler(spotChecked),
      check: makeCheckStatusHandler(spotChecked),
      abort: makeAbortHandler(spotChecked),
      list: makeListHandler(spotChecked),
    };
  });

  afterAll(async () => {
    await aws?.close();
  });

  it(
    'answers every request as the OpenAPI document says: a 2xx, or a 4xx problem+json whose status is the HTTP status; never a 5xx',
    async () => {
      // Act / Assess
      await fc.assert(
        fc.asyncProperty(fuzzCases, async (fuzzCase) => {
          aws.clock.advance(CLOCK_STEP_MS);
          const known =
            fuzzCase.knownExportIndex === undefined || knownExportIds.length === 0
              ? undefined
              : knownExportIds[fuzzCase.knownExportIndex % knownExportIds.length];
          const exportId =
            fuzzCase.route === 'check' || fuzzCase.route === 'abort'
              ? (known ?? fuzzCase.exportId)
              : undefined;
          const plainEvent = apiEvent({
            ...ROUTE_PATHS[fuzzCase.route],
            headers: fuzzCase.headers,
            ...(fuzzCase.body !== undefined && { body: fuzzCase.body }),
            isBase64Encoded: fuzzCase.isBase64Encoded,
            ...(exportId !== undefined && { exportId }),
            query: fuzzCase.query,
          });
          const event =
            fuzzCase.claims === undefined
              ? plainEvent
              : {
                  ...plainEvent,
                  requestContext: {
                    ...plainEvent.requestContext,
                    authorizer: { jwt: { claims: fuzzCase.claims, scopes: null } },
                  },
                };
          const routeHandlers = fuzzCase.spotChecked ? spotCheckedHandlers : handlers;

          const response = (await routeHandlers[fuzzCase.route](event, lambdaContext())) as {
            statusCode: number;
            headers: Record<string, string>;
            body: string;
          };

          const outcome = `${fuzzCase.spotChecked ? 'spot-checked ' : ''}${fuzzCase.route} ${response.statusCode}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          const body = JSON.parse(response.body) as Record<string, unknown>;
          // Status, headers and body as the OpenAPI document says for the route. (A path API Gateway
          // would not route, such as an empty id, is held to the route the event was made for.)
          const { method, route } = ROUTE_PATHS[fuzzCase.route];
          const path = openApi.documents(method, event.rawPath) ? event.rawPath : route;
          openApi.assertDocumented(method, path, {
            status: response.statusCode,
            headers: response.headers,
            body,
          });
          expect(response.statusCode).toBeGreaterThanOrEqual(200);
          expect(response.statusCode).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(response.headers['content-type']).toBe('application/problem+json');
            expect(body.status).toBe(response.statusCode);
            expect(typeof body.title).toBe('string');
          } else {
            expect(response.headers['content-type']).toBe('application/json');
            if (typeof body.exportId === 'string' && !knownExportIds.includes(body.exportId)) {
              knownExportIds.push(body.exportId);
            }
          }
        }),
        { numRuns: FUZZ_CASES, seed: FUZZ_SEED },
      );

      // The fuzz reached every route's happy path, not only the refusals.
      for (const success of ['start 202', 'check 200', 'abort 202', 'list 200']) {
        expect(outcomes.get(success) ?? 0, success).toBeGreaterThan(0);
      }
      // With the spot claim checked, the fuzz saw both refusals and requests let through.
      expect(outcomes.get('spot-checked list 403') ?? 0).toBeGreaterThan(0);
      expect(outcomes.get('spot-checked list 200') ?? 0).toBeGreaterThan(0);
    },
    FUZZ_TIMEOUT_MS,
  );
});
