import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeStartHandler } from '../../../functions/start';
import { PollingWorkflowErrors } from '../../../lib/exports/pollingWorkflowContract';
import { InvalidTaskInputError, UnrecognisedEventError } from '../../../lib/runtime/errors';
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
const HOUR_MS = 60 * MINUTE_MS;

describe('check-status handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeCheckStatusHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeCheckStatusHandler(aws.runtime);
    const started = await makeStartHandler(aws.runtime)(apiRequests.start(SPOT, DATE_RANGE), lambdaContext());
    exportId = parseResponse(started).body.exportId as string;
    // The workflow's first step: the upstream create.
    await handler(createTaskEvent(SPOT, exportId), lambdaContext());
  });

  afterEach(async () => {
    await aws.close();
  });

  function finishUpstream(outcome: 'completed' | 'failed' = 'completed'): void {
    const upstreamId = aws.simulator.listExports(SPOT)[0]?.id ?? '';
    aws.simulator.finishExport(upstreamId, outcome);
  }

  describe('as the workflow create task', () => {
    let fresh: string;

    beforeEach(async () => {
      // A second spot's export that has not been created upstream yet.
      const started = await makeStartHandler(aws.runtime)(
        apiRequests.start(OTHER_SPOT, DATE_RANGE),
        lambdaContext(),
      );
      fresh = parseResponse(started).body.exportId as string;
    });

    it('creates the export upstream and answers the state the poll loop reads', async () => {
      // Act
      const output = await handler(createTaskEvent(OTHER_SPOT, fresh), lambdaContext());

      // Assess
      expect(output).toEqual({
        spotId: OTHER_SPOT,
        exportId: fresh,
        deadline: '2026-11-02T12:00:00.000Z',
        firstPollDelaySeconds: expect.any(Number),
      });
      const stored = await aws.dependencies.store.getExport(OTHER_SPOT, fresh);
      expect(stored).toMatchObject({ status: 'PROCESSING', createAttempts: 1 });
      expect(stored?.upstreamExportId).toBe(aws.simulator.listExports(OTHER_SPOT)[0]?.id);
      expect(aws.metrics.published.get('ExportsStarted')).toBe(2);
    });

    it('throws ExportCreateDeferred while the upstream throttles, records why, and sends nothing twice', async () => {
      // Prepare
      aws.simulator.setFaults({
        script: [{ endpoint: 'create', kind: 'rateLimit', times: 5, retryAfterSeconds: 30 }],
      });

      // Act
      const error = await handler(createTaskEvent(OTHER_SPOT, fresh), lambdaContext()).catch(
        (e: unknown) => e,
      );

      // Assess
      expect((error as Error).name).toBe(PollingWorkflowErrors.CREATE_DEFERRED);
      const stored = await aws.dependencies.store.getExport(OTHER_SPOT, fresh);
      expect(stored).toMatchObject({
        status: 'REQUESTED',
        createAttempts: 1,
        lastUpstreamWait: { kind: 'throttled' },
        nextCreateAttemptAt: expect.any(String),
      });
      // The claim was given back: nothing reached the upstream, so the next attempt may send.
      expect(stored?.upstreamCreateAttemptedAt).toBeUndefined();
      expect(aws.simulator.listExports(OTHER_SPOT)).toHaveLength(0);
    });

    it('marks the export FAILED with the reason and throws ExportCreateRejected when the upstream refuses', async () => {
      // Prepare
      aws.simulator.setFaults({ script: [{ endpoint: 'create', kind: 'error', status: 400 }] });

      // Act
      const error = await handler(createTaskEvent(OTHER_SPOT, fresh), lambdaContext()).catch(
        (e: unknown) => e,
      );

      // Assess
      expect((error as Error).name).toBe(PollingWorkflowErrors.CREATE_REJECTED);
      const stored = await aws.dependencies.store.getExport(OTHER_SPOT, fresh);
      expect(stored?.status).toBe('FAILED');
      expect(stored?.failureReason).toContain('InvalidExportRequest');
      expect(aws.publishedEvents().map((event) => event.detailType)).toEqual(['Export Failed']);
    });

    it('throws ExportPollingTimedOut past the deadline without calling the upstream', async () => {
      // Act
      const error = await handler(
        createTaskEvent(OTHER_SPOT, fresh, '2026-11-01T11:00:00.000Z'),
        lambdaContext(),
      ).catch((e: unknown) => e);

      // Assess
      expect((error as Error).name).toBe(PollingWorkflowErrors.POLLING_TIMED_OUT);
      expect(aws.simulator.requestsTo('create')).toHaveLength(1);
    });
  });

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

  describe('as the polling workflow task', () => {
    const pollInput = () => ({
      action: 'poll',
      spotId: SPOT,
      exportId,
      deadline: new Date(aws.clock.now() + HOUR_MS).toISOString(),
    });

    it('throws ExportStillProcessing while the upstream works, for the Retry to back off', async () => {
      // Act / Assess
      await expect(handler(pollInput(), lambdaContext())).rejects.toMatchObject({
        name: 'ExportStillProcessing',
      });
    });

    it('returns the terminal status and the number of files once finished, the links staying in the record', async () => {
      // Prepare
      finishUpstream();

      // Act
      const output = await handler(pollInput(), lambdaContext());

      // Assess
      expect(output).toEqual({
        spotId: expect.any(String),
        exportId,
        status: 'COMPLETED',
        fileCount: expect.any(Number),
      });
      expect((output as { fileCount: number }).fileCount).toBeGreaterThan(0);
      expect(JSON.stringify(output)).not.toContain('http');
    });

    it('throws ExportPollingTimedOut past the deadline, for the Catch to abort', async () => {
      // Prepare
      const input = { ...pollInput(), deadline: new Date(aws.clock.now() - 1).toISOString() };

      // Act / Assess
      await expect(handler(input, lambdaContext())).rejects.toMatchObject({ name: 'ExportPollingTimedOut' });
    });

    it('throws InvalidTaskInputError for an input out of contract', async () => {
      // Act / Assess
      await expect(handler({ action: 'poll', spotId: SPOT }, lambdaContext())).rejects.toBeInstanceOf(
        InvalidTaskInputError,
      );
    });
  });

  describe('as the scheduled reconciler', () => {
    it('restarts the workflow of a stale export whose execution is gone and reports a summary', async () => {
      // Prepare
      aws.clock.advance(20 * MINUTE_MS);
      aws.stepFunctions.resetHistory();

      // Act
      const summary = await handler({ source: 'reconciler' }, lambdaContext());

      // Assess
      expect(summary).toEqual({ examined: 1, finished: 0, workflowsRestarted: 1, failures: 0 });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(DescribeExecutionCommand, {
        executionArn: expect.stringMatching(new RegExp(`:execution:ExportPolling:${exportId}$`)),
      });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StartExecutionCommand, { name: `${exportId}-r1` });
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ action: 'dance' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
