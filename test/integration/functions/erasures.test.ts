import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeErasuresHandler } from '../../../functions/erasures';
import { erasureIdOf } from '../../../lib/exports/erasure/ErasureRecord';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { DynamoDbSuppressionList } from '../../../lib/store/DynamoDbSuppressionList';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';
import { OpenApiResponseValidator } from '../../support/openApiResponses';
import { RecordingErasureWorkflows } from '../../unit/lib/exports/erasure/fakeErasures';

const SPOT = 'sp_demo';
const OTHER_SPOT = 'sp_other';
const USER = 'u_1234';
const NOW_MS = Date.parse('2026-11-10T12:00:00Z');
const SPOT_CLAIM = 'custom:spots';
const openApi = OpenApiResponseValidator.committed();

const requests = {
  request: (spotId: string, body: unknown) =>
    apiEvent({
      method: 'POST',
      route: '/spots/{spotId}/erasures',
      pathParameters: { spotId },
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  list: (spotId: string, query: Record<string, string> = {}) =>
    apiEvent({ route: '/spots/{spotId}/erasures', pathParameters: { spotId }, query }),
  read: (spotId: string, erasureId: string) =>
    apiEvent({ route: '/spots/{spotId}/erasures/{erasureId}', pathParameters: { spotId, erasureId } }),
};

function withJwtClaims(
  event: APIGatewayProxyEventV2,
  claims: Record<string, unknown>,
): APIGatewayProxyEventV2 {
  return {
    ...event,
    requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: null } } },
  } as APIGatewayProxyEventV2;
}

describe('erasures handler', () => {
  let table: DynaliteTable;
  let erasures: DynamoDbErasureStore;
  let suppressions: DynamoDbSuppressionList;
  let erasureWorkflows: RecordingErasureWorkflows;

  beforeEach(async () => {
    erasureWorkflows = new RecordingErasureWorkflows();
    table = await startDynaliteTable();
    erasures = new DynamoDbErasureStore({ client: table.documentClient, tableName: table.tableName });
    suppressions = new DynamoDbSuppressionList({ client: table.documentClient, tableName: table.tableName });
  });

  afterEach(async () => {
    await table.close();
  });

  function handler(options: { spotClaim?: string } = {}) {
    return makeErasuresHandler(
      handlerRuntimeFor(
        { erasures, suppressions, erasureWorkflows, metrics: new InMemoryExportMetrics(), now: () => NOW_MS },
        { logger: silentLogger(), ...options },
      ),
    );
  }

  async function call(event: APIGatewayProxyEventV2, options: { spotClaim?: string } = {}) {
    const response = parseResponse(await handler(options)(event, lambdaContext()));
    openApi.assertDocumented(event.routeKey.split(' ')[0] as string, event.rawPath, {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
    });
    return response;
  }

  it('answers 202 with the erasure RUNNING and its Location, the user suppressed first; the same user again is the same erasure', async () => {
    // Act
    const first = await call(requests.request(SPOT, { userId: USER }));
    const again = await call(requests.request(SPOT, { userId: USER }));

    // Assess
    const erasureId = erasureIdOf(SPOT, USER);
    expect(first.statusCode).toBe(202);
    expect(first.headers.location).toBe(`/spots/${SPOT}/erasures/${erasureId}`);
    expect(first.body).toEqual({
      erasureId,
      spotId: SPOT,
      userId: USER,
      status: 'RUNNING',
      requestedAt: '2026-11-10T12:00:00.000Z',
      updatedAt: '2026-11-10T12:00:00.000Z',
      exportsDone: 0,
      filesRead: 0,
      filesRewritten: 0,
      rowsRemoved: 0,
      files: [],
    });
    expect(again.statusCode).toBe(202);
    expect(again.body.erasureId).toBe(erasureId);
    expect(await suppressions.suppressedUsers(SPOT)).toEqual([USER]);
    expect((await erasures.listForSpot(SPOT, { limit: 10 })).items).toHaveLength(1);
    // Its workflow started once, named for the erasure.
    expect(erasureWorkflows.started).toEqual([
      { executionName: erasureId, input: { spotId: SPOT, erasureId, runId: erasureId, passes: 0 } },
    ]);
  });

  it('answers 202 when the workflow cannot be started: the erasure is recorded for the reconciler to start', async () => {
    // Prepare
    erasureWorkflows.refuse = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });

    // Act
    const response = await call(requests.request(SPOT, { userId: USER }));

    // Assess
    expect(response.statusCode).toBe(202);
    expect(await erasures.get(SPOT, erasureIdOf(SPOT, USER))).toMatchObject({ status: 'RUNNING' });
  });

  it('reads an erasure back with its files, rows removed and verification, and lists the spot’s erasures', async () => {
    // Prepare
    const created = await call(requests.request(SPOT, { userId: USER }));
    const erasureId = created.body.erasureId as string;
    const stored = await erasures.get(SPOT, erasureId);
    await erasures.save({
      ...(stored as NonNullable<typeof stored>),
      status: 'COMPLETED',
      completedAt: '2026-11-10T12:05:00.000Z',
      exportsDone: ['ex_01kak3f4v2qz7m9d8c5b4a0001'],
      filesRead: 2,
      files: [
        {
          exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001',
          name: 'comments_1.csv',
          previousKey: 'exports/sp_demo/1.csv.gz',
          previousParquetKey: 'tables/1.parquet',
          key: 'exports/sp_demo/1.r1.csv.gz',
          parquetKey: 'tables/1.r1.parquet',
          rowsRemoved: 3,
          rows: 7,
          sha256: 'a'.repeat(64),
          state: 'CLEANED',
        },
      ],
      verification: {
        checkedAt: '2026-11-10T12:05:00.000Z',
        checks: ['select count(*) …: 0'],
        filesChecked: 2,
        rowsFound: 0,
        tableRowsFound: 0,
        versionsLeft: 0,
      },
    });
    await call(requests.request(SPOT, { userId: 'u_other' }));

    // Act
    const read = await call(requests.read(SPOT, erasureId));
    const list = await call(requests.list(SPOT));
    const page = await call(requests.list(SPOT, { limit: '1' }));

    // Assess
    expect(read.statusCode).toBe(200);
    expect(read.body).toMatchObject({
      status: 'COMPLETED',
      completedAt: '2026-11-10T12:05:00.000Z',
      exportsDone: 1,
      filesRewritten: 1,
      rowsRemoved: 3,
      files: [{ key: 'exports/sp_demo/1.r1.csv.gz', rowsRemoved: 3, rows: 7, state: 'CLEANED' }],
      verification: { rowsFound: 0, tableRowsFound: 0, versionsLeft: 0 },
    });
    expect(read.body.files).toEqual([expect.not.objectContaining({ parquetKey: expect.anything() })]);
    expect(list.statusCode).toBe(200);
    expect((list.body.items as unknown[]).length).toBe(2);
    expect((page.body.items as unknown[]).length).toBe(1);
    expect(page.body.nextToken).toEqual(expect.any(String));
  });

  it('answers an unknown, malformed or other spot’s erasure 404 erasure-not-found', async () => {
    // Prepare
    const created = await call(requests.request(SPOT, { userId: USER }));

    // Act
    const answers = [
      await call(requests.read(SPOT, erasureIdOf(SPOT, 'u_nobody'))),
      await call(requests.read(SPOT, 'er_../../etc')),
      await call(requests.read(OTHER_SPOT, created.body.erasureId as string)),
    ];

    // Assess
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toMatchObject({ type: '/problems/erasure-not-found' });
    }
  });

  it('refuses a missing body, a missing or malformed user id and unknown fields with 400 before anything is written', async () => {
    // Act
    const answers = [
      await call(requests.request(SPOT, '')),
      await call(requests.request(SPOT, {})),
      await call(requests.request(SPOT, { userId: 42 })),
      await call(requests.request(SPOT, { userId: 'a,b' })),
      await call(requests.request(SPOT, { userId: USER, reason: 'asked' })),
    ];

    // Assess
    expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400, 400, 400, 400]);
    expect(answers[3]?.body.errors).toEqual([{ field: 'body.userId', message: expect.any(String) }]);
    expect(answers[4]?.body.errors).toEqual([{ field: 'body.reason', message: 'is not a known field' }]);
    expect(await suppressions.suppressedUsers(SPOT)).toEqual([]);
    expect((await erasures.listForSpot(SPOT, { limit: 10 })).items).toEqual([]);
  });

  it('answers 403 in JWT mode when the token does not list the spot, writing nothing', async () => {
    // Act
    const refused = await call(
      withJwtClaims(requests.request(SPOT, { userId: USER }), { [SPOT_CLAIM]: OTHER_SPOT }),
      { spotClaim: SPOT_CLAIM },
    );
    const allowed = await call(withJwtClaims(requests.list(SPOT), { [SPOT_CLAIM]: SPOT }), {
      spotClaim: SPOT_CLAIM,
    });

    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({ type: '/problems/spot-not-allowed' });
    expect(allowed.statusCode).toBe(200);
    expect(await suppressions.suppressedUsers(SPOT)).toEqual([]);
  });

  it('refuses an event that is not an erasure route', async () => {
    await expect(handler()({ action: 'poll' }, lambdaContext())).rejects.toThrow(UnrecognisedEventError);
  });
});
