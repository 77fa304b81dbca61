import { describe, expect, it } from 'vitest';
import {
  ExportConflictError,
  ExportNotAbortableError,
  InvalidExportRequestError,
  InvalidSpotIdError,
  SpotForbiddenError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
  UpstreamRequestRejectedError,
} from '../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../lib/exports/upstream/UpstreamExports';
import { OpenWebClient } from '../../../../lib/openweb/OpenWebClient';
import {
  ABORT_ROUTE,
  AUTH_ROUTE,
  BASE_URL,
  CREATE_ROUTE,
  createFakeUpstream,
  FakeCredentials,
  LIST_ROUTE,
  STATUS_ROUTE,
  TEST_API_KEY,
  TEST_SPOT,
} from './support/fakeUpstream';
import { createTestClient, rejectionOf } from './support/testClient';

const created = { status: 200, json: { status_link: `${BASE_URL}/v4/export/status?id=exp_1` } };
const processing = { status: 200, json: { id: 'exp_1', status: 'Processing' } };

describe('OpenWebClient requests', () => {
  it('authenticates with spot_id and apikey in a JSON body', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: processing } });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    const [auth] = upstream.requestsTo(AUTH_ROUTE);
    expect(auth?.url.href).toBe(`${BASE_URL}/v1/publisher/auth`);
    expect(auth?.headers['content-type']).toBe('application/json');
    expect(auth?.body).toEqual({ spot_id: TEST_SPOT, apikey: TEST_API_KEY });
  });

  it('sends exactly the bearer token and the bare spot id on export calls', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: {
        [STATUS_ROUTE]: processing,
        [ABORT_ROUTE]: { status: 202 },
        [LIST_ROUTE]: { status: 200, json: [] },
      },
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');
    await client.abortExport(TEST_SPOT, 'exp_1');
    await client.listExports(TEST_SPOT);

    // Assess
    const exportCalls = upstream.requests.filter((request) => request.url.pathname.startsWith('/v4/'));
    expect(exportCalls).toHaveLength(3);
    for (const request of exportCalls) {
      expect(request.headers).toEqual({
        authorization: `Bearer ${upstream.issuedTokens[0]}`,
        'x-spot-id': TEST_SPOT,
      });
    }
  });

  it('adds the JSON content type on create and maps a date range to the upstream body', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [CREATE_ROUTE]: created } });

    // Act
    const result = await client.createExport(TEST_SPOT, {
      from: '2026-01-01T00:00:00Z',
      until: '2026-01-02T00:00:00Z',
      delimiter: ';',
      maxRecordsInFile: 50_000,
    });

    // Assess
    const [create] = upstream.requestsTo(CREATE_ROUTE);
    expect(create?.headers).toEqual({
      authorization: `Bearer ${upstream.issuedTokens[0]}`,
      'x-spot-id': TEST_SPOT,
      'content-type': 'application/json',
    });
    expect(create?.body).toEqual({
      from: '2026-01-01T00:00:00Z',
      until: '2026-01-02T00:00:00Z',
      delimiter: ';',
      max_records_in_file: 50_000,
    });
    expect(result).toEqual({ exportId: 'exp_1', statusLink: created.json.status_link, raw: created.json });
  });

  it('maps a conversation export to conversation_id only', async () => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [CREATE_ROUTE]: created } });

    // Act
    await client.createExport(TEST_SPOT, { conversationId: `${TEST_SPOT}_post42` });

    // Assess
    expect(upstream.requestsTo(CREATE_ROUTE)[0]?.body).toEqual({ conversation_id: `${TEST_SPOT}_post42` });
  });

  it('URL-encodes the export id in the query string', async () => {
    // Prepare
    const { client, upstream } = createTestClient({
      routes: { [STATUS_ROUTE]: processing, [ABORT_ROUTE]: { status: 202 } },
    });
    const exportId = 'a b/&c=d?';

    // Act
    await client.getExportStatus(TEST_SPOT, exportId);
    await client.abortExport(TEST_SPOT, exportId);

    // Assess
    const urls = [...upstream.requestsTo(STATUS_ROUTE), ...upstream.requestsTo(ABORT_ROUTE)].map(
      (r) => r.url,
    );
    for (const url of urls) {
      expect(url.search).toBe('?id=a%20b%2F%26c%3Dd%3F');
      expect(url.searchParams.get('id')).toBe(exportId);
    }
  });

  it('keeps a path prefix of the base URLs', async () => {
    // Prepare
    const upstream = createFakeUpstream({ 'GET /prefix/v4/export/status': processing });
    const client = new OpenWebClient({
      authBaseUrl: `${BASE_URL}/auth-prefix/`,
      exportBaseUrl: `${BASE_URL}/prefix/`,
      credentials: new FakeCredentials(),
      fetch: upstream.fetch,
    });

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(upstream.requests.map((request) => request.url.href)).toEqual([
      `${BASE_URL}/auth-prefix/v1/publisher/auth`,
      `${BASE_URL}/prefix/v4/export/status?id=exp_1`,
    ]);
  });

  it('returns a normalised status report', async () => {
    // Prepare
    const body = { id: 'exp_1', status: 'Done', links: [{ url: 'https://files.openweb.com/1.csv.zip' }] };
    const { client } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 200, json: body } } });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess
    expect(report).toEqual({
      exportId: 'exp_1',
      status: UpstreamExportStatus.COMPLETED,
      rawStatus: 'Done',
      links: ['https://files.openweb.com/1.csv.zip'],
      rejectedLinkCount: 0,
      raw: body,
    });
  });

  it.each([202, 200, 204])('accepts HTTP %i to an abort', async (status) => {
    // Prepare
    const { client, upstream } = createTestClient({ routes: { [ABORT_ROUTE]: { status } } });

    // Act
    await client.abortExport(TEST_SPOT, 'exp_1');

    // Assess
    expect(upstream.requestsTo(ABORT_ROUTE)).toHaveLength(1);
  });

  it('passes limit and offset to the list call and returns the listed exports', async () => {
    // Prepare
    const body = {
      exports: [{ id: 'exp_9', status: 'Done', links: ['https://f/1'], created_at: '2026-01-01T00:00:00Z' }],
    };
    const { client, upstream } = createTestClient({ routes: { [LIST_ROUTE]: { status: 200, json: body } } });

    // Act
    const listed = await client.listExports(TEST_SPOT, { limit: 10, offset: 20 });
    await client.listExports(TEST_SPOT);

    // Assess
    expect(listed.map((item) => item.exportId)).toEqual(['exp_9']);
    expect(upstream.requestsTo(LIST_ROUTE).map((request) => request.url.search)).toEqual([
      '?limit=10&offset=20',
      '',
    ]);
  });

  describe('error answers', () => {
    it('turns 404 on status into UpstreamExportNotFoundError carrying the id', async () => {
      // Prepare
      const { client } = createTestClient({
        routes: { [STATUS_ROUTE]: { status: 404, json: { message: 'nope' } } },
      });

      // Act
      const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_404'));

      // Assess
      expect(error).toBeInstanceOf(UpstreamExportNotFoundError);
      expect(error).toMatchObject({ exportId: 'exp_404', spotId: TEST_SPOT, statusCode: 404 });
    });

    it('turns 403 on an export call into SpotForbiddenError without retrying', async () => {
      // Prepare
      const { client, upstream } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 403 } } });

      // Act
      const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

      // Assess
      expect(error).toBeInstanceOf(SpotForbiddenError);
      expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(1);
    });

    it('turns 409 on create into ExportConflictError with the upstream message', async () => {
      // Prepare
      const { client, upstream } = createTestClient({
        routes: { [CREATE_ROUTE]: { status: 409, json: { message: 'Same request already in progress' } } },
      });

      // Act
      const error = await rejectionOf(client.createExport(TEST_SPOT, { conversationId: 'c' }));

      // Assess
      expect(error).toBeInstanceOf(ExportConflictError);
      expect(error).toMatchObject({ upstreamMessage: 'Same request already in progress', statusCode: 409 });
      expect(upstream.requestsTo(CREATE_ROUTE)).toHaveLength(1);
    });

    it('turns 400 on create into InvalidExportRequestError with the upstream message', async () => {
      // Prepare
      const { client } = createTestClient({
        routes: { [CREATE_ROUTE]: { status: 400, json: { message: 'range exceeds 730 hours' } } },
      });

      // Act
      const error = await rejectionOf(client.createExport(TEST_SPOT, { from: 'a', until: 'b' }));

      // Assess
      expect(error).toBeInstanceOf(InvalidExportRequestError);
      expect(error).toMatchObject({ upstreamMessage: 'range exceeds 730 hours', statusCode: 400 });
      expect(error.message).toContain('range exceeds 730 hours');
    });

    it('turns 400 on abort into ExportNotAbortableError', async () => {
      // Prepare
      const { client } = createTestClient({
        routes: { [ABORT_ROUTE]: { status: 400, json: { message: 'export already finished' } } },
      });

      // Act
      const error = await rejectionOf(client.abortExport(TEST_SPOT, 'exp_1'));

      // Assess
      expect(error).toBeInstanceOf(ExportNotAbortableError);
      expect(error).toBeInstanceOf(InvalidExportRequestError);
      expect(error).toMatchObject({ exportId: 'exp_1', upstreamMessage: 'export already finished' });
      expect(error.message).toContain('exp_1');
    });

    it('turns 404 on abort into UpstreamExportNotFoundError', async () => {
      // Prepare
      const { client } = createTestClient({ routes: { [ABORT_ROUTE]: { status: 404 } } });

      // Act / Assess
      await expect(client.abortExport(TEST_SPOT, 'exp_1')).rejects.toBeInstanceOf(
        UpstreamExportNotFoundError,
      );
    });

    it.each([
      [LIST_ROUTE, 404],
      [STATUS_ROUTE, 418],
      [STATUS_ROUTE, 405],
    ])('turns other 4xx (%s → %i) into UpstreamRequestRejectedError', async (route, status) => {
      // Prepare
      const { client, upstream } = createTestClient({
        routes: { [route]: { status, json: { error: 'teapot' } } },
      });

      // Act
      const error = await rejectionOf(
        route === LIST_ROUTE ? client.listExports(TEST_SPOT) : client.getExportStatus(TEST_SPOT, 'e'),
      );

      // Assess
      expect(error).toBeInstanceOf(UpstreamRequestRejectedError);
      expect(error).toMatchObject({ statusCode: status, upstreamMessage: 'teapot' });
      expect(upstream.requestsTo(route)).toHaveLength(1);
    });

    it('turns an unexpected redirect status into UpstreamProtocolError', async () => {
      // Prepare
      const { client } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 304 } } });

      // Act
      const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

      // Assess
      expect(error).toBeInstanceOf(UpstreamProtocolError);
      expect(error).toMatchObject({ statusCode: 304 });
    });

    it('turns a 200 that is not JSON into UpstreamProtocolError without retrying', async () => {
      // Prepare
      const { client, upstream } = createTestClient({
        routes: { [STATUS_ROUTE]: { status: 200, text: '<html>maintenance</html>' } },
      });

      // Act
      const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'exp_1'));

      // Assess
      expect(error).toBeInstanceOf(UpstreamProtocolError);
      expect(error).toMatchObject({ statusCode: 200, bodySnippet: '<html>maintenance</html>' });
      expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(1);
    });
  });

  it.each(['', 'sp demo', 'sp_demo\r\nx-injected: 1', 'spé'])(
    'refuses spot id %j before sending anything',
    async (spotId) => {
      // Prepare
      const { client, upstream } = createTestClient({ routes: { [CREATE_ROUTE]: created } });

      // Act
      const errors = await Promise.all([
        rejectionOf(client.createExport(spotId, { conversationId: 'c' })),
        rejectionOf(client.authenticate(spotId)),
      ]);

      // Assess
      for (const error of errors) expect(error).toBeInstanceOf(InvalidSpotIdError);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it('rejects a request timeout that is not positive', () => {
    // Act / Assess
    expect(
      () =>
        new OpenWebClient({
          authBaseUrl: BASE_URL,
          exportBaseUrl: BASE_URL,
          credentials: new FakeCredentials(),
          requestTimeoutMs: 0,
        }),
    ).toThrow(RangeError);
  });

  it('uses the global fetch when none is injected', async () => {
    // Prepare
    const upstream = createFakeUpstream({ [STATUS_ROUTE]: processing });
    const original = globalThis.fetch;
    globalThis.fetch = upstream.fetch;
    try {
      const client = new OpenWebClient({
        authBaseUrl: BASE_URL,
        exportBaseUrl: BASE_URL,
        credentials: new FakeCredentials(),
      });

      // Act
      const report = await client.getExportStatus(TEST_SPOT, 'exp_1');

      // Assess
      expect(report.status).toBe(UpstreamExportStatus.PROCESSING);
      expect(upstream.requests).toHaveLength(2);
    } finally {
      globalThis.fetch = original;
    }
  });
});
