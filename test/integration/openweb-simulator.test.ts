import { strFromU8, unzipSync } from 'fflate';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LOCAL_REQUEST_BODY_BYTES } from '../../local/http/readBoundedBody';
import {
  COMMENT_FIELDS,
  DOWNLOAD_LINK_LIFETIME_MS,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';
import { readCommentsArchive } from '../support/readCommentsArchive';

const START_MS = Date.parse('2024-05-01T00:00:00Z');
const ONE_HOUR_RANGE = { from: '2024-04-01T00:00:00Z', until: '2024-04-01T01:00:00Z' };
// 30 s + 60 s per hour of range, the default simulated duration of ONE_HOUR_RANGE.
const ONE_HOUR_RANGE_DURATION_MS = 90_000;
const ONE_HOUR_RANGE_HOURS = 1;
/** An export holds every comment of its window: commentsPerHour for each of its hours, when none is deleted. */
const NONE_DELETED = { deleteShare: 0 };
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

function createClock(startMs = START_MS): TestClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

let simulator: OpenWebSimulator | undefined;

afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

async function start(options: OpenWebSimulatorOptions = {}): Promise<OpenWebSimulator> {
  simulator = await startOpenWebSimulator({ authRequestsPerSecond: 0, ...options });
  return simulator;
}

function postAuth(sim: OpenWebSimulator, body: unknown): Promise<Response> {
  return fetch(`${sim.authBaseUrl}/v1/publisher/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function authenticate(
  sim: OpenWebSimulator,
  spotId = 'sp_demo',
  apiKey = 'demo-api-key',
): Promise<string> {
  const response = await postAuth(sim, { spot_id: spotId, apikey: apiKey });
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  return token;
}

function exportHeaders(token: string, spotId = 'sp_demo'): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'x-spot-id': spotId, 'content-type': 'application/json' };
}

function postExport(
  sim: OpenWebSimulator,
  headers: Record<string, string>,
  body: unknown,
): Promise<Response> {
  return fetch(`${sim.exportBaseUrl}/v4/export`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function createExport(
  sim: OpenWebSimulator,
  token: string,
  body: unknown = ONE_HOUR_RANGE,
): Promise<string> {
  const response = await postExport(sim, exportHeaders(token), body);
  expect(response.status).toBe(200);
  const { status_link: statusLink } = (await response.json()) as { status_link: string };
  const id = new URL(statusLink, sim.exportBaseUrl).searchParams.get('id');
  expect(id).toBeTruthy();
  return id as string;
}

function getExportCall(
  sim: OpenWebSimulator,
  call: 'status' | 'abort',
  id: string,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${sim.exportBaseUrl}/v4/export/${call}?id=${encodeURIComponent(id)}`, { headers });
}

async function statusOf(sim: OpenWebSimulator, token: string, id: string): Promise<Record<string, unknown>> {
  const response = await getExportCall(sim, 'status', id, exportHeaders(token));
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function download(link: string): Promise<Uint8Array> {
  const response = await fetch(link);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  return new Uint8Array(await response.arrayBuffer());
}

describe('OpenWeb simulator', () => {
  describe('auth', () => {
    it('returns a JWT for the spot whose exp is iat plus the token lifetime', async () => {
      // Prepare
      const sim = await start({ tokenTtlSeconds: 3_600 });

      // Act
      const token = await authenticate(sim);

      // Assess
      const claims = decodeJwt(token);
      expect(claims.spot_id).toBe('sp_demo');
      expect(typeof claims.iat).toBe('number');
      expect(claims.exp).toBe((claims.iat as number) + 3_600);
    });

    it('issues iat from the injected clock', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });

      // Act
      const token = await authenticate(sim);

      // Assess
      expect(decodeJwt(token).iat).toBe(START_MS / 1000);
      expect(decodeJwt(token).exp).toBe(START_MS / 1000 + 86_400);
    });

    it.each([
      ['a wrong key', { spot_id: 'sp_demo', apikey: 'wrong' }],
      ['an unknown spot', { spot_id: 'sp_nobody', apikey: 'demo-api-key' }],
      ['another spot’s key', { spot_id: 'sp_demo', apikey: 'other-api-key' }],
    ])('answers 401 for %s', async (_case, body) => {
      // Prepare
      const sim = await start();

      // Act
      const response = await postAuth(sim, body);

      // Assess
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    });

    it.each([
      ['no apikey', { spot_id: 'sp_demo' }],
      ['a numeric apikey', { spot_id: 'sp_demo', apikey: 42 }],
      ['an array', ['sp_demo', 'demo-api-key']],
    ])('answers 400 for a body with %s', async (_case, body) => {
      // Prepare
      const sim = await start();

      // Act
      const response = await postAuth(sim, body);

      // Assess
      expect(response.status).toBe(400);
    });

    it('answers 429 with Retry-After to a second auth within one second, then admits after it', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, authRequestsPerSecond: 1 });
      const credentials = { spot_id: 'sp_demo', apikey: 'demo-api-key' };
      const first = await postAuth(sim, credentials);
      clock.advance(400);

      // Act
      const second = await postAuth(sim, credentials);
      clock.advance(600);
      const third = await postAuth(sim, credentials);

      // Assess
      expect(first.status).toBe(200);
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(third.status).toBe(200);
    });

    it('limits auth by real time when no clock is injected', async () => {
      // Prepare
      const sim = await startOpenWebSimulator();
      simulator = sim;
      const credentials = { spot_id: 'sp_demo', apikey: 'demo-api-key' };

      // Act
      const statuses = [];
      for (let call = 0; call < 3; call += 1) {
        statuses.push((await postAuth(sim, credentials)).status);
      }

      // Assess: three calls cannot all fall in separate seconds without a pause
      expect(statuses[0]).toBe(200);
      expect(statuses).toContain(429);
    });

    it('does not limit auth when authRequestsPerSecond is 0', async () => {
      // Prepare
      const sim = await start({ now: createClock().now, authRequestsPerSecond: 0 });

      // Act
      const statuses = [];
      for (let call = 0; call < 5; call += 1) {
        statuses.push((await postAuth(sim, { spot_id: 'sp_demo', apikey: 'demo-api-key' })).status);
      }

      // Assess
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
    });

    it('accepts a spot added at run time', async () => {
      // Prepare
      const sim = await start();
      sim.addSpot('sp_new', 'new-key');

      // Act
      const token = await authenticate(sim, 'sp_new', 'new-key');

      // Assess
      expect(decodeJwt(token).spot_id).toBe('sp_new');
    });
  });

  describe('export lifecycle', () => {
    it('processes an export until its simulated duration passes, then serves zipped CSV files', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, commentsPerHour: 40, ...NONE_DELETED });
      const token = await authenticate(sim);

      // Act
      const id = await createExport(sim, token, { ...ONE_HOUR_RANGE, delimiter: ';' });
      const whileProcessing = await statusOf(sim, token, id);
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const whenDone = await statusOf(sim, token, id);

      // Assess
      expect(whileProcessing).toEqual({ id, status: 'Processing' });
      expect(whenDone).toEqual({ id, status: 'Done', links: [expect.stringMatching(/\.csv\.zip\?/)] });
      const archive = await download((whenDone.links as string[])[0] as string);
      const files = unzipSync(archive);
      const [csvText] = Object.values(files).map((content) => strFromU8(content));
      expect(csvText?.startsWith(`${COMMENT_FIELDS.join(';')}\r\n`)).toBe(true);
      const { header, rows } = readCommentsArchive(archive, ';');
      expect(header).toEqual([...COMMENT_FIELDS]);
      expect(rows).toHaveLength(40 * ONE_HOUR_RANGE_HOURS);
      for (const row of rows) {
        expect(row).toHaveLength(COMMENT_FIELDS.length);
        expect(row[3]).toBe('sp_demo');
        const writtenAt = Date.parse(row[8] as string);
        expect(writtenAt).toBeGreaterThanOrEqual(Date.parse(ONE_HOUR_RANGE.from));
        expect(writtenAt).toBeLessThan(Date.parse(ONE_HOUR_RANGE.until));
      }
    });

    it('is still processing one millisecond before its duration passes', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);

      // Act
      clock.advance(ONE_HOUR_RANGE_DURATION_MS - 1);
      const status = await statusOf(sim, token, id);

      // Assess
      expect(status.status).toBe('Processing');
      expect(sim.getExport(id)?.finishesAt).toBe(START_MS + ONE_HOUR_RANGE_DURATION_MS);
    });

    it('scales the simulated duration by timeScale and uses a custom duration function', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, timeScale: 0.001, exportDurationMs: () => 3_600_000 });
      const token = await authenticate(sim);

      // Act
      const id = await createExport(sim, token);

      // Assess
      expect(sim.getExport(id)?.finishesAt).toBe(START_MS + 3_600);
    });

    it('honours a tab delimiter with fields quoted where needed', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, commentsPerHour: 60, ...NONE_DELETED });
      const token = await authenticate(sim);
      const id = await createExport(sim, token, { ...ONE_HOUR_RANGE, delimiter: '\t' });
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const { links } = (await statusOf(sim, token, id)) as { links: string[] };

      // Act
      const { rows } = readCommentsArchive(await download(links[0] as string), '\t');

      // Assess
      expect(rows).toHaveLength(60 * ONE_HOUR_RANGE_HOURS);
      expect(rows.every((row) => row.length === COMMENT_FIELDS.length)).toBe(true);
    });

    it('splits the rows into several links by max_records_in_file', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, commentsPerHour: 25, ...NONE_DELETED });
      const token = await authenticate(sim);
      const id = await createExport(sim, token, { ...ONE_HOUR_RANGE, max_records_in_file: 10 });
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);

      // Act
      const { links } = (await statusOf(sim, token, id)) as { links: string[] };
      const files = await Promise.all(links.map(async (link) => readCommentsArchive(await download(link))));

      // Assess
      expect(links).toHaveLength(3);
      expect(files.map((file) => file.rows.length)).toEqual([10, 10, 5]);
      const ids = new Set(files.flatMap((file) => file.rows.map((row) => row[0])));
      expect(ids.size).toBe(25);
    });

    it('serves the same content when a link is downloaded twice', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const { links } = (await statusOf(sim, token, id)) as { links: string[] };

      // Act
      const first = readCommentsArchive(await download(links[0] as string));
      const second = readCommentsArchive(await download(links[0] as string));

      // Assess
      expect(second).toEqual(first);
    });

    it("fills a conversation export with its post's comments of the week before it was created", async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, commentsPerHour: 15 });
      const token = await authenticate(sim);
      const id = await createExport(sim, token, { conversation_id: 'sp_demo_post-7' });

      // Act
      clock.advance(30_000);
      const { links } = (await statusOf(sim, token, id)) as { links: string[] };
      const { rows } = readCommentsArchive(await download(links[0] as string));
      const unknownPost = await createExport(sim, token, { conversation_id: 'sp_demo_article-7' });
      clock.advance(30_000);
      const unknownPostLinks = ((await statusOf(sim, token, unknownPost)) as { links: string[] }).links;
      const unknownPostRows = readCommentsArchive(await download(unknownPostLinks[0] as string)).rows;

      // Assess
      const week = sim.listComments({
        spotId: 'sp_demo',
        postId: 'post-7',
        fromMs: START_MS - WEEK_MS,
        untilMs: START_MS,
        limit: 10_000,
      });
      const existing = week.comments.filter((comment) =>
        comment.changes.every((change) => change.change !== 'deleted' || Date.parse(change.at) > START_MS),
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((row) => row[0])).toEqual(existing.map((comment) => comment.id));
      expect(new Set(rows.map((row) => row[4]))).toEqual(new Set(['post-7']));
      expect(unknownPostRows).toEqual([]);
    });

    it('answers 403 for a tampered signature and for a link past its week', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const { links } = (await statusOf(sim, token, id)) as { links: string[] };
      const link = new URL(links[0] as string);
      const tampered = new URL(link);
      const signature = link.searchParams.get('signature') as string;
      tampered.searchParams.set(
        'signature',
        `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
      );
      const unsigned = new URL(link);
      unsigned.search = '';
      const longerLived = new URL(link);
      longerLived.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3_600));

      // Act
      const tamperedStatus = (await fetch(tampered)).status;
      const unsignedStatus = (await fetch(unsigned)).status;
      const longerLivedStatus = (await fetch(longerLived)).status;
      clock.advance(DOWNLOAD_LINK_LIFETIME_MS);
      const expiredStatus = (await fetch(link)).status;

      // Assess
      expect([tamperedStatus, unsignedStatus, longerLivedStatus, expiredStatus]).toEqual([
        403, 403, 403, 403,
      ]);
    });

    it('reports a failed export when the outcome says so', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, outcome: () => 'failed' });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);

      // Act
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const status = await statusOf(sim, token, id);

      // Assess
      expect(status).toEqual({ id, status: 'Failed', error: expect.any(String) });
      expect(sim.getExport(id)?.state).toBe('failed');
    });

    it('aborts a processing export with 202, then refuses to abort it again with 400', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);

      // Act
      const firstAbort = await getExportCall(sim, 'abort', id, exportHeaders(token));
      const status = await statusOf(sim, token, id);
      const secondAbort = await getExportCall(sim, 'abort', id, exportHeaders(token));
      const nextCreate = await postExport(sim, exportHeaders(token), ONE_HOUR_RANGE);

      // Assess
      expect(firstAbort.status).toBe(202);
      expect(status).toEqual({ id, status: 'Aborted' });
      expect(secondAbort.status).toBe(400);
      expect(nextCreate.status).toBe(200);
    });

    it('answers 400 when aborting an export that completed', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);

      // Act
      const response = await getExportCall(sim, 'abort', id, exportHeaders(token));

      // Assess
      expect(response.status).toBe(400);
      expect(sim.getExport(id)?.state).toBe('completed');
    });

    it.each([
      ['statusLinkOnly', (url: string, id: string) => ({ status_link: `${url}/v4/export/status?id=${id}` })],
      ['statusLinkPath', (_url: string, id: string) => ({ status_link: `/v4/export/status?id=${id}` })],
      ['withId', (url: string, id: string) => ({ id, status_link: `${url}/v4/export/status?id=${id}` })],
    ] as const)('answers a create in the %s style', async (style, expected) => {
      // Prepare
      const sim = await start({ createResponseStyle: style });
      const token = await authenticate(sim);

      // Act
      const response = await postExport(sim, exportHeaders(token), ONE_HOUR_RANGE);

      // Assess
      const [created] = sim.listExports();
      expect(await response.json()).toEqual(expected(sim.url, created?.id as string));
    });

    it('answers 409 to a second create for a spot while one is processing, and accepts one after it finishes', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const otherToken = await authenticate(sim, 'sp_other', 'other-api-key');
      await createExport(sim, token);

      // Act
      const concurrent = await postExport(sim, exportHeaders(token), { conversation_id: 'sp_demo_p1' });
      const otherSpot = await postExport(sim, exportHeaders(otherToken, 'sp_other'), ONE_HOUR_RANGE);
      clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      const afterCompletion = await postExport(sim, exportHeaders(token), ONE_HOUR_RANGE);

      // Assess
      expect(concurrent.status).toBe(409);
      expect(await concurrent.json()).toEqual({ message: 'Same request already in progress' });
      expect(otherSpot.status).toBe(200);
      expect(afterCompletion.status).toBe(200);
    });

    it('lists the spot’s finished exports newest first, with limit and offset', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now });
      const token = await authenticate(sim);
      const otherToken = await authenticate(sim, 'sp_other', 'other-api-key');
      const finishedIds: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        finishedIds.push(await createExport(sim, token));
        clock.advance(ONE_HOUR_RANGE_DURATION_MS);
      }
      const processingId = await createExport(sim, token);
      await getExportCall(sim, 'abort', finishedIds[1] as string, exportHeaders(token));
      await postExport(sim, exportHeaders(otherToken, 'sp_other'), ONE_HOUR_RANGE);

      // Act
      const all = await fetch(`${sim.exportBaseUrl}/v4/export/list`, { headers: exportHeaders(token) });
      const page = await fetch(`${sim.exportBaseUrl}/v4/export/list?limit=1&offset=1`, {
        headers: exportHeaders(token),
      });
      const badLimit = await fetch(`${sim.exportBaseUrl}/v4/export/list?limit=abc`, {
        headers: exportHeaders(token),
      });

      // Assess
      const { exports } = (await all.json()) as {
        exports: { id: string; status: string; created_at: string }[];
      };
      expect(exports.map((entry) => entry.id)).toEqual([...finishedIds].reverse());
      expect(exports.map((entry) => entry.id)).not.toContain(processingId);
      expect(exports[0]).toEqual({
        id: finishedIds[2],
        status: 'Done',
        links: [expect.any(String)],
        created_at: new Date(START_MS + 2 * ONE_HOUR_RANGE_DURATION_MS).toISOString(),
      });
      const { exports: pageExports } = (await page.json()) as { exports: { id: string }[] };
      expect(pageExports.map((entry) => entry.id)).toEqual([finishedIds[1]]);
      expect(badLimit.status).toBe(400);
    });
  });

  describe('export call authorization', () => {
    it('answers 401 without a bearer token, with a garbage one and with an expired one', async () => {
      // Prepare
      const clock = createClock();
      const sim = await start({ now: clock.now, tokenTtlSeconds: 60 });
      const token = await authenticate(sim);
      const id = await createExport(sim, token);
      const { authorization: _unused, ...withoutBearer } = exportHeaders(token);

      // Act
      const missing = await getExportCall(sim, 'status', id, withoutBearer);
      const garbage = await getExportCall(sim, 'status', id, exportHeaders('not.a.jwt'));
      const foreignSigned = await getExportCall(sim, 'status', id, {
        ...exportHeaders(`${token.slice(0, token.lastIndexOf('.'))}.c2lnbmF0dXJl`),
      });
      const beforeExpiry = await getExportCall(sim, 'status', id, exportHeaders(token));
      clock.advance(60_000);
      const expired = await getExportCall(sim, 'status', id, exportHeaders(token));

      // Assess
      expect([missing.status, garbage.status, foreignSigned.status]).toEqual([401, 401, 401]);
      expect(beforeExpiry.status).toBe(200);
      expect(expired.status).toBe(401);
    });

    it('answers 401 to a token issued by another simulator instance', async () => {
      // Prepare
      const sim = await start();
      const other = await startOpenWebSimulator({ authRequestsPerSecond: 0 });
      const foreignToken = await authenticate(other).finally(() => other.close());

      // Act
      const response = await postExport(sim, exportHeaders(foreignToken), ONE_HOUR_RANGE);

      // Assess
      expect(response.status).toBe(401);
    });

    it('applies a new token lifetime to tokens issued afterwards', async () => {
      // Prepare
      const sim = await start();
      sim.setTokenTtlSeconds(120);

      // Act
      const claims = decodeJwt(await authenticate(sim));

      // Assess
      expect(claims.exp).toBe((claims.iat as number) + 120);
    });

    it('answers 403 to another spot’s token and to a missing x-spot-id', async () => {
      // Prepare
      const sim = await start();
      const otherToken = await authenticate(sim, 'sp_other', 'other-api-key');
      const { 'x-spot-id': _unused, ...withoutSpot } = exportHeaders(otherToken);

      // Act
      const foreign = await postExport(sim, exportHeaders(otherToken, 'sp_demo'), ONE_HOUR_RANGE);
      const missingSpot = await postExport(sim, withoutSpot, ONE_HOUR_RANGE);

      // Assess
      expect(foreign.status).toBe(403);
      expect(missingSpot.status).toBe(403);
      expect(sim.listExports()).toEqual([]);
    });

    it('answers 404 for another spot’s export id and for an unknown id', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      const otherToken = await authenticate(sim, 'sp_other', 'other-api-key');
      const id = await createExport(sim, token);
      const otherHeaders = exportHeaders(otherToken, 'sp_other');

      // Act
      const foreignStatus = await getExportCall(sim, 'status', id, otherHeaders);
      const foreignAbort = await getExportCall(sim, 'abort', id, otherHeaders);
      const unknownStatus = await getExportCall(sim, 'status', 'exp_unknown', exportHeaders(token));
      const missingId = await fetch(`${sim.exportBaseUrl}/v4/export/status`, {
        headers: exportHeaders(token),
      });

      // Assess
      expect([foreignStatus.status, foreignAbort.status, unknownStatus.status]).toEqual([404, 404, 404]);
      expect(missingId.status).toBe(400);
      expect(sim.getExport(id)?.state).toBe('processing');
    });
  });

  describe('create validation', () => {
    it.each([
      ['no variant', {}],
      ['both variants', { ...ONE_HOUR_RANGE, conversation_id: 'sp_demo_p1' }],
      ['from without until', { from: ONE_HOUR_RANGE.from }],
      ['until without from', { until: ONE_HOUR_RANGE.until }],
      ['milliseconds in from', { ...ONE_HOUR_RANGE, from: '2024-04-01T00:00:00.000Z' }],
      ['an offset instead of Z', { ...ONE_HOUR_RANGE, from: '2024-04-01T00:00:00+00:00' }],
      ['a space instead of T', { ...ONE_HOUR_RANGE, from: '2024-04-01 00:00:00Z' }],
      ['a date only', { ...ONE_HOUR_RANGE, from: '2024-04-01' }],
      ['a lowercase z', { ...ONE_HOUR_RANGE, until: '2024-04-01T01:00:00z' }],
      ['a day that does not exist', { from: '2024-02-30T00:00:00Z', until: '2024-03-01T00:00:00Z' }],
      ['hour 24', { from: '2024-04-01T00:00:00Z', until: '2024-04-01T24:00:00Z' }],
      ['a numeric from', { ...ONE_HOUR_RANGE, from: Date.parse(ONE_HOUR_RANGE.from) }],
      ['from equal to until', { from: ONE_HOUR_RANGE.from, until: ONE_HOUR_RANGE.from }],
      ['from after until', { from: ONE_HOUR_RANGE.until, until: ONE_HOUR_RANGE.from }],
      ['a range of 730 hours and 1 second', { from: '2024-01-01T00:00:00Z', until: '2024-01-31T10:00:01Z' }],
      ['max_records_in_file 0', { ...ONE_HOUR_RANGE, max_records_in_file: 0 }],
      ['max_records_in_file 100001', { ...ONE_HOUR_RANGE, max_records_in_file: 100_001 }],
      ['a fractional max_records_in_file', { ...ONE_HOUR_RANGE, max_records_in_file: 1.5 }],
      ['a string max_records_in_file', { ...ONE_HOUR_RANGE, max_records_in_file: '10' }],
      ['a colon delimiter', { ...ONE_HOUR_RANGE, delimiter: ':' }],
      ['a two-character delimiter', { ...ONE_HOUR_RANGE, delimiter: ',,' }],
      ['another spot’s conversation', { conversation_id: 'sp_other_p1' }],
      ['a conversation without post id', { conversation_id: 'sp_demo_' }],
      ['a conversation id without the spot', { conversation_id: 'p1' }],
      ['a numeric conversation id', { conversation_id: 42 }],
      ['an array body', [ONE_HOUR_RANGE]],
      ['a body that is not JSON', '{"from": '],
    ])('answers 400 for %s', async (_case, body) => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);

      // Act
      const response = await postExport(sim, exportHeaders(token), body);

      // Assess
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: expect.any(String) });
      expect(sim.listExports()).toEqual([]);
    });

    it.each([
      ['a range of exactly 730 hours', { from: '2024-01-01T00:00:00Z', until: '2024-01-31T10:00:00Z' }],
      ['a leap day', { from: '2024-02-29T00:00:00Z', until: '2024-02-29T23:59:59Z' }],
      ['every option at its limit', { ...ONE_HOUR_RANGE, delimiter: '|', max_records_in_file: 100_000 }],
      ['max_records_in_file 1', { ...ONE_HOUR_RANGE, max_records_in_file: 1 }],
      ['a conversation', { conversation_id: 'sp_demo_post_with_underscores' }],
    ])('accepts %s', async (_case, body) => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);

      // Act
      const response = await postExport(sim, exportHeaders(token), body);

      // Assess
      expect(response.status).toBe(200);
      expect(sim.listExports()[0]?.request).toEqual(body);
    });

    it('answers 413 to a body over 1 MiB', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      const body = JSON.stringify({ ...ONE_HOUR_RANGE, padding: 'x'.repeat(MAX_LOCAL_REQUEST_BODY_BYTES) });

      // Act
      const response = await postExport(sim, exportHeaders(token), body);

      // Assess
      expect(response.status).toBe(413);
      expect(sim.listExports()).toEqual([]);
    });
  });

  describe('routing', () => {
    it('answers 404 with a JSON body to an unknown route', async () => {
      // Prepare
      const sim = await start();

      // Act
      const response = await fetch(`${sim.url}/v5/export`);

      // Assess
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: expect.any(String) });
      expect(sim.requestLog.at(-1)).toMatchObject({ endpoint: 'unknown', status: 404 });
    });

    it('answers 405 to a known route called with the wrong method', async () => {
      // Prepare
      const sim = await start();

      // Act
      const response = await fetch(`${sim.url}/v4/export/abort?id=x`, { method: 'POST' });

      // Assess
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
    });

    it('closes promptly while a keep-alive connection is open', async () => {
      // Prepare
      const sim = await startOpenWebSimulator();
      await fetch(`${sim.url}/v4/export/list`);

      // Act
      await sim.close();

      // Assess
      await expect(fetch(`${sim.url}/v4/export/list`)).rejects.toThrow();
    });
  });
});
