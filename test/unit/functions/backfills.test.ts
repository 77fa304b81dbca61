import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeBackfillsHandler } from '../../../functions/backfills';
import { apiEvent, apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import {
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
  UNCONFIGURED_SPOT,
} from './support/mockedAwsRuntime';

/** Three days before the test clock's 2026-11-01T12:00:00Z. */
const THREE_DAYS = { from: '2026-10-29T00:00:00Z', until: '2026-11-01T00:00:00Z', windowHours: 24 };
const UNKNOWN_BACKFILL = 'bf_01kak3f4v2qz7m9d8c5b4a3e2f';

describe('backfills handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeBackfillsHandler>;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeBackfillsHandler(aws.runtime);
  });

  afterEach(async () => {
    await aws.close();
  });

  async function call(event: unknown) {
    return parseResponse(await handler(event, lambdaContext()));
  }

  describe('POST /spots/{spotId}/backfills', () => {
    it('answers 202 with the plan, its Location, and the first window started; nothing goes upstream', async () => {
      // Act
      const response = await call(apiRequests.startBackfill(SPOT, THREE_DAYS));

      // Assess
      const backfillId = response.body.backfillId as string;
      expect(response.statusCode).toBe(202);
      expect(response.headers.location).toBe(`/spots/${SPOT}/backfills/${backfillId}`);
      expect(response.body).toMatchObject({
        spotId: SPOT,
        from: THREE_DAYS.from,
        until: THREE_DAYS.until,
        windowHours: 24,
        recording: false,
        status: 'RUNNING',
        plan: {
          windowCount: 3,
          windows: [
            { from: '2026-10-29T00:00:00Z', until: '2026-10-30T00:00:00Z' },
            { from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' },
            { from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' },
          ],
          skipped: [],
          skippedHours: 0,
        },
        progress: { windows: { total: 3, running: 1, queued: 2 }, rowsArchived: 0 },
      });
      expect(aws.stepFunctions).toHaveReceivedCommandTimes(StartExecutionCommand, 1);
      expect(aws.simulator.requestsTo('create')).toHaveLength(0);
    });

    it('plans 730-hour windows unless told otherwise', async () => {
      // Act
      const response = await call(
        apiRequests.startBackfill(SPOT, { from: '2026-08-01T00:00:00Z', until: '2026-11-01T00:00:00Z' }),
      );

      // Assess
      expect(response.body).toMatchObject({ windowHours: 730, plan: { windowCount: 4 } });
    });

    it('answers a repeated Idempotency-Key with the same backfill, marked replayed', async () => {
      // Prepare
      const headers = { 'idempotency-key': 'history-2026' };
      const first = await call(apiRequests.startBackfill(SPOT, THREE_DAYS, headers));

      // Act
      const second = await call(apiRequests.startBackfill(SPOT, THREE_DAYS, headers));

      // Assess
      expect(second.statusCode).toBe(202);
      expect(second.body.backfillId).toBe(first.body.backfillId);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
    });

    it.each([
      ['no body', undefined, 'body'],
      ['a missing from', { until: THREE_DAYS.until }, 'body.from'],
      ['a from that is not an instant', { ...THREE_DAYS, from: '2026-10-29' }, 'body.from'],
      ['until before from', { ...THREE_DAYS, until: '2026-10-28T00:00:00Z' }, 'body.until'],
      ['until in the future', { ...THREE_DAYS, until: '2026-11-09T00:00:00Z' }, 'body.until'],
      ['windows longer than the upstream allows', { ...THREE_DAYS, windowHours: 731 }, 'body.windowHours'],
      ['windows of no length', { ...THREE_DAYS, windowHours: 0 }, 'body.windowHours'],
      ['a fractional window', { ...THREE_DAYS, windowHours: 1.5 }, 'body.windowHours'],
      ['a field it does not know', { ...THREE_DAYS, whenBusy: 'queue' }, 'body.whenBusy'],
      [
        'more windows than one backfill plans',
        { ...THREE_DAYS, from: '2026-01-01T00:00:00Z', windowHours: 1 },
        'body.windowHours',
      ],
    ])('answers 400 problem+json for %s, recording nothing', async (_case, body, field) => {
      // Prepare
      const event =
        body === undefined
          ? apiEvent({ method: 'POST', route: '/spots/{spotId}/backfills', pathParameters: { spotId: SPOT } })
          : apiRequests.startBackfill(SPOT, body);

      // Act
      const response = await call(event);

      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({
        type: '/problems/invalid-request',
        errors: [expect.objectContaining({ field })],
      });
      expect(aws.stepFunctions).toHaveReceivedCommandTimes(StartExecutionCommand, 0);
    });

    it('answers 400 when x-spot-id names another spot than the path, so the spot checked is the spot acted on', async () => {
      // Act
      const response = await call(apiRequests.startBackfill(SPOT, THREE_DAYS, { 'x-spot-id': OTHER_SPOT }));

      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field: 'header.x-spot-id' }] });
    });

    it('answers 400 for a malformed spot in the path', async () => {
      // Act
      const response = await call(apiRequests.startBackfill('not-a-spot', THREE_DAYS));

      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field: 'path.spotId' }] });
    });

    it('answers 422 for a spot without credentials', async () => {
      // Act
      const response = await call(apiRequests.startBackfill(UNCONFIGURED_SPOT, THREE_DAYS));

      // Assess
      expect(response.statusCode).toBe(422);
      expect(response.body).toMatchObject({ type: '/problems/spot-not-configured' });
    });
  });

  describe('GET /spots/{spotId}/backfills/{backfillId}', () => {
    it("answers 200 with each window's state", async () => {
      // Prepare
      const created = await call(apiRequests.startBackfill(SPOT, THREE_DAYS));

      // Act
      const response = await call(apiRequests.readBackfill(SPOT, created.body.backfillId as string));

      // Assess
      expect(response.statusCode).toBe(200);
      expect((response.body.windows as { state: string }[]).map((window) => window.state)).toEqual([
        'RUNNING',
        'QUEUED',
        'QUEUED',
      ]);
    });

    it("answers 404 for an unknown backfill, a malformed id and another spot's alike", async () => {
      // Prepare
      const created = await call(apiRequests.startBackfill(SPOT, THREE_DAYS));

      // Act
      const unknown = await call(apiRequests.readBackfill(SPOT, UNKNOWN_BACKFILL));
      const malformed = await call(apiRequests.readBackfill(SPOT, 'bf_nope'));
      const otherSpot = await call(apiRequests.readBackfill(OTHER_SPOT, created.body.backfillId as string));

      // Assess
      for (const response of [unknown, malformed, otherSpot]) {
        expect(response.statusCode).toBe(404);
        expect(response.body).toMatchObject({ type: '/problems/backfill-not-found' });
      }
    });
  });

  describe('POST /spots/{spotId}/backfills/{backfillId}/abort', () => {
    it('answers 202 with the backfill ABORTED and every unfinished window withdrawn', async () => {
      // Prepare
      const created = await call(apiRequests.startBackfill(SPOT, THREE_DAYS));

      // Act
      const response = await call(apiRequests.abortBackfill(SPOT, created.body.backfillId as string));

      // Assess
      expect(response.statusCode).toBe(202);
      expect(response.body).toMatchObject({
        status: 'ABORTED',
        progress: { windows: { total: 3, withdrawn: 3 } },
      });
    });

    it('answers 404 for an unknown backfill', async () => {
      // Act
      const response = await call(apiRequests.abortBackfill(SPOT, UNKNOWN_BACKFILL));

      // Assess
      expect(response.statusCode).toBe(404);
    });
  });
});
