import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { UpstreamProtocolError } from '../../../lib/exports/upstream/errors';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import { lifecycleDependencies } from '../../support/lifecycleDependencies';
import {
  createTaskEvent,
  DATE_RANGE,
  type MockedAwsRuntime,
  SPOT,
  startMockedAwsRuntime,
} from '../../unit/functions/support/mockedAwsRuntime';
import { BASE_URL, LIST_ROUTE, STATUS_ROUTE, TEST_SPOT } from '../../unit/lib/openweb/support/fakeUpstream';
import { createTestClient, rejectionOf } from '../../unit/lib/openweb/support/testClient';

const GOOD_LINK = `${BASE_URL}/files/e1/1.csv.zip?signature=abc`;
const BAD_LINKS = [
  'https://evil.example.com/1.csv.zip',
  'javascript:alert(1)',
  `${BASE_URL.replace('http://', 'http://user:pass@')}/2.csv.zip`,
  `${BASE_URL}/3.csv.zip\r\nSet-Cookie: a=b`,
];
/** Long enough for a simulated day-long export to finish. */
const EXPORT_FINISH_MS = 3 * 60 * 60 * 1000;

describe('the OpenWeb client screens download links', () => {
  it('drops refused links from a status report, counts them and says so in an event', async () => {
    // Prepare
    const body = { id: 'e1', status: 'Done', links: [GOOD_LINK, ...BAD_LINKS] };
    const { client, events } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 200, json: body } } });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'e1');

    // Assess
    expect(report).toMatchObject({
      status: 'completed',
      links: [GOOD_LINK],
      rejectedLinkCount: BAD_LINKS.length,
    });
    expect(events).toContainEqual({
      type: 'linksRejected',
      operation: 'getExportStatus',
      spotId: TEST_SPOT,
      count: BAD_LINKS.length,
    });
    expect(JSON.stringify(events)).not.toContain('evil.example.com');
  });

  it('fails a status report whose links are all refused: a protocol error, not a completed export without files', async () => {
    // Prepare
    const body = { id: 'e1', status: 'Done', links: BAD_LINKS };
    const { client } = createTestClient({ routes: { [STATUS_ROUTE]: { status: 200, json: body } } });

    // Act
    const error = await rejectionOf(client.getExportStatus(TEST_SPOT, 'e1'));

    // Assess
    expect(error).toBeInstanceOf(UpstreamProtocolError);
    expect((error as UpstreamProtocolError).bodySnippet).toBe('');
    expect(error.message).not.toContain('evil.example.com');
  });

  it('still reads a completed status without any links as completed (nothing was refused)', async () => {
    // Prepare
    const { client } = createTestClient({
      routes: { [STATUS_ROUTE]: { status: 200, json: { id: 'e1', status: 'Done', links: [] } } },
    });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'e1');

    // Assess
    expect(report).toMatchObject({ status: 'completed', links: [], rejectedLinkCount: 0 });
  });

  it('drops refused links from listed exports and counts them', async () => {
    // Prepare
    const body = {
      exports: [
        { id: 'e1', status: 'Done', links: [GOOD_LINK, BAD_LINKS[0]] },
        { id: 'e2', status: 'Done', links: [BAD_LINKS[1]] },
      ],
    };
    const { client, events } = createTestClient({ routes: { [LIST_ROUTE]: { status: 200, json: body } } });

    // Act
    const listed = await client.listExports(TEST_SPOT);

    // Assess
    expect(
      listed.map(({ exportId, links, rejectedLinkCount }) => ({ exportId, links, rejectedLinkCount })),
    ).toEqual([
      { exportId: 'e1', links: [GOOD_LINK], rejectedLinkCount: 1 },
      { exportId: 'e2', links: [], rejectedLinkCount: 1 },
    ]);
    expect(events).toContainEqual({
      type: 'linksRejected',
      operation: 'listExports',
      spotId: TEST_SPOT,
      count: 2,
    });
  });

  it('accepts links on the configured download hosts', async () => {
    // Prepare
    const link = 'https://downloads.example.net/e1/1.csv.zip';
    const { client } = createTestClient({
      routes: { [STATUS_ROUTE]: { status: 200, json: { id: 'e1', links: [link] } } },
      options: { downloadHosts: ['downloads.example.net'] },
    });

    // Act
    const report = await client.getExportStatus(TEST_SPOT, 'e1');

    // Assess
    expect(report.links).toEqual([link]);
  });
});

describe('download links through the status read, the table and the bus', () => {
  let aws: MockedAwsRuntime;
  /** What the upstream's status answers get instead of their own links, when set. */
  let replacementLinks: ((ownLinks: string[]) => string[]) | undefined;

  /** The simulator's status answers, with their links replaced as the test says (a rewriting proxy). */
  const rewritingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (replacementLinks === undefined || !new URL(String(input)).pathname.endsWith('/v4/export/status')) {
      return response;
    }
    const body = (await response.json()) as { links?: string[] };
    if (body.links === undefined) return Response.json(body, { status: response.status });
    return Response.json({ ...body, links: replacementLinks(body.links) }, { status: response.status });
  };

  function handlers() {
    const dependencies = lifecycleDependencies(aws.config, {
      clients: aws.clients,
      metrics: new InMemoryExportMetrics(),
      now: aws.clock.now,
      fetch: rewritingFetch,
    });
    const runtime = handlerRuntimeFor(dependencies, { logger: silentLogger() });
    return {
      start: makeStartHandler(runtime),
      check: makeCheckStatusHandler(runtime),
      task: makeWorkflowTaskHandler(runtime),
      dependencies,
    };
  }

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    replacementLinks = undefined;
  });

  afterEach(async () => {
    await aws.close();
  });

  it('stores, returns and announces only the links the policy allows', async () => {
    // Prepare
    const { start, check, task, dependencies } = handlers();
    const started = parseResponse(await start(apiRequests.start(SPOT, DATE_RANGE), lambdaContext()));
    const exportId = String(started.body.exportId);
    await task(createTaskEvent(SPOT, exportId), lambdaContext());
    replacementLinks = (own) => [...BAD_LINKS, ...own, 'https://evil.example.com/again.csv.zip'];
    aws.clock.advance(EXPORT_FINISH_MS);

    // Act
    const checked = parseResponse(await check(apiRequests.check(SPOT, exportId), lambdaContext()));
    const stored = await dependencies.store.getExport(SPOT, exportId);

    // Assess
    const ownLinks = aws.simulator.getExport(String(stored?.upstreamExportId))?.links ?? [];
    expect(ownLinks.length).toBeGreaterThan(0);
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toMatchObject({ status: 'COMPLETED', links: ownLinks });
    expect(stored?.links).toEqual(ownLinks);
    const announced = aws.publishedEvents().map((event) => event.detail);
    expect(announced).toEqual([expect.objectContaining({ exportId, links: ownLinks })]);
  });

  it('answers 502 and keeps the export PROCESSING when every link is refused', async () => {
    // Prepare
    const { start, check, task, dependencies } = handlers();
    const exportId = String(
      parseResponse(await start(apiRequests.start(SPOT, DATE_RANGE), lambdaContext())).body.exportId,
    );
    await task(createTaskEvent(SPOT, exportId), lambdaContext());
    replacementLinks = () => BAD_LINKS;
    aws.clock.advance(EXPORT_FINISH_MS);

    // Act
    const checked = parseResponse(await check(apiRequests.check(SPOT, exportId), lambdaContext()));
    const stored = await dependencies.store.getExport(SPOT, exportId);

    // Assess
    expect(checked.statusCode).toBe(502);
    expect(checked.body.type).toBe('/problems/upstream-protocol-error');
    expect(stored).toMatchObject({ status: 'PROCESSING', links: [] });
    expect(aws.publishedEvents()).toEqual([]);
  });
});
