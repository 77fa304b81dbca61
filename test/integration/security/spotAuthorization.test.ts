import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeBackfillsHandler } from '../../../functions/backfills';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeCoverageHandler } from '../../../functions/coverage';
import { makeListHandler } from '../../../functions/list';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { parseStackConfig, StackConfigError } from '../../../infra/stackConfig';
import { ConfigError, loadConfig } from '../../../lib/config';
import { claimValues } from '../../../lib/http/jwtClaimValues';
import { HandlerNames } from '../../../lib/http/routeTable';
import type { ExportHandler } from '../../../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../../../lib/runtime/defaultHandlerRuntime';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../../../lib/runtime/lifecycleAdapters';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import {
  DATE_RANGE,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
} from '../../unit/functions/support/mockedAwsRuntime';
import { removeTestAssemblies, synthesizeTestStack } from '../infra/synthesizeTestStack';
import { functionOf } from '../infra/templateQueries';

const SPOT_CLAIM = 'custom:spots';
/** Two stacks synthesized in one test: seconds each, more on a busy machine. */
const TWO_SYNTHESES_TIMEOUT_MS = 60_000;
const JWT_AUTH = { mode: 'jwt', issuer: 'https://issuer.example.com/', audience: ['exports-api'] };
const WELL_FORMED_UNKNOWN_EXPORT_ID = 'ex_01kak3f4v2aaaaaaaaaaaaaaaa';

type Route = 'start' | 'check' | 'abort' | 'list' | 'coverage';
type Handlers = Record<Route, ExportHandler>;

/** The event as API Gateway delivers it after its JWT authorizer verified a token with `claims`. */
function withJwtClaims(
  event: APIGatewayProxyEventV2,
  claims: Record<string, unknown>,
): APIGatewayProxyEventV2 {
  return {
    ...event,
    headers: { ...event.headers, authorization: 'Bearer header.payload.signature' },
    requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: null } } },
  } as APIGatewayProxyEventV2;
}

function requestFor(route: Route, spotId: string): APIGatewayProxyEventV2 {
  switch (route) {
    case 'start':
      return apiRequests.start(spotId, DATE_RANGE);
    case 'check':
      return apiRequests.check(spotId, WELL_FORMED_UNKNOWN_EXPORT_ID);
    case 'abort':
      return apiRequests.abort(spotId, WELL_FORMED_UNKNOWN_EXPORT_ID);
    case 'list':
      return apiRequests.list(spotId);
    case 'coverage':
      return apiRequests.coverage(spotId);
  }
}

function handlersOf(aws: MockedAwsRuntime, spotClaim: string | undefined): Handlers {
  const runtime = handlerRuntimeFor(aws.dependencies, {
    logger: silentLogger(),
    ...(spotClaim !== undefined && { spotClaim }),
  });
  return {
    start: makeStartHandler(runtime),
    check: makeCheckStatusHandler(runtime),
    abort: makeAbortHandler(runtime),
    list: makeListHandler(runtime),
    coverage: makeCoverageHandler(runtime),
  };
}

describe('claimValues', () => {
  it.each([
    ['a JSON array', [SPOT, OTHER_SPOT]],
    ["API Gateway's flattened array", `[${SPOT} ${OTHER_SPOT}]`],
    ['a JSON array as text', JSON.stringify([SPOT, OTHER_SPOT])],
    ['a space-separated string', `${SPOT} ${OTHER_SPOT}`],
    ['a comma-separated string', `${SPOT},${OTHER_SPOT}`],
    ['commas and spaces', ` ${SPOT}, ${OTHER_SPOT} `],
  ])('reads the spots of %s', (_encoding, claim) => {
    // Act
    const values = claimValues(claim);

    // Assess
    expect(values).toEqual([SPOT, OTHER_SPOT]);
  });

  it.each([
    ['no claim', undefined],
    ['a number', 42],
    ['an object', { spots: SPOT }],
    ['an empty string', ''],
    ['an empty array', '[]'],
  ])('reads nothing from %s', (_encoding, claim) => {
    // Act / Assess
    expect(claimValues(claim)).toEqual([]);
  });
});

describe('per-spot authorization in JWT mode', () => {
  let aws: MockedAwsRuntime;
  let claimChecked: Handlers;
  let unchecked: Handlers;

  beforeAll(async () => {
    aws = await startMockedAwsRuntime();
    claimChecked = handlersOf(aws, SPOT_CLAIM);
    unchecked = handlersOf(aws, undefined);
  });

  afterAll(async () => {
    await aws?.close();
  });

  afterEach(() => {
    aws.dynamoDb.resetHistory();
  });

  it.each<Route>(['start', 'check', 'abort', 'list', 'coverage'])(
    'refuses %s with 403 spot-not-allowed when the token does not list the spot, before any I/O',
    async (route) => {
      // Prepare
      const event = withJwtClaims(requestFor(route, SPOT), {
        sub: 'caller',
        [SPOT_CLAIM]: `[${OTHER_SPOT}]`,
      });
      const upstreamCallsBefore = aws.simulator.requestLog.length;

      // Act
      const response = parseResponse(await claimChecked[route](event, lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ type: '/problems/spot-not-allowed', status: 403 });
      expect(JSON.stringify(response.body)).not.toContain(OTHER_SPOT);
      expect(aws.dynamoDb.calls()).toHaveLength(0);
      expect(aws.simulator.requestLog.length).toBe(upstreamCallsBefore);
    },
  );

  it.each([
    ['alone', {}],
    ['with an x-spot-id the token lists', { 'x-spot-id': OTHER_SPOT }],
  ])(
    'checks the spot of a path under /spots/{spotId} (%s) against the token, before any I/O',
    async (_case, headers) => {
      // Prepare
      const runtime = handlerRuntimeFor(aws.dependencies, { logger: silentLogger(), spotClaim: SPOT_CLAIM });
      const body = { from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
      const event = withJwtClaims(apiRequests.startBackfill(SPOT, body, headers), {
        [SPOT_CLAIM]: `[${OTHER_SPOT}]`,
      });

      // Act
      const response = parseResponse(await makeBackfillsHandler(runtime)(event, lambdaContext()));

      // Assess: refused either way (403 for the spot, 400 for a header naming another spot)
      expect([400, 403]).toContain(response.statusCode);
      expect(aws.dynamoDb.calls()).toHaveLength(0);
    },
  );

  it.each([
    ['lacks the claim', { sub: 'caller' }],
    ['lists a longer spot id that starts with it', { [SPOT_CLAIM]: `${SPOT}2` }],
    ['lists a shorter spot id', { [SPOT_CLAIM]: SPOT.slice(0, -1) }],
    ['lists it under another claim', { spots: SPOT }],
    ['lists it in another case', { [SPOT_CLAIM]: SPOT.toUpperCase() }],
  ])('refuses a token that %s', async (_case, claims) => {
    // Act
    const response = parseResponse(
      await claimChecked.list(withJwtClaims(apiRequests.list(SPOT), claims), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(403);
  });

  it('refuses a request no JWT authorized at all: the check fails closed', async () => {
    // Act
    const response = parseResponse(await claimChecked.list(apiRequests.list(SPOT), lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(403);
  });

  it('still answers 400 for a malformed spot id, whatever the token lists', async () => {
    // Prepare
    const event = withJwtClaims(apiRequests.list('SP demo'), { [SPOT_CLAIM]: 'SP demo' });

    // Act
    const response = parseResponse(await claimChecked.list(event, lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'header.x-spot-id', message: expect.any(String) }]);
  });

  it.each([
    ["API Gateway's flattened array", `[${OTHER_SPOT} ${SPOT}]`],
    ['a JSON array', [OTHER_SPOT, SPOT]],
    ['a comma-separated string', `${OTHER_SPOT},${SPOT}`],
  ])('lets a token listing the spot as %s through to the handler', async (_encoding, claim) => {
    // Act
    const response = parseResponse(
      await claimChecked.list(
        withJwtClaims(apiRequests.list(SPOT), { [SPOT_CLAIM]: claim }),
        lambdaContext(),
      ),
    );

    // Assess
    expect(response.statusCode).toBe(200);
    expect(aws.dynamoDb.calls().length).toBeGreaterThan(0);
  });

  it('starts, checks and aborts an export for a token that lists the spot', async () => {
    // Prepare
    const claims = { [SPOT_CLAIM]: `[${SPOT}]` };

    // Act
    const started = parseResponse(
      await claimChecked.start(withJwtClaims(apiRequests.start(SPOT, DATE_RANGE), claims), lambdaContext()),
    );
    const exportId = String(started.body.exportId);
    const checked = parseResponse(
      await claimChecked.check(withJwtClaims(apiRequests.check(SPOT, exportId), claims), lambdaContext()),
    );
    const aborted = parseResponse(
      await claimChecked.abort(withJwtClaims(apiRequests.abort(SPOT, exportId), claims), lambdaContext()),
    );

    // Assess
    expect(started.statusCode).toBe(202);
    expect(checked.statusCode).toBe(200);
    expect(aborted.statusCode).toBe(202);
    expect(aborted.body.status).toMatch(/^ABORT/);
  });

  it('leaves workflow tasks alone: they carry no caller', async () => {
    // Prepare
    const task = {
      action: 'poll',
      spotId: SPOT,
      exportId: WELL_FORMED_UNKNOWN_EXPORT_ID,
      deadline: '2030-01-01T00:00:00Z',
    };

    // Act
    const outcome = makeWorkflowTaskHandler(
      handlerRuntimeFor(aws.dependencies, { logger: silentLogger(), spotClaim: SPOT_CLAIM }),
    )(task, lambdaContext());

    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'ExportNotFoundError' });
  });

  it('leaves IAM mode (no spot claim configured) as it was: any authorized caller may use any spot', async () => {
    // Act
    const withoutClaims = parseResponse(await unchecked.list(apiRequests.list(SPOT), lambdaContext()));
    const withOtherSpotInToken = parseResponse(
      await unchecked.list(
        withJwtClaims(apiRequests.list(SPOT), { [SPOT_CLAIM]: OTHER_SPOT }),
        lambdaContext(),
      ),
    );

    // Assess
    expect(withoutClaims.statusCode).toBe(200);
    expect(withOtherSpotInToken.statusCode).toBe(200);
  });
});

describe('spot claim configuration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  afterAll(() => {
    removeTestAssemblies();
  });

  it('reads AUTH_SPOT_CLAIM, and leaves the check off when it is unset', () => {
    // Act
    const configured = loadConfig({ AUTH_SPOT_CLAIM: 'https://example.com/spots' });
    const unset = loadConfig({});

    // Assess
    expect(configured.authorization.spotClaim).toBe('https://example.com/spots');
    expect(unset.authorization.spotClaim).toBeUndefined();
  });

  it('refuses a claim name with spaces', () => {
    // Act / Assess
    expect(() => loadConfig({ AUTH_SPOT_CLAIM: 'my spots' })).toThrow(ConfigError);
  });

  it('gives the deployed handlers the claim from their environment', () => {
    // Prepare
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('TABLE_NAME', 'openweb-exports');
    vi.stubEnv('STATE_MACHINE_ARN', 'arn:aws:states:eu-west-1:123456789012:stateMachine:ExportPolling');
    vi.stubEnv('AUTH_SPOT_CLAIM', SPOT_CLAIM);

    // Act
    const spotClaim = defaultHandlerRuntime(LIFECYCLE_ADAPTERS).spotClaim?.();

    // Assess
    expect(spotClaim).toBe(SPOT_CLAIM);
  });

  it(
    'passes auth.spotClaim to every function as AUTH_SPOT_CLAIM in JWT mode',
    () => {
      // Act
      const withClaim = synthesizeTestStack({ auth: { ...JWT_AUTH, spotClaim: SPOT_CLAIM } });
      const withoutClaim = synthesizeTestStack({ auth: JWT_AUTH });

      // Assess
      for (const handler of Object.values(HandlerNames)) {
        const variablesOf = (template: typeof withClaim.template) =>
          (functionOf(template, handler)[1].Properties.Environment as { Variables: Record<string, unknown> })
            .Variables;
        expect(variablesOf(withClaim.template).AUTH_SPOT_CLAIM).toBe(SPOT_CLAIM);
        expect(variablesOf(withoutClaim.template)).not.toHaveProperty('AUTH_SPOT_CLAIM');
      }
    },
    TWO_SYNTHESES_TIMEOUT_MS,
  );

  it('accepts a spot claim only in JWT mode', () => {
    // Act / Assess
    expect(() => parseStackConfig({ auth: { mode: 'iam', spotClaim: SPOT_CLAIM } })).toThrow(
      StackConfigError,
    );
    expect(() => parseStackConfig({ auth: { ...JWT_AUTH, spotClaim: 'two words' } })).toThrow(
      StackConfigError,
    );
    expect(parseStackConfig({ auth: { ...JWT_AUTH, spotClaim: SPOT_CLAIM } }).auth).toMatchObject({
      spotClaim: SPOT_CLAIM,
    });
  });
});
