import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeStartHandler } from '../../../functions/start';
import { InvalidScheduledExportEventError } from '../../../lib/events/errors';
import type { ScheduleRunResult } from '../../../lib/exports/coverage/runSchedule';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  DATE_RANGE,
  type MockedAwsRuntime,
  SECRET_NAME_PREFIX,
  SPOT,
  STATE_MACHINE_ARN,
  startMockedAwsRuntime,
  UNCONFIGURED_SPOT,
} from './support/mockedAwsRuntime';

describe('start handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeStartHandler>;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeStartHandler(aws.runtime);
  });

  afterEach(async () => {
    await aws.close();
  });

  describe('from the API (POST /exports)', () => {
    it('answers 202 with the REQUESTED export, records it and starts its workflow, without calling the upstream', async () => {
      // Act
      const response = parseResponse(await handler(apiRequests.start(SPOT, DATE_RANGE), lambdaContext()));

      // Assess
      const exportId = response.body.exportId as string;
      expect(response.statusCode).toBe(202);
      expect(response.headers.location).toBe(`/exports/${exportId}`);
      expect(response.body).toMatchObject({
        spotId: SPOT,
        status: 'REQUESTED',
        source: 'api',
        request: { kind: 'dateRange', ...DATE_RANGE },
      });
      expect(response.body).not.toHaveProperty('version');
      expect(response.body).not.toHaveProperty('idempotencyKey');
      expect(response.body).not.toHaveProperty('upstreamExportId');
      expect(aws.dynamoDb).toHaveReceivedCommandWith(PutCommand, { TableName: aws.tableName });
      expect(aws.secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
        SecretId: `${SECRET_NAME_PREFIX}${SPOT}`,
      });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StartExecutionCommand, {
        stateMachineArn: STATE_MACHINE_ARN,
        name: exportId,
      });
      const input = JSON.parse(
        aws.stepFunctions.commandCalls(StartExecutionCommand)[0]?.args[0].input.input ?? '',
      );
      expect(input).toMatchObject({ spotId: SPOT, exportId });
      // The workflow's create task authenticates and creates; the request path does neither.
      expect(aws.simulator.requestsTo('auth')).toHaveLength(0);
      expect(aws.simulator.requestsTo('create')).toHaveLength(0);
    });

    it('answers a repeated Idempotency-Key with the same export and creates nothing more upstream', async () => {
      // Prepare
      const headers = { 'idempotency-key': 'nightly-2026-11-01' };
      const first = parseResponse(
        await handler(apiRequests.start(SPOT, DATE_RANGE, headers), lambdaContext()),
      );

      // Act
      const second = parseResponse(
        await handler(apiRequests.start(SPOT, DATE_RANGE, headers), lambdaContext()),
      );

      // Assess
      expect(second.statusCode).toBe(first.statusCode);
      expect(second.body.exportId).toBe(first.body.exportId);
      expect(second.headers.location).toBe(first.headers.location);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(aws.stepFunctions.commandCalls(StartExecutionCommand)).toHaveLength(1);
    });

    it('refuses an invalid body with 400 listing the fields, before touching DynamoDB', async () => {
      // Act
      const response = parseResponse(
        await handler(
          apiRequests.start(SPOT, { from: 'yesterday', until: DATE_RANGE.until }),
          lambdaContext(),
        ),
      );

      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ type: '/problems/invalid-request', status: 400 });
      expect(response.body.errors).toEqual([{ field: 'body.from', message: expect.any(String) }]);
      expect(aws.dynamoDb.calls()).toHaveLength(0);
    });

    it('records an urgent start as such and shows it, and refuses an urgent that is not a boolean', async () => {
      // Act
      const urgent = parseResponse(
        await handler(apiRequests.start(SPOT, { ...DATE_RANGE, urgent: true }), lambdaContext()),
      );
      const refused = parseResponse(
        await handler(apiRequests.start(SPOT, { ...DATE_RANGE, urgent: 'yes' }), lambdaContext()),
      );

      // Assess
      expect(urgent.statusCode).toBe(202);
      expect(urgent.body).toMatchObject({ urgent: true, request: { kind: 'dateRange', ...DATE_RANGE } });
      expect(aws.dynamoDb).toHaveReceivedCommandWith(PutCommand, {
        Item: expect.objectContaining({ urgent: true }),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'body.urgent', message: 'must be true or false' }]);
    });

    it('answers 422 for a spot with no credentials and records nothing', async () => {
      // Act
      const response = parseResponse(
        await handler(apiRequests.start(UNCONFIGURED_SPOT, DATE_RANGE), lambdaContext()),
      );

      // Assess
      expect(response.statusCode).toBe(422);
      expect(response.body).toMatchObject({ type: '/problems/spot-not-configured' });
      // Where the operator must add them: the secret's name, which is configuration, not a value.
      expect(response.body.detail).toBe(
        `No OpenWeb credentials are configured for spot ${UNCONFIGURED_SPOT}: looked in secret ${SECRET_NAME_PREFIX}${UNCONFIGURED_SPOT}.`,
      );
      expect(aws.dynamoDb).not.toHaveReceivedCommand(PutCommand);
      expect(aws.stepFunctions).not.toHaveReceivedCommand(StartExecutionCommand);
      expect(aws.publishedEvents()).toEqual([]);
      expect(aws.simulator.requestsTo('create')).toHaveLength(0);
    });

    it('answers 422 again for a repeated start of that spot, without contacting the upstream', async () => {
      // Prepare
      await handler(apiRequests.start(UNCONFIGURED_SPOT, DATE_RANGE), lambdaContext());

      // Act
      const again = parseResponse(
        await handler(apiRequests.start(UNCONFIGURED_SPOT, DATE_RANGE), lambdaContext()),
      );

      // Assess
      expect(again.statusCode).toBe(422);
      expect(aws.simulator.requestsTo('auth')).toHaveLength(0);
    });

    it('answers 409 naming the active export while the spot is busy', async () => {
      // Prepare
      const first = parseResponse(await handler(apiRequests.start(SPOT, DATE_RANGE), lambdaContext()));

      // Act
      const second = parseResponse(
        await handler(apiRequests.start(SPOT, { conversationId: `${SPOT}_post-1` }), lambdaContext()),
      );

      // Assess
      expect(second.statusCode).toBe(409);
      expect(second.body).toMatchObject({ type: '/problems/spot-busy', activeExportId: first.body.exportId });
    });
  });

  describe('from an EventBridge Scheduler schedule', () => {
    const scheduled = {
      source: 'schedule',
      spotId: SPOT,
      schedule: 'daily',
      window: 'P1D',
      scheduledTime: '2026-11-01T06:00:00.750Z',
    };
    const nextDay = { ...scheduled, scheduledTime: '2026-11-02T06:00:00.750Z' };

    it("starts its first run's window ending at the scheduled time, on whole seconds, and moves the watermark there", async () => {
      // Act
      const result = (await handler(scheduled, lambdaContext())) as ScheduleRunResult;

      // Assess
      expect(result).toMatchObject({ spotId: SPOT, schedule: 'daily', watermark: '2026-11-01T06:00:00Z' });
      expect(result.windows).toEqual([
        {
          from: '2026-10-31T06:00:00Z',
          until: '2026-11-01T06:00:00Z',
          exportId: expect.stringMatching(/^ex_/),
          planned: true,
          status: 'REQUESTED',
        },
      ]);
      const exportId = result.windows[0]?.exportId as string;
      const stored = await aws.dependencies.store.getExport(SPOT, exportId);
      expect(stored?.request).toEqual({
        kind: 'dateRange',
        from: '2026-10-31T06:00:00Z',
        until: '2026-11-01T06:00:00Z',
      });
      expect(stored).toMatchObject({ source: 'schedule', origin: { schedule: 'daily' } });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StartExecutionCommand, { name: exportId });
    });

    it('starts nothing new when the same event is delivered again', async () => {
      // Prepare
      const first = (await handler(scheduled, lambdaContext())) as ScheduleRunResult;

      // Act
      const again = (await handler(scheduled, lambdaContext())) as ScheduleRunResult;

      // Assess
      expect(again.windows.filter((window) => window.planned)).toEqual([]);
      expect(again.watermark).toBe(first.watermark);
      expect(aws.stepFunctions.commandCalls(StartExecutionCommand)).toHaveLength(1);
    });

    it("queues the next run's window behind the spot's running export: nothing skipped", async () => {
      // Prepare
      const busy = parseResponse(await handler(apiRequests.start(SPOT, DATE_RANGE), lambdaContext()));

      // Act
      const result = (await handler(scheduled, lambdaContext())) as ScheduleRunResult;

      // Assess
      expect(busy.statusCode).toBe(202);
      expect(result.windows).toEqual([expect.objectContaining({ planned: true, status: 'QUEUED' })]);
      expect(aws.stepFunctions.commandCalls(StartExecutionCommand)).toHaveLength(1);
    });

    it('continues from the watermark: the next day exports the day after the first window', async () => {
      // Prepare
      await handler(scheduled, lambdaContext());

      // Act
      const next = (await handler(nextDay, lambdaContext())) as ScheduleRunResult;

      // Assess
      expect(next.windows.map(({ from, until }) => ({ from, until }))).toEqual([
        { from: '2026-11-01T06:00:00Z', until: '2026-11-02T06:00:00Z' },
      ]);
      expect(next.watermark).toBe('2026-11-02T06:00:00Z');
    });

    it('throws a named error for an event it cannot turn into a run', async () => {
      // Act / Assess
      await expect(handler({ ...scheduled, window: 'P1M' }, lambdaContext())).rejects.toBeInstanceOf(
        InvalidScheduledExportEventError,
      );
      expect(aws.dynamoDb.calls()).toHaveLength(0);
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ detail: {} }, lambdaContext())).rejects.toBeInstanceOf(UnrecognisedEventError);
  });
});
