import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  EVENT_BUS_NAME,
  finishUpstreamExport,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startAndCreateThroughHandlers,
  startMockedAwsRuntime,
} from './support/mockedAwsRuntime';

describe('check-status handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeCheckStatusHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeCheckStatusHandler(aws.runtime);
    exportId = await startAndCreateThroughHandlers(aws);
  });

  afterEach(async () => {
    await aws.close();
  });

  const finishUpstream = (outcome: 'completed' | 'failed' = 'completed') =>
    finishUpstreamExport(aws, outcome);

  describe('from the API (GET /exports/{exportId})', () => {
    it('answers 200 with the export while it runs', async () => {
      // Act
      const response = parseResponse(await handler(apiRequests.check(SPOT, exportId), lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatchObject({ exportId, spotId: SPOT, status: 'PROCESSING' });
    });

    it('sees completion upstream, records the links and announces it on the bus', async () => {
      // Prepare
      finishUpstream();

      // Act
      const response = parseResponse(await handler(apiRequests.check(SPOT, exportId), lambdaContext()));

      // Assess
      expect(response.body).toMatchObject({
        status: 'COMPLETED',
        links: expect.arrayContaining([expect.any(String)]),
      });
      expect(aws.publishedEvents()).toEqual([
        {
          detailType: 'Export Completed',
          detail: expect.objectContaining({
            spotId: SPOT,
            exportId,
            status: 'COMPLETED',
            links: response.body.links,
          }),
        },
      ]);
      expect(aws.eventBridge.calls()[0]?.args[0].input).toMatchObject({
        Entries: [{ EventBusName: EVENT_BUS_NAME, Source: 'openweb-exports' }],
      });
    });

    it("answers 404 for another spot's export, exactly as for an unknown one", async () => {
      // Act
      const otherSpot = parseResponse(
        await handler(apiRequests.check(OTHER_SPOT, exportId), lambdaContext()),
      );
      const malformed = parseResponse(await handler(apiRequests.check(SPOT, 'not-an-id'), lambdaContext()));

      // Assess
      expect(otherSpot.statusCode).toBe(404);
      expect(otherSpot.body).toEqual(malformed.body);
      expect(otherSpot.body).toMatchObject({ type: '/problems/export-not-found', status: 404 });
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ action: 'dance' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
