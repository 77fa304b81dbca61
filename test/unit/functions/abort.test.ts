import { StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  createTaskEvent,
  DATE_RANGE,
  EXECUTION_ARN_PREFIX,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
} from './support/mockedAwsRuntime';

describe('abort handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeAbortHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeAbortHandler(aws.runtime);
    const started = await makeStartHandler(aws.runtime)(apiRequests.start(SPOT, DATE_RANGE), lambdaContext());
    exportId = parseResponse(started).body.exportId as string;
    await makeWorkflowTaskHandler(aws.runtime)(createTaskEvent(SPOT, exportId), lambdaContext());
  });

  afterEach(async () => {
    await aws.close();
  });

  describe('from the API (POST /exports/{exportId}/abort)', () => {
    it('aborts an export whose create was never sent without calling the upstream, and stops its workflow', async () => {
      // Prepare
      const started = await makeStartHandler(aws.runtime)(
        apiRequests.start(OTHER_SPOT, DATE_RANGE),
        lambdaContext(),
      );
      const waiting = parseResponse(started).body.exportId as string;

      // Act
      const response = parseResponse(await handler(apiRequests.abort(OTHER_SPOT, waiting), lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(202);
      expect(response.body).toMatchObject({ exportId: waiting, status: 'ABORTED' });
      expect(aws.simulator.requestsTo('abort')).toHaveLength(0);
      expect(aws.simulator.listExports(OTHER_SPOT)).toHaveLength(0);
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StopExecutionCommand, {
        executionArn: `${EXECUTION_ARN_PREFIX}${waiting}`,
      });
      // The workflow's create task, should it still run, finds the export finished and sends nothing.
      await makeWorkflowTaskHandler(aws.runtime)(createTaskEvent(OTHER_SPOT, waiting), lambdaContext());
      expect(aws.simulator.listExports(OTHER_SPOT)).toHaveLength(0);
    });

    it('aborts upstream, answers 202 ABORTED, stops the workflow and announces it', async () => {
      // Act
      const response = parseResponse(await handler(apiRequests.abort(SPOT, exportId), lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(202);
      expect(response.body).toMatchObject({ exportId, status: 'ABORTED' });
      expect(aws.simulator.requestsTo('abort')).toHaveLength(1);
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StopExecutionCommand, {
        executionArn: `${EXECUTION_ARN_PREFIX}${exportId}`,
      });
      expect(aws.publishedEvents().map((event) => event.detailType)).toEqual(['Export Aborted']);
    });

    it('answers 202 again for an export already aborted, without asking the upstream again', async () => {
      // Prepare
      await handler(apiRequests.abort(SPOT, exportId), lambdaContext());

      // Act
      const again = parseResponse(await handler(apiRequests.abort(SPOT, exportId), lambdaContext()));

      // Assess
      expect(again.statusCode).toBe(202);
      expect(again.body.status).toBe('ABORTED');
      expect(aws.simulator.requestsTo('abort')).toHaveLength(1);
    });

    it('answers 409 once the export completed', async () => {
      // Prepare: the workflow's poll records the end
      aws.simulator.finishExport(aws.simulator.listExports(SPOT)[0]?.id ?? '', 'completed');
      const poll = { action: 'poll', spotId: SPOT, exportId, deadline: '2026-11-02T12:00:00.000Z' };
      await expect(makeWorkflowTaskHandler(aws.runtime)(poll, lambdaContext())).resolves.toMatchObject({
        status: 'COMPLETED',
      });

      // Act
      const response = parseResponse(await handler(apiRequests.abort(SPOT, exportId), lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(409);
      expect(response.body).toMatchObject({
        type: '/problems/export-already-finished',
        exportStatus: 'COMPLETED',
      });
    });

    it("answers 404 for another spot's export and touches nothing", async () => {
      // Act
      const response = parseResponse(await handler(apiRequests.abort(OTHER_SPOT, exportId), lambdaContext()));

      // Assess
      expect(response.statusCode).toBe(404);
      expect(aws.simulator.requestsTo('abort')).toHaveLength(0);
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler('abort everything', lambdaContext())).rejects.toBeInstanceOf(UnrecognisedEventError);
  });
});
