import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeGetExportHandler } from '../../../functions/get-export';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  createTaskEvent,
  DATE_RANGE,
  EVENT_BUS_NAME,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
} from './support/mockedAwsRuntime';

const MINUTE_MS = 60_000;
const _HOUR_MS = 60 * MINUTE_MS;

describe('get-export handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeGetExportHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeGetExportHandler(aws.runtime);
    const started = await makeStartHandler(aws.runtime)(apiRequests.start(SPOT, DATE_RANGE), lambdaContext());
    exportId = parseResponse(started).body.exportId as string;
    // The workflow's first step: the upstream create.
    await makeWorkflowTaskHandler(aws.runtime)(createTaskEvent(SPOT, exportId), lambdaContext());
  });

  afterEach(async () => {
    await aws.close();
  });

  function finishUpstream(outcome: 'completed' | 'failed' = 'completed'): void {
    const upstreamId = aws.simulator.listExports(SPOT)[0]?.id ?? '';
    aws.simulator.finishExport(upstreamId, outcome);
  }

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
