import { StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { WorkflowErrorNames } from '../../../lib/exports/workflow/workflowContract';
import { InvalidTaskInputError } from '../../../lib/exports/workflow/workflowTaskInput';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  createTaskEvent,
  DATE_RANGE,
  finishUpstreamExport,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startAndCreateThroughHandlers,
  startMockedAwsRuntime,
} from './support/mockedAwsRuntime';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe('workflow-task handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeWorkflowTaskHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeWorkflowTaskHandler(aws.runtime);
    exportId = await startAndCreateThroughHandlers(aws);
  });

  afterEach(async () => {
    await aws.close();
  });

  const finishUpstream = (outcome: 'completed' | 'failed' = 'completed') =>
    finishUpstreamExport(aws, outcome);

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
      expect((error as Error).name).toBe(WorkflowErrorNames.CREATE_DEFERRED);
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
      expect((error as Error).name).toBe(WorkflowErrorNames.CREATE_REJECTED);
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
      expect((error as Error).name).toBe(WorkflowErrorNames.POLLING_TIMED_OUT);
      expect(aws.simulator.requestsTo('create')).toHaveLength(1);
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

  describe('as the workflow timeout task', () => {
    it('aborts with the timeout reason and answers {spotId, exportId, status} without stopping its own workflow', async () => {
      // Act
      const output = await handler({ action: 'abortOnTimeout', spotId: SPOT, exportId }, lambdaContext());

      // Assess
      expect(output).toEqual({ spotId: SPOT, exportId, status: 'ABORTED' });
      expect(aws.stepFunctions).not.toHaveReceivedCommand(StopExecutionCommand);
      const record = await aws.dependencies.store.getExport(SPOT, exportId);
      expect(record?.failureReason).toBe('polling deadline passed');
    });

    it('answers the final status when the export completed first', async () => {
      // Prepare
      aws.simulator.finishExport(aws.simulator.listExports(SPOT)[0]?.id ?? '', 'completed');
      await makeCheckStatusHandler(aws.runtime)(apiRequests.check(SPOT, exportId), lambdaContext());

      // Act
      const output = await handler({ action: 'abortOnTimeout', spotId: SPOT, exportId }, lambdaContext());

      // Assess
      expect(output).toEqual({ spotId: SPOT, exportId, status: 'COMPLETED' });
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ action: 'dance' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
