import { describe, expect, it } from 'vitest';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADERS_BYTES } from '../../../../lib/http/apiRequestLimits';
import { createHandler } from '../../../../lib/runtime/createHandler';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, parseResponse, silentLogger } from '../../../support/apiGatewayEvents';

function echoHandler() {
  const runtime = {
    logger: silentLogger(),
    metrics: new InMemoryExportMetrics(),
    dependencies: () => ({}) as ExportDependencies,
  };
  return createHandler(runtime, async () => ({ statusCode: 204 }));
}

describe('apiRequestLimits (through createExportHandler)', () => {
  it('answers 413 for a body over the limit', async () => {
    // Act
    const response = parseResponse(
      await echoHandler()(
        apiEvent({ method: 'POST', body: 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1) }),
        lambdaContext(),
      ),
    );

    // Assess
    expect(response.statusCode).toBe(413);
    expect(response.body).toMatchObject({ type: '/problems/payload-too-large', status: 413 });
  });

  it('measures a base64 body by its decoded size', async () => {
    // Prepare
    const atLimit = Buffer.alloc(MAX_REQUEST_BODY_BYTES, 'a').toString('base64');
    const overLimit = Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 'a').toString('base64');

    // Act
    const accepted = await echoHandler()(
      apiEvent({ method: 'POST', body: atLimit, isBase64Encoded: true }),
      lambdaContext(),
    );
    const refused = parseResponse(
      await echoHandler()(
        apiEvent({ method: 'POST', body: overLimit, isBase64Encoded: true }),
        lambdaContext(),
      ),
    );

    // Assess
    expect(accepted).toEqual({ statusCode: 204 });
    expect(refused.statusCode).toBe(413);
  });

  it('counts multi-byte characters as bytes', async () => {
    // Prepare: under the limit in characters, over it in UTF-8 bytes
    const body = 'é'.repeat(MAX_REQUEST_BODY_BYTES / 2 + 1);

    // Act
    const response = parseResponse(await echoHandler()(apiEvent({ method: 'POST', body }), lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(413);
  });

  it('answers 431 for headers over the limit', async () => {
    // Act
    const response = parseResponse(
      await echoHandler()(
        apiEvent({ headers: { 'x-padding': 'p'.repeat(MAX_REQUEST_HEADERS_BYTES) } }),
        lambdaContext(),
      ),
    );

    // Assess
    expect(response.statusCode).toBe(431);
    expect(response.body).toMatchObject({ type: '/problems/request-headers-too-large', status: 431 });
  });

  it('lets requests within the limits and other event sources through', async () => {
    // Act
    const api = await echoHandler()(apiEvent({ method: 'POST', body: '{}' }), lambdaContext());
    const task = await echoHandler()(
      { action: 'poll', padding: 'p'.repeat(MAX_REQUEST_BODY_BYTES * 2) },
      lambdaContext(),
    );

    // Assess
    expect(api).toEqual({ statusCode: 204 });
    expect(task).toEqual({ statusCode: 204 });
  });
});
