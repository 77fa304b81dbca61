import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../../../functions/abort';
import { makeCheckStatusHandler } from '../../../../functions/check-status';
import { makeListHandler } from '../../../../functions/list';
import { makeStartHandler } from '../../../../functions/start';
import type { ExportHandler } from '../../../../lib/runtime/createHandler';
import { handlerRuntimeFor } from '../../../../lib/runtime/HandlerRuntime';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../../support/apiGatewayEvents';
import {
  DATE_RANGE,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SPOT,
  startMockedAwsRuntime,
} from '../../functions/support/mockedAwsRuntime';

const ACCOUNT = '123456789012';
const MARKETING_ROLE = `arn:aws:iam::${ACCOUNT}:role/teams/exports-marketing`;
const MARKETING_SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/exports-marketing/alice`;
const NEWSROOM_SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/exports-newsroom/bob`;
const WELL_FORMED_UNKNOWN_EXPORT_ID = 'ex_01kak3f4v2aaaaaaaaaaaaaaaa';

/** The event as API Gateway delivers it after verifying the SigV4 signature of `userArn`. */
function signedBy(event: APIGatewayProxyEventV2, userArn: string): APIGatewayProxyEventV2 {
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: { iam: { accountId: ACCOUNT, userArn, userId: 'AROAEXAMPLE:session' } },
    },
  } as APIGatewayProxyEventV2;
}

type Route = 'start' | 'check' | 'abort' | 'list';

function requestFor(route: Route, spotId: string): APIGatewayProxyEventV2 {
  switch (route) {
    case 'start':
      return apiRequests.start(spotId, DATE_RANGE);
    case 'check':
      return apiRequests.check(spotId, WELL_FORMED_UNKNOWN_EXPORT_ID);
    case 'abort':
      return apiRequests.abort(spotId, WELL_FORMED_UNKNOWN_EXPORT_ID);
    case 'list':
      return apiRequests.list(spotId);
  }
}

describe('per-spot authorization in IAM mode', () => {
  let aws: MockedAwsRuntime;
  let handlers: Record<Route, ExportHandler>;
  let unscoped: Record<Route, ExportHandler>;

  beforeAll(async () => {
    aws = await startMockedAwsRuntime();
    const build = (spotsByPrincipal?: Record<string, string[]>) => {
      const runtime = handlerRuntimeFor(aws.dependencies, {
        logger: silentLogger(),
        ...(spotsByPrincipal !== undefined && { spotsByPrincipal }),
      });
      return {
        start: makeStartHandler(runtime),
        check: makeCheckStatusHandler(runtime),
        abort: makeAbortHandler(runtime),
        list: makeListHandler(runtime),
      };
    };
    handlers = build({ [MARKETING_ROLE]: [SPOT] });
    unscoped = build();
  });

  afterAll(async () => {
    await aws?.close();
  });

  afterEach(() => {
    aws.dynamoDb.resetHistory();
  });

  it.each<Route>(['start', 'check', 'abort', 'list'])(
    'refuses %s with 403 spot-not-allowed for a role not mapped to the spot, before any I/O',
    async (route) => {
      // Act
      const response = parseResponse(
        await handlers[route](signedBy(requestFor(route, OTHER_SPOT), MARKETING_SESSION), lambdaContext()),
      );

      // Assess
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ type: '/problems/spot-not-allowed', status: 403 });
      expect(JSON.stringify(response.body)).not.toContain(SPOT);
      expect(aws.dynamoDb.calls()).toHaveLength(0);
    },
  );

  it('refuses a principal the map does not name, and a request no signature authorized: it fails closed', async () => {
    // Act
    const unmapped = parseResponse(
      await handlers.list(signedBy(apiRequests.list(SPOT), NEWSROOM_SESSION), lambdaContext()),
    );
    const unsigned = parseResponse(await handlers.list(apiRequests.list(SPOT), lambdaContext()));

    // Assess
    expect([unmapped.statusCode, unsigned.statusCode]).toEqual([403, 403]);
    expect(aws.dynamoDb.calls()).toHaveLength(0);
  });

  it('lets a session of a mapped role use its spots, whatever the role’s path', async () => {
    // Act
    const response = parseResponse(
      await handlers.list(signedBy(apiRequests.list(SPOT), MARKETING_SESSION), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(200);
    expect(aws.dynamoDb.calls().length).toBeGreaterThan(0);
  });

  it('is off by default: any signer may use any spot', async () => {
    // Act
    const response = parseResponse(
      await unscoped.list(signedBy(apiRequests.list(OTHER_SPOT), NEWSROOM_SESSION), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(200);
  });
});
