import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import {
  InvalidSimulatorFaultsError,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  type SimulatorFaults,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';

const START_MS = Date.parse('2024-05-01T00:00:00Z');
const ONE_HOUR_RANGE = { from: '2024-04-01T00:00:00Z', until: '2024-04-01T01:00:00Z' };
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::ffff:127.0.0.1'];

const simulators: OpenWebSimulator[] = [];

afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});

async function start(options: OpenWebSimulatorOptions = {}): Promise<OpenWebSimulator> {
  const sim = await startOpenWebSimulator({ authRequestsPerSecond: 0, now: () => START_MS, ...options });
  simulators.push(sim);
  return sim;
}

async function authenticate(
  sim: OpenWebSimulator,
  spotId = 'sp_demo',
  apiKey = 'demo-api-key',
): Promise<string> {
  const response = await postAuth(sim, spotId, apiKey);
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

function postAuth(sim: OpenWebSimulator, spotId = 'sp_demo', apiKey = 'demo-api-key'): Promise<Response> {
  return fetch(`${sim.authBaseUrl}/v1/publisher/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spot_id: spotId, apikey: apiKey }),
  });
}

function exportHeaders(token: string, spotId = 'sp_demo'): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'x-spot-id': spotId, 'content-type': 'application/json' };
}

function postExport(sim: OpenWebSimulator, token: string, body: unknown = ONE_HOUR_RANGE): Promise<Response> {
  return fetch(`${sim.exportBaseUrl}/v4/export`, {
    method: 'POST',
    headers: exportHeaders(token),
    body: JSON.stringify(body),
  });
}

function listExports(sim: OpenWebSimulator, token: string): Promise<Response> {
  return fetch(`${sim.exportBaseUrl}/v4/export/list`, { headers: exportHeaders(token) });
}

/** The status answered, or 'reset' when the connection was torn down instead. */
async function statusOrReset(call: Promise<Response>): Promise<number | 'reset'> {
  try {
    const response = await call;
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(code);
    return 'reset';
  }
}

function controlCall(sim: OpenWebSimulator, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sim.url}/__simulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('OpenWeb simulator faults', () => {
  describe('scripted faults', () => {
    it('answers 429 with the scripted Retry-After, the default one, or none', async () => {
      // Prepare
      const sim = await start({
        faults: {
          script: [
            { endpoint: 'auth', kind: 'rateLimit', retryAfterSeconds: 7 },
            { endpoint: 'auth', kind: 'rateLimit' },
            { endpoint: 'auth', kind: 'rateLimit', retryAfterSeconds: null },
          ],
        },
      });

      // Act
      const responses = [await postAuth(sim), await postAuth(sim), await postAuth(sim), await postAuth(sim)];

      // Assess
      expect(responses.map((response) => response.status)).toEqual([429, 429, 429, 200]);
      expect(responses.slice(0, 3).map((response) => response.headers.get('retry-after'))).toEqual([
        '7',
        '1',
        null,
      ]);
    });

    it('answers the scripted error status without creating anything', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      sim.setFaults({
        script: [
          { endpoint: 'create', kind: 'error' },
          { endpoint: 'create', kind: 'error', status: 500 },
        ],
      });

      // Act
      const first = await postExport(sim, token);
      const second = await postExport(sim, token);

      // Assess
      expect([first.status, second.status]).toEqual([503, 500]);
      expect(await first.json()).toEqual({ message: expect.any(String) });
      expect(sim.listExports()).toEqual([]);
    });

    it('applies a scripted fault to as many calls as its times, then answers normally', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      sim.setFaults({ script: [{ endpoint: 'list', kind: 'error', times: 2 }] });

      // Act
      const statuses = [];
      for (let call = 0; call < 3; call += 1) {
        statuses.push(await statusOrReset(listExports(sim, token)));
      }

      // Assess
      expect(statuses).toEqual([503, 503, 200]);
    });

    it('keeps a scripted fault for its own endpoint', async () => {
      // Prepare
      const sim = await start({ faults: { script: [{ endpoint: 'status', kind: 'error' }] } });
      const token = await authenticate(sim);

      // Act
      const create = await postExport(sim, token);
      const list = await listExports(sim, token);
      const status = await fetch(`${sim.exportBaseUrl}/v4/export/status?id=x`, {
        headers: exportHeaders(token),
      });

      // Assess
      expect([create.status, list.status, status.status]).toEqual([200, 200, 503]);
    });

    it('resets the connection before processing a create, leaving no export behind', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      sim.setFaults({ script: [{ endpoint: 'create', kind: 'resetBeforeProcessing' }] });

      // Act
      const outcome = await statusOrReset(postExport(sim, token));
      const retry = await statusOrReset(postExport(sim, token));

      // Assess
      expect(outcome).toBe('reset');
      expect(retry).toBe(200);
      expect(sim.listExports()).toHaveLength(1);
      expect(sim.requestsTo('create').map((entry) => entry.status)).toEqual(['reset', 200]);
    });

    it('creates the export, then resets the connection, so a retry meets 409', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      sim.setFaults({ script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }] });

      // Act
      const outcome = await statusOrReset(postExport(sim, token));
      const retry = await statusOrReset(postExport(sim, token));

      // Assess
      expect(outcome).toBe('reset');
      expect(retry).toBe(409);
      const [created] = sim.listExports('sp_demo');
      expect(created?.state).toBe('processing');
      expect(sim.requestsTo('create')[0]).toMatchObject({
        status: 'reset',
        fault: 'resetAfterProcessing',
        exportId: created?.id,
      });
    });

    it('answers 200 with a body that is not JSON after processing the call', async () => {
      // Prepare
      const sim = await start({ faults: { script: [{ endpoint: 'create', kind: 'malformedBody' }] } });
      const token = await authenticate(sim);

      // Act
      const response = await postExport(sim, token);
      const text = await response.text();

      // Assess
      expect(response.status).toBe(200);
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(sim.listExports()).toHaveLength(1);
    });

    it('delays a call by the scripted latency, then answers normally', async () => {
      // Prepare
      const latencyMs = 150;
      const sim = await start({ faults: { script: [{ endpoint: 'auth', kind: 'latency', latencyMs }] } });
      const startedAt = performance.now();

      // Act
      const response = await postAuth(sim);
      const elapsedMs = performance.now() - startedAt;

      // Assess: a lower bound only, which a slow machine cannot break
      expect(response.status).toBe(200);
      expect(elapsedMs).toBeGreaterThanOrEqual(latencyMs - 5);
      expect(sim.requestsTo('auth')[0]?.fault).toBe('latency');
    });

    it('replaces the script queue when the faults are set again', async () => {
      // Prepare
      const sim = await start({ faults: { script: [{ endpoint: 'auth', kind: 'error', times: 5 }] } });

      // Act
      sim.setFaults({});
      const response = await postAuth(sim);

      // Assess
      expect(response.status).toBe(200);
    });

    it('rejects a fault configuration that makes no sense', async () => {
      // Prepare
      const sim = await start();

      // Act
      const setInvalid = () => sim.setFaults({ endpoints: { auth: { errorRate: 2 } } });
      const setUnknownKind = () =>
        sim.setFaults({ script: [{ endpoint: 'auth', kind: 'explode' }] } as unknown as SimulatorFaults);

      // Assess
      expect(setInvalid).toThrow(InvalidSimulatorFaultsError);
      expect(setUnknownKind).toThrow(InvalidSimulatorFaultsError);
    });
  });

  describe('rate-based faults', () => {
    const mixedFaults: SimulatorFaults = {
      endpoints: {
        list: {
          errorRate: 0.2,
          errorStatus: 502,
          rateLimitRate: 0.2,
          resetBeforeProcessingRate: 0.1,
          malformedBodyRate: 0.1,
        },
      },
    };

    async function outcomesOf(seed: number, calls: number): Promise<(number | 'reset' | 'malformed')[]> {
      const sim = await start({ seed, faults: mixedFaults });
      const token = await authenticate(sim);
      const outcomes: (number | 'reset' | 'malformed')[] = [];
      for (let call = 0; call < calls; call += 1) {
        try {
          const response = await listExports(sim, token);
          const text = await response.text();
          outcomes.push(response.status === 200 && !text.endsWith('}') ? 'malformed' : response.status);
        } catch {
          outcomes.push('reset');
        }
      }
      return outcomes;
    }

    it('repeats the same sequence of outcomes for the same seed', async () => {
      // Act
      const first = await outcomesOf(42, 40);
      const second = await outcomesOf(42, 40);

      // Assess
      expect(second).toEqual(first);
      expect(new Set(first)).toEqual(new Set([200, 502, 429, 'reset', 'malformed']));
    });

    it('draws another sequence for another seed', async () => {
      // Act
      const first = await outcomesOf(42, 40);
      const other = await outcomesOf(7, 40);

      // Assess
      expect(other).not.toEqual(first);
    });

    it('applies a rate of 1 to every call and a rate of 0 to none', async () => {
      // Prepare
      const sim = await start({
        faults: { endpoints: { auth: { rateLimitRate: 1, retryAfterSeconds: 3 }, list: { errorRate: 0 } } },
      });

      // Act
      const auths = await Promise.all([postAuth(sim), postAuth(sim), postAuth(sim)]);

      // Assess
      expect(auths.map((response) => response.status)).toEqual([429, 429, 429]);
      expect(auths.map((response) => response.headers.get('retry-after'))).toEqual(['3', '3', '3']);
    });

    it('resets after processing at the configured rate, with the side effect done', async () => {
      // Prepare
      const sim = await start({ faults: { endpoints: { auth: { resetAfterProcessingRate: 1 } } } });

      // Act
      const outcome = await statusOrReset(postAuth(sim));

      // Assess
      expect(outcome).toBe('reset');
      expect(sim.requestsTo('auth')).toEqual([
        expect.objectContaining({ status: 'reset', spotId: 'sp_demo' }),
      ]);
    });
  });

  describe('request log', () => {
    it('records endpoint, spot, status, fault and client address of every request', async () => {
      // Prepare
      const sim = await start({ faults: { script: [{ endpoint: 'status', kind: 'error' }] } });
      const token = await authenticate(sim);
      await postExport(sim, token);
      const [created] = sim.listExports();

      // Act
      await fetch(`${sim.exportBaseUrl}/v4/export/status?id=${created?.id}`, {
        headers: exportHeaders(token),
      });
      await fetch(`${sim.url}/nowhere`);

      // Assess
      expect(sim.requestLog).toEqual([
        {
          at: START_MS,
          endpoint: 'auth',
          method: 'POST',
          path: '/v1/publisher/auth',
          spotId: 'sp_demo',
          status: 200,
          clientAddress: expect.toBeOneOf(LOOPBACK_ADDRESSES),
        },
        expect.objectContaining({
          endpoint: 'create',
          spotId: 'sp_demo',
          exportId: created?.id,
          status: 200,
        }),
        expect.objectContaining({
          endpoint: 'status',
          path: '/v4/export/status',
          spotId: 'sp_demo',
          exportId: created?.id,
          status: 503,
          fault: 'error',
        }),
        expect.objectContaining({ endpoint: 'unknown', method: 'GET', path: '/nowhere', status: 404 }),
      ]);
    });

    it('filters by endpoint and clears on demand', async () => {
      // Prepare
      const sim = await start();
      await authenticate(sim);
      await authenticate(sim, 'sp_other', 'other-api-key');
      await postAuth(sim, 'sp_demo', 'wrong');
      const token = await authenticate(sim);
      await listExports(sim, token);

      // Act
      const auths = sim.requestsTo('auth');
      sim.clearRequestLog();

      // Assess
      expect(auths.map((entry) => [entry.spotId, entry.status])).toEqual([
        ['sp_demo', 200],
        ['sp_other', 200],
        ['sp_demo', 401],
        ['sp_demo', 200],
      ]);
      expect(sim.requestLog).toEqual([]);
    });
  });

  describe('control surface', () => {
    it('sets faults over HTTP and rejects invalid ones with 400', async () => {
      // Prepare
      const sim = await start();

      // Act
      const accepted = await controlCall(sim, 'PUT', 'faults', {
        script: [{ endpoint: 'auth', kind: 'error' }],
      });
      const rejected = await controlCall(sim, 'PUT', 'faults', { endpoints: { auth: { errorRate: -1 } } });
      const auth = await postAuth(sim);

      // Assess
      expect(accepted.status).toBe(204);
      expect(rejected.status).toBe(400);
      expect(auth.status).toBe(503);
    });

    it('serves and clears the request log', async () => {
      // Prepare
      const sim = await start();
      await postAuth(sim);

      // Act
      const read = await controlCall(sim, 'GET', 'requests');
      const cleared = await controlCall(sim, 'DELETE', 'requests');

      // Assess
      const { requests } = (await read.json()) as { requests: { endpoint: string; status: number }[] };
      expect(requests).toEqual([expect.objectContaining({ endpoint: 'auth', status: 200 })]);
      expect(cleared.status).toBe(204);
      expect(sim.requestLog).toEqual([]);
    });

    it('lists exports and finishes one on demand', async () => {
      // Prepare
      const sim = await start();
      const token = await authenticate(sim);
      await postExport(sim, token);
      const [created] = sim.listExports();
      const id = created?.id as string;

      // Act
      const listed = await controlCall(sim, 'GET', 'exports?spotId=sp_demo');
      const finished = await controlCall(sim, 'POST', `exports/${id}/finish`, { outcome: 'completed' });
      const again = await controlCall(sim, 'POST', `exports/${id}/finish`, { outcome: 'failed' });
      const unknown = await controlCall(sim, 'POST', 'exports/exp_none/finish', { outcome: 'failed' });
      const badOutcome = await controlCall(sim, 'POST', `exports/${id}/finish`, { outcome: 'done' });
      const status = await fetch(`${sim.exportBaseUrl}/v4/export/status?id=${id}`, {
        headers: exportHeaders(token),
      });

      // Assess
      expect(((await listed.json()) as { exports: { id: string }[] }).exports.map((view) => view.id)).toEqual(
        [id],
      );
      expect(finished.status).toBe(200);
      expect(await finished.json()).toMatchObject({ id, state: 'completed', finishesAt: START_MS });
      expect([again.status, unknown.status, badOutcome.status]).toEqual([409, 404, 400]);
      expect(await status.json()).toEqual({ id, status: 'Done', links: [expect.any(String)] });
    });

    it('sets the token lifetime and adds spots over HTTP', async () => {
      // Prepare
      const sim = await start();

      // Act
      const ttl = await controlCall(sim, 'PUT', 'token-ttl', { seconds: 30 });
      const spot = await controlCall(sim, 'PUT', 'spots/sp_extra', { apiKey: 'extra-key' });
      const token = await authenticate(sim, 'sp_extra', 'extra-key');
      const badTtl = await controlCall(sim, 'PUT', 'token-ttl', { seconds: 'long' });

      // Assess
      expect([ttl.status, spot.status, badTtl.status]).toEqual([204, 204, 400]);
      const claims = decodeJwt(token);
      expect(claims.exp).toBe((claims.iat as number) + 30);
    });

    it('answers 404 to an unknown control route and logs control calls as control', async () => {
      // Prepare
      const sim = await start();

      // Act
      const response = await controlCall(sim, 'GET', 'nothing-here');

      // Assess
      expect(response.status).toBe(404);
      expect(sim.requestLog).toEqual([expect.objectContaining({ endpoint: 'control', status: 404 })]);
    });
  });

  describe('close', () => {
    it('ends a call waiting on injected latency instead of waiting for it', async () => {
      // Prepare
      const sim = await startOpenWebSimulator({ faults: { endpoints: { auth: { latencyMs: 600_000 } } } });
      const pending = statusOrReset(postAuth(sim));
      await expect.poll(() => sim.requestsInProgress).toBe(1);

      // Act
      await sim.close();

      // Assess
      await expect(pending).resolves.toBe('reset');
    });
  });
});
