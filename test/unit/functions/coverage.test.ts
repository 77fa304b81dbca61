import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { makeCoverageHandler } from '../../../functions/coverage';
import { WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import { coverageWindowFixture } from '../../support/coverageWindowFixtures';
import { InMemoryCoverageLedger } from '../../support/inMemoryPorts';
import { OpenApiResponseValidator } from '../../support/openApiResponses';

const SPOT = 'sp_demo';
const NOW_MS = Date.parse('2026-11-10T12:00:00Z');
const SPOT_CLAIM = 'custom:spots';
const openApi = OpenApiResponseValidator.committed();

/** A spot with a covered day and a gap after it. */
async function coverageHandler(options: { spotClaim?: string } = {}) {
  const coverage = new InMemoryCoverageLedger();
  await coverage.claimWindow(
    coverageWindowFixture({ spotId: SPOT, from: '2026-11-08T00:00:00Z', until: '2026-11-09T00:00:00Z' }),
  );
  await coverage.claimWindow(
    coverageWindowFixture({
      spotId: SPOT,
      from: '2026-11-09T00:00:00Z',
      until: '2026-11-09T06:00:00Z',
      state: WindowState.GAP,
    }),
  );
  await coverage.advanceWatermark(SPOT, 'daily', '2026-11-09T06:00:00Z', '2026-11-09T06:00:01.000Z');
  const runtime = handlerRuntimeFor(
    { coverage, metrics: new InMemoryExportMetrics(), now: () => NOW_MS },
    { logger: silentLogger(), ...options },
  );
  return makeCoverageHandler(runtime);
}

async function answer(handler: Awaited<ReturnType<typeof coverageHandler>>, event: APIGatewayProxyEventV2) {
  const response = parseResponse(await handler(event, lambdaContext()));
  openApi.assertDocumented('GET', event.rawPath, {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
  });
  return response;
}

function withJwtClaims(
  event: APIGatewayProxyEventV2,
  claims: Record<string, unknown>,
): APIGatewayProxyEventV2 {
  return {
    ...event,
    requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: null } } },
  } as APIGatewayProxyEventV2;
}

describe('coverage handler', () => {
  it("answers the spot's coverage from its earliest window up to now, with its watermarks", async () => {
    // Prepare
    const handler = await coverageHandler();

    // Act
    const response = await answer(handler, apiRequests.coverage(SPOT));

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toMatchObject({
      spotId: SPOT,
      range: { from: '2026-11-08T00:00:00Z', until: '2026-11-10T12:00:00Z' },
      covered: [{ from: '2026-11-08T00:00:00Z', until: '2026-11-09T00:00:00Z' }],
      gaps: [{ from: '2026-11-09T00:00:00Z', until: '2026-11-09T06:00:00Z', openHours: 6 }],
      summary: { hours: 60, coveredHours: 24, inFlightHours: 0, gapHours: 6, notPlannedHours: 30 },
      watermarks: [{ schedule: 'daily', until: '2026-11-09T06:00:00Z' }],
    });
  });

  it.each([
    ['a date without a time', { from: '2026-11-08' }, 'query.from'],
    ['an instant with milliseconds', { until: '2026-11-09T00:00:00.000Z' }, 'query.until'],
    ['a day that does not exist', { from: '2026-02-30T00:00:00Z' }, 'query.from'],
    ['from after until', { from: '2026-11-09T00:00:00Z', until: '2026-11-08T00:00:00Z' }, 'query.until'],
    ['from equal to until', { from: '2026-11-09T00:00:00Z', until: '2026-11-09T00:00:00Z' }, 'query.until'],
    ['from in the future without until', { from: '2026-11-11T00:00:00Z' }, 'query.from'],
    ['a range over 366 days', { from: '2025-11-01T00:00:00Z', until: '2026-11-03T00:00:00Z' }, 'query.until'],
    ['a range over 366 days up to now', { from: '2025-11-01T00:00:00Z' }, 'query.from'],
    ['a limit of 0', { limit: '0' }, 'query.limit'],
    ['a limit over 1000', { limit: '1001' }, 'query.limit'],
    ['a token that is not one', { nextToken: 'not a token!' }, 'query.nextToken'],
    ['a forged token', { nextToken: 'Zm9yZ2Vk' }, 'query.nextToken'],
    ['an unknown parameter', { since: '2026-11-01T00:00:00Z' }, 'query.since'],
  ])('refuses %s with a 400 problem naming %j', async (_, query, field) => {
    // Prepare
    const handler = await coverageHandler();

    // Act
    const response = await answer(handler, apiRequests.coverage(SPOT, query as Record<string, string>));

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({ type: '/problems/invalid-request', status: 400 });
    expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
  });

  it('refuses a path that names another spot than x-spot-id, or no spot, with a 400, and takes the path alone', async () => {
    // Prepare
    const handler = await coverageHandler();

    // Act
    const otherSpot = await answer(handler, apiRequests.coverage(SPOT, {}, 'sp_other'));
    const notASpot = await answer(handler, apiRequests.coverage(SPOT, {}, 'demo'));
    const noHeader = await answer(handler, {
      ...apiRequests.coverage(SPOT),
      headers: {},
    });

    // Assess
    expect(otherSpot.statusCode).toBe(400);
    expect(otherSpot.body.errors).toEqual([
      { field: 'header.x-spot-id', message: 'must name the spot of the path, or be left out' },
    ]);
    expect(notASpot.body.errors).toEqual([{ field: 'path.spotId', message: expect.stringContaining('sp_') }]);
    // The path names the spot: x-spot-id may be left out.
    expect(noHeader.statusCode).toBe(200);
  });

  it('answers 403 in JWT mode when the token does not list the spot, and 200 when it does', async () => {
    // Prepare
    const handler = await coverageHandler({ spotClaim: SPOT_CLAIM });

    // Act
    const refused = await answer(
      handler,
      withJwtClaims(apiRequests.coverage(SPOT), { [SPOT_CLAIM]: 'sp_other' }),
    );
    const noClaims = await answer(handler, apiRequests.coverage(SPOT));
    const allowed = await answer(handler, withJwtClaims(apiRequests.coverage(SPOT), { [SPOT_CLAIM]: SPOT }));

    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({ type: '/problems/spot-not-allowed' });
    expect(noClaims.statusCode).toBe(403);
    expect(allowed.statusCode).toBe(200);
  });

  it('answers a spot nothing was planned for with every hour not planned, as it would any spot', async () => {
    // Prepare
    const handler = await coverageHandler();

    // Act
    const response = await answer(
      handler,
      apiRequests.coverage('sp_nobody', { from: '2026-11-09T00:00:00Z', until: '2026-11-10T00:00:00Z' }),
    );

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatchObject({
      covered: [],
      gaps: [],
      watermarks: [],
      summary: { hours: 24, notPlannedHours: 24 },
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Prepare
    const handler = await coverageHandler();

    // Act / Assess
    await expect(handler({ source: 'schedule' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
