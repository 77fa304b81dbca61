import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  CredentialsProvider,
  GetCredentialsOptions,
} from '../../../../lib/exports/upstream/CredentialsProvider';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  ExportConflictError,
  ExportNotAbortableError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
} from '../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../lib/exports/upstream/UpstreamExports';
import { OpenWebClient, type OpenWebClientOptions } from '../../../../lib/openweb/OpenWebClient';
import type { OpenWebClientEvent } from '../../../../lib/openweb/OpenWebClientEvent';
import {
  DEMO_SPOTS,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from '../../../../local/openweb-simulator/index';

const SPOT = 'sp_demo';
const API_KEY = DEMO_SPOTS.sp_demo?.apiKey ?? 'demo-api-key';
const CONVERSATION = { conversationId: `${SPOT}_post-1` };
const MINUTE_MS = 60_000;

class StaticCredentials implements CredentialsProvider {
  readonly forcedRefreshes: string[] = [];

  constructor(
    private readonly keys: { cached: string; refreshed: string } = { cached: API_KEY, refreshed: API_KEY },
  ) {}

  async getCredentials(spotId: string, options?: GetCredentialsOptions) {
    if (options?.forceRefresh) this.forcedRefreshes.push(spotId);
    return { spotId, apiKey: options?.forceRefresh ? this.keys.refreshed : this.keys.cached };
  }
}

/** Simulated time for the simulator and the client: it moves only when a test or a retry wait moves it. */
class TestClock {
  nowMs = Date.parse('2026-03-01T00:00:00Z');
  readonly now = (): number => this.nowMs;
  readonly sleep = async (ms: number): Promise<void> => {
    this.nowMs += ms;
  };
}

describe('OpenWebClient against the OpenWeb simulator', () => {
  let clock: TestClock;
  let simulator: OpenWebSimulator | undefined;
  const events: OpenWebClientEvent[] = [];

  beforeEach(() => {
    clock = new TestClock();
    events.length = 0;
  });

  afterEach(async () => {
    await simulator?.close();
    simulator = undefined;
  });

  async function start(options: OpenWebSimulatorOptions = {}): Promise<OpenWebSimulator> {
    simulator = await startOpenWebSimulator({ now: clock.now, ...options });
    return simulator;
  }

  function clientFor(sim: OpenWebSimulator, options: Partial<OpenWebClientOptions> = {}): OpenWebClient {
    return new OpenWebClient({
      authBaseUrl: sim.authBaseUrl,
      exportBaseUrl: sim.exportBaseUrl,
      credentials: new StaticCredentials(),
      now: clock.now,
      sleep: clock.sleep,
      onEvent: (event) => events.push(event),
      ...options,
    });
  }

  it.each(['statusLinkOnly', 'statusLinkPath', 'withId'] as const)(
    'creates an export, sees it processing, then completed with links (%s create answers)',
    async (createResponseStyle) => {
      // Prepare
      const sim = await start({ createResponseStyle });
      const client = clientFor(sim);

      // Act
      const created = await client.createExport(SPOT, {
        from: '2026-02-28T00:00:00Z',
        until: '2026-02-28T01:00:00Z',
      });
      const whileRunning = await client.getExportStatus(SPOT, created.exportId);
      clock.nowMs = (sim.getExport(created.exportId)?.finishesAt ?? Number.POSITIVE_INFINITY) + 1;
      const finished = await client.getExportStatus(SPOT, created.exportId);
      const listed = await client.listExports(SPOT);

      // Assess
      expect(sim.listExports(SPOT).map((view) => view.id)).toEqual([created.exportId]);
      expect(whileRunning).toMatchObject({
        exportId: created.exportId,
        status: UpstreamExportStatus.PROCESSING,
      });
      expect(finished.status).toBe(UpstreamExportStatus.COMPLETED);
      expect(finished.links.length).toBeGreaterThan(0);
      expect(finished.links).toEqual(sim.getExport(created.exportId)?.links);
      expect(listed.map((item) => [item.exportId, item.status])).toEqual([
        [created.exportId, UpstreamExportStatus.COMPLETED],
      ]);
    },
  );

  it('reports an export the upstream failed as failed', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);

    // Act
    sim.finishExport(created.exportId, 'failed');
    const report = await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(report).toMatchObject({ status: UpstreamExportStatus.FAILED, links: [] });
  });

  it('aborts a running export (202) and then sees it aborted', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);

    // Act
    await client.abortExport(SPOT, created.exportId);
    const report = await client.getExportStatus(SPOT, created.exportId);
    const secondAbort = client.abortExport(SPOT, created.exportId);

    // Assess
    expect(sim.requestsTo('abort')[0]?.status).toBe(202);
    expect(report.status).toBe(UpstreamExportStatus.ABORTED);
    await expect(secondAbort).rejects.toBeInstanceOf(ExportNotAbortableError);
  });

  it('reports an unknown export id as UpstreamExportNotFoundError', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);

    // Act / Assess
    await expect(client.getExportStatus(SPOT, 'exp_unknown')).rejects.toBeInstanceOf(
      UpstreamExportNotFoundError,
    );
  });

  it('authenticates once for 100 concurrent status calls with a cold token cache', async () => {
    // Prepare: another process created the export and used its own token a while ago
    const sim = await start();
    const created = await clientFor(sim).createExport(SPOT, CONVERSATION);
    clock.nowMs += 5_000;
    sim.clearRequestLog();
    const coldClient = clientFor(sim);

    // Act
    const reports = await Promise.all(
      Array.from({ length: 100 }, () => coldClient.getExportStatus(SPOT, created.exportId)),
    );

    // Assess
    expect(sim.requestsTo('auth').length).toBe(1);
    expect(sim.requestsTo('status').length).toBe(100);
    expect(reports.every((report) => report.status === UpstreamExportStatus.PROCESSING)).toBe(true);
  });

  it('re-authenticates exactly once when the upstream rejects a token that expired mid-run', async () => {
    // Prepare: the client's clock lags the upstream's, so only the upstream knows the token expired
    const simulatorClock = new TestClock();
    const sim = await start({ now: simulatorClock.now, tokenTtlSeconds: 10 * 60 });
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);

    // Act
    simulatorClock.nowMs += 11 * MINUTE_MS;
    clock.nowMs += MINUTE_MS;
    const report = await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(report.exportId).toBe(created.exportId);
    expect(sim.requestsTo('auth').length).toBe(2);
    expect(sim.requestsTo('status').map((request) => request.status)).toEqual([401, 200]);
    expect(events.filter((event) => event.type === 'tokenRejected')).toHaveLength(1);
  });

  it('re-authenticates once when 100 concurrent calls all hold a token the upstream now rejects', async () => {
    // Prepare
    const simulatorClock = new TestClock();
    const sim = await start({ now: simulatorClock.now, tokenTtlSeconds: 10 * 60 });
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);
    simulatorClock.nowMs += 11 * MINUTE_MS;
    sim.clearRequestLog();

    // Act
    const reports = await Promise.all(
      Array.from({ length: 100 }, () => client.getExportStatus(SPOT, created.exportId)),
    );

    // Assess
    expect(reports).toHaveLength(100);
    expect(sim.requestsTo('auth').length).toBe(1);
    expect(sim.requestsTo('status').filter((request) => request.status === 200)).toHaveLength(100);
  });

  it('replaces a token before it expires without the upstream having to reject it', async () => {
    // Prepare
    const sim = await start();
    sim.setTokenTtlSeconds(10 * 60);
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);

    // Act: inside the default 5 minute refresh margin
    clock.nowMs += 6 * MINUTE_MS;
    await client.getExportStatus(SPOT, created.exportId);
    await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(sim.requestsTo('auth').length).toBe(2);
    expect(sim.requestsTo('status').map((request) => request.status)).toEqual([200, 200]);
  });

  it('recovers from a rotated API key with one forced credential refresh', async () => {
    // Prepare
    const sim = await start();
    const credentials = new StaticCredentials({ cached: 'old-key', refreshed: API_KEY });
    const client = clientFor(sim, { credentials });

    // Act
    const created = await client.createExport(SPOT, CONVERSATION);

    // Assess
    expect(created.exportId).toMatch(/^exp_/);
    expect(credentials.forcedRefreshes).toEqual([SPOT]);
    expect(sim.requestsTo('auth').map((request) => request.status)).toContain(401);
  });

  it('does not resend a create whose connection was reset after processing', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    await client.authenticate(SPOT);
    sim.setFaults({ script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }] });

    // Act
    const failure = client.createExport(SPOT, CONVERSATION);

    // Assess
    await expect(failure).rejects.toBeInstanceOf(AmbiguousCreateError);
    await expect(failure).rejects.toMatchObject({ reason: AmbiguousCreateReason.CONNECTION_LOST });
    expect(sim.requestsTo('create').length).toBe(1);
    expect(sim.listExports(SPOT)).toHaveLength(1);
    // The export exists upstream: a new create is refused, as the recovery path expects.
    await expect(client.createExport(SPOT, CONVERSATION)).rejects.toBeInstanceOf(ExportConflictError);
  });

  it('does not resend a create whose answer is unreadable', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    sim.setFaults({ script: [{ endpoint: 'create', kind: 'malformedBody' }] });

    // Act
    const failure = client.createExport(SPOT, CONVERSATION);

    // Assess
    await expect(failure).rejects.toMatchObject({ reason: AmbiguousCreateReason.UNREADABLE_RESPONSE });
    expect(sim.requestsTo('create').length).toBe(1);
  });

  it('treats any reset of a create as ambiguous, since the client cannot tell when it happened', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    sim.setFaults({ script: [{ endpoint: 'create', kind: 'resetBeforeProcessing' }] });

    // Act
    const failure = client.createExport(SPOT, CONVERSATION);

    // Assess
    await expect(failure).rejects.toBeInstanceOf(AmbiguousCreateError);
    expect(sim.requestsTo('create').length).toBe(1);
    expect(sim.listExports(SPOT)).toHaveLength(0);
  });

  it('waits out a burst of 429s on status and then succeeds', async () => {
    // Prepare
    const sim = await start();
    // A budget the three waits fit in (the functions' default budget is shorter: their API calls must answer in time).
    const client = clientFor(sim, { retry: { totalBudgetMs: 10_000 } });
    const created = await client.createExport(SPOT, CONVERSATION);
    sim.setFaults({ script: [{ endpoint: 'status', kind: 'rateLimit', times: 3, retryAfterSeconds: 2 }] });
    const startedAt = clock.nowMs;

    // Act
    const report = await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(report.status).toBe(UpstreamExportStatus.PROCESSING);
    expect(sim.requestsTo('status').map((request) => request.status)).toEqual([429, 429, 429, 200]);
    expect(clock.nowMs - startedAt).toBe(6_000);
  });

  it('resends a create rejected with 429, creating exactly one export', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    sim.setFaults({ script: [{ endpoint: 'create', kind: 'rateLimit', times: 2, retryAfterSeconds: null }] });

    // Act
    const created = await client.createExport(SPOT, CONVERSATION);

    // Assess
    expect(sim.requestsTo('create').map((request) => request.status)).toEqual([429, 429, 200]);
    expect(sim.listExports(SPOT).map((view) => view.id)).toEqual([created.exportId]);
  });

  it('retries a 503 on status and then succeeds', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);
    sim.setFaults({ script: [{ endpoint: 'status', kind: 'error', status: 503 }] });

    // Act
    const report = await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(report.exportId).toBe(created.exportId);
    expect(sim.requestsTo('status').map((request) => request.status)).toEqual([503, 200]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'retry', reason: 'HTTP 503', attempt: 2 }));
  });

  it('reports an unreadable status answer as UpstreamProtocolError', async () => {
    // Prepare
    const sim = await start();
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);
    sim.setFaults({ script: [{ endpoint: 'status', kind: 'malformedBody' }] });

    // Act / Assess
    await expect(client.getExportStatus(SPOT, created.exportId)).rejects.toBeInstanceOf(
      UpstreamProtocolError,
    );
  });

  it('waits out the auth rate limit when two clients authenticate within one second', async () => {
    // Prepare
    const sim = await start();

    // Act
    await clientFor(sim).authenticate(SPOT);
    await clientFor(sim).authenticate(SPOT);

    // Assess
    expect(sim.requestsTo('auth').map((request) => request.status)).toEqual([200, 429, 200]);
  });

  it('completes under a scaled simulated time', async () => {
    // Prepare: a 30 s conversation export lasts 30 ms of the shared clock
    const sim = await start({ timeScale: 0.001 });
    const client = clientFor(sim);
    const created = await client.createExport(SPOT, CONVERSATION);

    // Act
    clock.nowMs += 31;
    const report = await client.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(report.status).toBe(UpstreamExportStatus.COMPLETED);
  });
});
