import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeListHandler } from '../../../functions/list';
import { makeStartHandler } from '../../../functions/start';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import { type MockedAwsRuntime, SPOT, startMockedAwsRuntime } from './support/mockedAwsRuntime';

describe('list handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeListHandler>;
  const exportIds: string[] = [];

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeListHandler(aws.runtime);
    exportIds.length = 0;
    // Three exports one after another: each is aborted to free the spot for the next.
    for (const postId of ['a', 'b', 'c']) {
      const started = await makeStartHandler(aws.runtime)(
        apiRequests.start(SPOT, { conversationId: `${SPOT}_${postId}` }),
        lambdaContext(),
      );
      const exportId = parseResponse(started).body.exportId as string;
      await makeAbortHandler(aws.runtime)(apiRequests.abort(SPOT, exportId), lambdaContext());
      exportIds.push(exportId);
      aws.clock.advance(1_000);
    }
  });

  afterEach(async () => {
    await aws.close();
  });

  it("pages through the spot's exports, newest first, with nextToken", async () => {
    // Act
    const first = parseResponse(await handler(apiRequests.list(SPOT, { limit: '2' }), lambdaContext()));
    const second = parseResponse(
      await handler(
        apiRequests.list(SPOT, { limit: '2', nextToken: String(first.body.nextToken) }),
        lambdaContext(),
      ),
    );

    // Assess
    const ids = (page: typeof first) =>
      (page.body.items as { exportId: string }[]).map((item) => item.exportId);
    expect(first.statusCode).toBe(200);
    expect(ids(first)).toEqual([exportIds[2], exportIds[1]]);
    expect(ids(second)).toEqual([exportIds[0]]);
    expect(second.body).not.toHaveProperty('nextToken');
    expect(aws.dynamoDb).toHaveReceivedCommandWith(QueryCommand, {
      TableName: aws.tableName,
      ExpressionAttributeValues: { ':pk': `SPOT#${SPOT}`, ':exportPrefix': 'EXPORT#' },
      ScanIndexForward: false,
    });
  });

  it("sums the page's usage and estimated cost: the total is what its exports add up to", async () => {
    // Act
    const page = parseResponse(await handler(apiRequests.list(SPOT, {}), lambdaContext()));

    // Assess
    type Item = { requestedAt: string; usage: Record<string, number>; cost: { totalUsd: number } };
    const items = page.body.items as Item[];
    const total = page.body.total as {
      exports: number;
      from: string;
      until: string;
      usage: Record<string, number>;
      cost: { totalUsd: number; pricedFor: { region: string } };
    };
    expect(total.exports).toBe(3);
    expect(total.from).toBe(items[2]?.requestedAt);
    expect(total.until).toBe(items[0]?.requestedAt);
    for (const [field, value] of Object.entries(total.usage)) {
      expect(value).toBeCloseTo(
        items.reduce((sum, item) => sum + (item.usage[field] ?? 0), 0),
        9,
      );
    }
    expect(total.usage.taskInvocations).toBe(3);
    expect(total.cost.totalUsd).toBeCloseTo(
      items.reduce((sum, item) => sum + item.cost.totalUsd, 0),
      12,
    );
    expect(total.cost.pricedFor.region).toBe('us-east-1');
  });

  it('refuses a limit out of range and a forged token with 400', async () => {
    // Act
    const badLimit = parseResponse(await handler(apiRequests.list(SPOT, { limit: '101' }), lambdaContext()));
    const badToken = parseResponse(
      await handler(apiRequests.list(SPOT, { nextToken: 'Zm9yZ2Vk' }), lambdaContext()),
    );

    // Assess
    expect(badLimit.body).toMatchObject({ status: 400, errors: [{ field: 'query.limit' }] });
    expect(badToken.body).toMatchObject({ status: 400, errors: [{ field: 'query.nextToken' }] });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ source: 'schedule' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
