import { StopExecutionCommand } from '@aws-sdk/client-sfn';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeListHandler } from '../../../functions/list';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { EXPORT_STATUSES } from '../../../lib/exports/record/ExportStatus';
import type { ExportHandler } from '../../../lib/runtime/createHandler';
import {
  apiRequests,
  lambdaContext,
  type ParsedResponse,
  parseResponse,
} from '../../support/apiGatewayEvents';
import {
  createTaskEvent,
  DATE_RANGE,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
} from '../../unit/functions/support/mockedAwsRuntime';

/** Spot A owns the exports; spot B asks for them. */
const SPOT_A = SPOT;
const SPOT_B = OTHER_SPOT;
const UNKNOWN_EXPORT_ID = 'ex_01kak3f4v2zzzzzzzzzzzzzzzz';
const MALFORMED_EXPORT_ID = 'not-an-export-id';
/** Exports spot A leaves behind (each aborted, so the next can start: one at a time per spot). */
const EXPORTS_OF_A = 3;
const LIST_PAGE_LIMIT = '2';

describe('spot isolation through the API', () => {
  let aws: MockedAwsRuntime;
  let handlers: {
    start: ExportHandler;
    check: ExportHandler;
    task: ExportHandler;
    abort: ExportHandler;
    list: ExportHandler;
  };

  async function call(handler: ExportHandler, event: APIGatewayProxyEventV2): Promise<ParsedResponse> {
    return parseResponse(await handler(event, lambdaContext()));
  }

  /** A start, then the workflow's create task, as a deployment runs it right away. */
  async function startExport(spotId: string, headers: Record<string, string> = {}): Promise<ParsedResponse> {
    const started = await call(handlers.start, apiRequests.start(spotId, DATE_RANGE, headers));
    if (started.statusCode === 202 && started.body.status === 'REQUESTED')
      await handlers.task(createTaskEvent(spotId, String(started.body.exportId)), lambdaContext());
    return started;
  }

  /** Every export id of a spot's listing, page by page, optionally filtered by status. */
  async function listedIds(spotId: string, status?: string): Promise<string[]> {
    const ids: string[] = [];
    let nextToken: string | undefined;
    do {
      const query = {
        limit: LIST_PAGE_LIMIT,
        ...(status !== undefined && { status }),
        ...(nextToken !== undefined && { nextToken }),
      };
      const page = await call(handlers.list, apiRequests.list(spotId, query));
      expect(page.statusCode).toBe(200);
      ids.push(...(page.body.items as { exportId: string }[]).map((item) => item.exportId));
      nextToken = page.body.nextToken as string | undefined;
    } while (nextToken !== undefined);
    return ids;
  }

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handlers = {
      start: makeStartHandler(aws.runtime),
      check: makeCheckStatusHandler(aws.runtime),
      task: makeWorkflowTaskHandler(aws.runtime),
      abort: makeAbortHandler(aws.runtime),
      list: makeListHandler(aws.runtime),
    };
  });

  afterEach(async () => {
    await aws.close();
  });

  it('answers 404 to spot B for spot A’s export, on status and abort, exactly as for an unknown id', async () => {
    // Prepare
    const started = await startExport(SPOT_A);
    const exportId = String(started.body.exportId);
    const upstreamCallsBefore = aws.simulator.requestLog.length;

    // Act
    const checkedByB = await call(handlers.check, apiRequests.check(SPOT_B, exportId));
    const abortedByB = await call(handlers.abort, apiRequests.abort(SPOT_B, exportId));
    const unknownChecked = await call(handlers.check, apiRequests.check(SPOT_B, UNKNOWN_EXPORT_ID));
    const unknownAborted = await call(handlers.abort, apiRequests.abort(SPOT_B, UNKNOWN_EXPORT_ID));
    const malformedChecked = await call(handlers.check, apiRequests.check(SPOT_B, MALFORMED_EXPORT_ID));

    // Assess
    expect(started.statusCode).toBe(202);
    for (const response of [checkedByB, abortedByB]) {
      expect(response.statusCode).toBe(404);
      expect(response).toEqual(unknownChecked);
    }
    expect(unknownAborted).toEqual(unknownChecked);
    expect(malformedChecked).toEqual(unknownChecked);
    expect(JSON.stringify([checkedByB, abortedByB])).not.toContain(exportId);
    expect(aws.simulator.requestLog.length).toBe(upstreamCallsBefore);
  });

  it('leaves spot A’s export running when spot B tries to abort it', async () => {
    // Prepare
    const exportId = String((await startExport(SPOT_A)).body.exportId);

    // Act
    await call(handlers.abort, apiRequests.abort(SPOT_B, exportId));
    const seenByA = await call(handlers.check, apiRequests.check(SPOT_A, exportId));

    // Assess
    expect(seenByA.statusCode).toBe(200);
    expect(seenByA.body).toMatchObject({ exportId, spotId: SPOT_A, status: 'PROCESSING' });
    expect(aws.simulator.requestsTo('abort')).toHaveLength(0);
    expect(aws.stepFunctions.commandCalls(StopExecutionCommand)).toEqual([]);
  });

  it('never lists spot A’s exports to spot B, on any page or status filter', async () => {
    // Prepare
    const idsOfA: string[] = [];
    for (let index = 0; index < EXPORTS_OF_A; index += 1) {
      const exportId = String((await startExport(SPOT_A)).body.exportId);
      idsOfA.push(exportId);
      expect((await call(handlers.abort, apiRequests.abort(SPOT_A, exportId))).statusCode).toBe(202);
    }
    idsOfA.push(String((await startExport(SPOT_A)).body.exportId));
    const idOfB = String((await startExport(SPOT_B)).body.exportId);

    // Act
    const listedToB = await listedIds(SPOT_B);
    const listedToBByStatus = (
      await Promise.all(EXPORT_STATUSES.map((status) => listedIds(SPOT_B, status)))
    ).flat();
    const listedToA = await listedIds(SPOT_A);

    // Assess
    expect(listedToB).toEqual([idOfB]);
    expect(listedToBByStatus).toEqual([idOfB]);
    expect([...listedToA].sort()).toEqual([...idsOfA].sort());
    for (const exportId of idsOfA) {
      const checkedByB = await call(handlers.check, apiRequests.check(SPOT_B, exportId));
      expect(checkedByB.statusCode, exportId).toBe(404);
    }
  });

  it('keeps idempotency keys per spot: spot B’s key never replays spot A’s export', async () => {
    // Prepare
    const key = { 'idempotency-key': 'shared-key-1' };
    const ofA = await startExport(SPOT_A, key);

    // Act
    const ofB = await startExport(SPOT_B, key);

    // Assess
    expect(ofA.statusCode).toBe(202);
    expect(ofB.statusCode).toBe(202);
    expect(ofB.headers['idempotent-replayed']).toBeUndefined();
    expect(ofB.body.exportId).not.toBe(ofA.body.exportId);
    expect(ofB.body.spotId).toBe(SPOT_B);
  });
});
