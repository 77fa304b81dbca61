import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import { MAX_REQUEST_BODY_BYTES } from '../../../../lib/http/apiRequestLimits';
import { jsonResponse } from '../../../../lib/http/jsonResponse';
import { createHandler } from '../../../../lib/runtime/createHandler';
import type { HandlerRuntime } from '../../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, parseResponse, silentLogger } from '../../../support/apiGatewayEvents';

const SPOT = 'sp_allowed';
const OTHER_SPOT = 'sp_other';
const SPOT_CLAIM = 'spots';

function runtimeWith(options: { spotClaim?: string } = {}) {
  const dependencies = vi.fn(() => ({}) as ExportDependencies);
  const runtime: HandlerRuntime = {
    logger: silentLogger(),
    metrics: new InMemoryExportMetrics(),
    dependencies,
    spotClaim: () => options.spotClaim,
  };
  return { runtime, dependencies };
}

/** A JWT-authorized request for `spotId`, its verified claims listing `claimed`. */
function jwtRequest(spotId: string, claimed: string): APIGatewayProxyEventV2 {
  const event = apiEvent({ headers: { 'x-spot-id': spotId } });
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: { jwt: { claims: { [SPOT_CLAIM]: claimed }, scopes: [] } },
    } as APIGatewayProxyEventV2['requestContext'],
  };
}

describe('createHandler', () => {
  it('routes the event with the dependencies and publishes what the route counted', async () => {
    // Prepare
    const { runtime, dependencies } = runtimeWith();
    const handler = createHandler(runtime, async (event, deps) => {
      runtime.metrics.count('ExportsStarted');
      return jsonResponse(200, { routed: (event as APIGatewayProxyEventV2).routeKey, deps });
    });

    // Act
    const response = parseResponse(
      await handler(apiEvent({ headers: { 'x-spot-id': SPOT } }), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ routed: 'GET /exports', deps: {} });
    expect(dependencies).toHaveBeenCalledTimes(1);
    expect((runtime.metrics as InMemoryExportMetrics).published.get('ExportsStarted')).toBe(1);
  });

  it('answers a domain error as its problem+json', async () => {
    // Prepare
    const { runtime } = runtimeWith();
    const handler = createHandler(runtime, async () => {
      throw new SpotBusyError(SPOT, {
        spotId: SPOT,
        exportId: 'ex_active',
        acquiredAt: '2026-11-28T10:00:00Z',
        expiresAtEpochSeconds: 1_800_000_000,
      });
    });

    // Act
    const response = parseResponse(
      await handler(apiEvent({ headers: { 'x-spot-id': SPOT } }), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({
      type: expect.stringContaining('spot-busy'),
      activeExportId: 'ex_active',
    });
  });

  it('refuses a body over the limit before any dependency is built', async () => {
    // Prepare
    const { runtime, dependencies } = runtimeWith();
    const route = vi.fn(async () => jsonResponse(200, {}));
    const handler = createHandler(runtime, route);
    const event = apiEvent({
      method: 'POST',
      headers: { 'x-spot-id': SPOT, 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(MAX_REQUEST_BODY_BYTES) }),
    });

    // Act
    const response = parseResponse(await handler(event, lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(413);
    expect(route).not.toHaveBeenCalled();
    expect(dependencies).not.toHaveBeenCalled();
  });

  it("refuses a spot the caller's verified claims do not list, and lets one they list through", async () => {
    // Prepare
    const { runtime, dependencies } = runtimeWith({ spotClaim: SPOT_CLAIM });
    const handler = createHandler(runtime, async () => jsonResponse(200, { ok: true }));

    // Act
    const refused = parseResponse(await handler(jwtRequest(OTHER_SPOT, SPOT), lambdaContext()));
    const allowed = parseResponse(await handler(jwtRequest(SPOT, SPOT), lambdaContext()));

    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({ type: expect.stringContaining('spot-not-allowed') });
    expect(allowed.statusCode).toBe(200);
    expect(dependencies).toHaveBeenCalledTimes(1);
  });

  it('tags log lines with the request and spot during an invocation only', async () => {
    // Prepare
    const { runtime } = runtimeWith();
    const handler = createHandler(runtime, async () => jsonResponse(200, {}));
    const appendKeys = vi.spyOn(runtime.logger, 'appendKeys');
    const removeKeys = vi.spyOn(runtime.logger, 'removeKeys');
    const event = apiEvent({ headers: { 'x-spot-id': SPOT } });

    // Act
    await handler(event, lambdaContext());

    // Assess
    expect(appendKeys).toHaveBeenCalledWith({ apiRequestId: event.requestContext.requestId, spotId: SPOT });
    expect(removeKeys).toHaveBeenCalledWith(['apiRequestId', 'spotId', 'exportId']);
  });

  it('lets an error of another source propagate instead of answering it as HTTP', async () => {
    // Prepare
    const { runtime } = runtimeWith();
    const failure = new Error('schedule run failed');
    const handler = createHandler(runtime, async () => {
      throw failure;
    });

    // Act
    const thrown = await handler({ source: 'aws.scheduler' }, lambdaContext()).catch(
      (error: unknown) => error,
    );

    // Assess
    expect(thrown).toBe(failure);
  });
});
