import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeAbortHandler } from '../../functions/abort';
import { makeCheckStatusHandler } from '../../functions/check-status';
import { makeListHandler } from '../../functions/list';
import { makeStartHandler } from '../../functions/start';
import { makeWorkflowTaskHandler } from '../../functions/workflow-task';
import type { ScheduleRunResult } from '../../lib/exports/coverage/runSchedule';
import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import type { ExportRecord } from '../../lib/exports/record/ExportRecord';
import { DEFAULT_EXPORT_SETTINGS } from '../../lib/exports/record/ExportSettings';
import type { CredentialsProvider } from '../../lib/exports/upstream/CredentialsProvider';
import { CredentialsNotFoundError } from '../../lib/exports/upstream/errors';
import type { PollingWorkflows } from '../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../lib/exports/workflow/workflowContract';
import { OpenWebClient } from '../../lib/openweb/OpenWebClient';
import { handlerRuntimeFor } from '../../lib/runtime/HandlerRuntime';
import { DynamoDbBackfillStore } from '../../lib/store/DynamoDbBackfillStore';
import { DynamoDbCoverageLedger } from '../../lib/store/DynamoDbCoverageLedger';
import { DynamoDbExportStore } from '../../lib/store/DynamoDbExportStore';
import { DynamoDbIdempotencyKeys } from '../../lib/store/DynamoDbIdempotencyKeys';
import { DynamoDbSpotLocks } from '../../lib/store/DynamoDbSpotLocks';
import { DynamoDbTokenStore } from '../../lib/store/DynamoDbTokenStore';
import { InMemoryExportMetrics } from '../../local/InMemoryExportMetrics';
import {
  DEMO_SPOTS,
  type OpenWebSimulator,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../support/apiGatewayEvents';
import { type DynaliteTable, startDynaliteTable } from '../support/dynalite';

const SPOT = 'sp_demo';
const OTHER_SPOT = 'sp_other';
const DATE_RANGE = { from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' };
const MINUTE_MS = 60_000;
/** Bounds the simulated workflow loop: a day of minute-long waits. */
const MAX_SIMULATED_POLLS = 24 * 60;

class ManualClock {
  nowMs = Date.parse('2026-11-01T12:00:00Z');
  readonly now = (): number => this.nowMs;
}

/** Records what the use cases ask of the workflow runner; nothing runs by itself. */
class RecordingWorkflows implements PollingWorkflows {
  readonly started: { executionName: string; input: PollingWorkflowInput }[] = [];
  readonly stopped: string[] = [];

  async start(executionName: string, input: PollingWorkflowInput): Promise<void> {
    this.started.push({ executionName, input });
  }

  async stop(executionName: string): Promise<void> {
    this.stopped.push(executionName);
  }

  async isRunning(executionName: string): Promise<boolean> {
    return (
      this.started.some((start) => start.executionName === executionName) &&
      !this.stopped.includes(executionName)
    );
  }
}

const demoCredentials: CredentialsProvider = {
  async getCredentials(spotId) {
    const spot = DEMO_SPOTS[spotId];
    if (spot === undefined) throw new CredentialsNotFoundError(spotId, 'demo spots');
    return { spotId, apiKey: spot.apiKey };
  },
};

describe('handlers against DynamoDB (dynalite) and the OpenWeb simulator over HTTP', () => {
  let clock: ManualClock;
  let simulator: OpenWebSimulator;
  let table: DynaliteTable;
  let workflows: RecordingWorkflows;
  let announced: ExportRecord[];
  let handlers: {
    start: ReturnType<typeof makeStartHandler>;
    check: ReturnType<typeof makeCheckStatusHandler>;
    task: ReturnType<typeof makeWorkflowTaskHandler>;
    abort: ReturnType<typeof makeAbortHandler>;
    list: ReturnType<typeof makeListHandler>;
  };

  beforeEach(async () => {
    clock = new ManualClock();
    simulator = await startOpenWebSimulator({ now: clock.now, authRequestsPerSecond: 0 });
    table = await startDynaliteTable();
    workflows = new RecordingWorkflows();
    announced = [];
    const { documentClient: client, tableName } = table;
    const dependencies: ExportDependencies = {
      store: new DynamoDbExportStore({ client, tableName }),
      coverage: new DynamoDbCoverageLedger({ client, tableName }),
      backfills: new DynamoDbBackfillStore({ client, tableName }),
      spotLocks: new DynamoDbSpotLocks({ client, tableName, now: clock.now }),
      idempotencyKeys: new DynamoDbIdempotencyKeys({ client, tableName, now: clock.now }),
      credentials: demoCredentials,
      upstream: new OpenWebClient({
        authBaseUrl: simulator.url,
        exportBaseUrl: simulator.url,
        credentials: demoCredentials,
        tokenStore: new DynamoDbTokenStore({ client, tableName, now: clock.now }),
        retry: { totalBudgetMs: 500 },
        now: clock.now,
      }),
      workflows,
      events: {
        publishTerminal: async (record) => void announced.push(record),
        publishCoverageGap: async () => {},
      },
      metrics: new InMemoryExportMetrics(),
      settings: DEFAULT_EXPORT_SETTINGS,
      now: clock.now,
    };
    const runtime = handlerRuntimeFor(dependencies, { logger: silentLogger() });
    handlers = {
      start: makeStartHandler(runtime),
      check: makeCheckStatusHandler(runtime),
      task: makeWorkflowTaskHandler(runtime),
      abort: makeAbortHandler(runtime),
      list: makeListHandler(runtime),
    };
  });

  afterEach(async () => {
    await simulator.close();
    await table.close();
  });

  async function start(spotId: string, body: unknown = DATE_RANGE, headers: Record<string, string> = {}) {
    return parseResponse(await handlers.start(apiRequests.start(spotId, body, headers), lambdaContext()));
  }

  /** A start, then the workflow's create task, as the deployed state machine runs it right away. */
  async function startCreated(spotId: string, body: unknown = DATE_RANGE) {
    const started = await start(spotId, body);
    await runCreateTask(started.body.exportId as string);
    return started;
  }

  /** The state machine's first step: the create task, retried while it says the create was deferred. */
  async function runCreateTask(exportId: string): Promise<unknown> {
    const started = workflows.started.find((run) => run.input.exportId === exportId);
    if (started === undefined) throw new Error(`no workflow was started for ${exportId}`);
    const { spotId, deadline } = started.input;
    for (let attempt = 0; attempt < MAX_SIMULATED_POLLS; attempt++) {
      try {
        return await handlers.task({ action: 'create', spotId, exportId, deadline }, lambdaContext());
      } catch (error) {
        if ((error as Error).name !== 'ExportCreateDeferred') throw error;
        clock.nowMs += MINUTE_MS;
      }
    }
    throw new Error('the create was never sent');
  }

  /** What the state machine does: create, wait, run the poll task, retry while it says still processing. */
  async function runPollingWorkflow(exportId: string): Promise<unknown> {
    await runCreateTask(exportId);
    const started = workflows.started.find((run) => run.input.exportId === exportId);
    if (started === undefined) throw new Error(`no workflow was started for ${exportId}`);
    const { spotId, deadline } = started.input;
    for (let poll = 0; poll < MAX_SIMULATED_POLLS; poll++) {
      clock.nowMs += MINUTE_MS;
      try {
        return await handlers.task({ action: 'poll', spotId, exportId, deadline }, lambdaContext());
      } catch (error) {
        if ((error as Error).name !== 'ExportStillProcessing') throw error;
      }
    }
    throw new Error('the export never finished');
  }

  it('starts from the API and polls to COMPLETED with links, announcing the end', async () => {
    // Act
    const started = await start(SPOT);
    const exportId = started.body.exportId as string;
    const output = (await runPollingWorkflow(exportId)) as { status: string; fileCount: number };
    const read = parseResponse(await handlers.check(apiRequests.check(SPOT, exportId), lambdaContext()));

    // Assess
    expect(started.statusCode).toBe(202);
    expect(workflows.started).toEqual([
      { executionName: exportId, input: expect.objectContaining({ spotId: SPOT, exportId }) },
    ]);
    expect(output.status).toBe('COMPLETED');
    expect(output.fileCount).toBeGreaterThan(0);
    expect(read.body).toMatchObject({ exportId, status: 'COMPLETED' });
    expect(read.body.links).toHaveLength(output.fileCount);
    expect(announced.map((record) => [record.exportId, record.status])).toEqual([[exportId, 'COMPLETED']]);
  });

  it('aborts a running export, answers 202 again on repeat, and 409 for a completed one', async () => {
    // Prepare
    const running = (await startCreated(SPOT)).body.exportId as string;

    // Act
    const aborted = parseResponse(await handlers.abort(apiRequests.abort(SPOT, running), lambdaContext()));
    const again = parseResponse(await handlers.abort(apiRequests.abort(SPOT, running), lambdaContext()));
    const next = (await start(SPOT, { conversationId: `${SPOT}_post-1` })).body.exportId as string;
    await runPollingWorkflow(next);
    const afterCompletion = parseResponse(
      await handlers.abort(apiRequests.abort(SPOT, next), lambdaContext()),
    );

    // Assess
    expect([aborted.statusCode, aborted.body.status]).toEqual([202, 'ABORTED']);
    expect([again.statusCode, again.body.status]).toEqual([202, 'ABORTED']);
    expect(workflows.stopped).toEqual([running]);
    expect(simulator.requestsTo('abort')).toHaveLength(1);
    expect(afterCompletion.statusCode).toBe(409);
    expect(afterCompletion.body).toMatchObject({
      type: '/problems/export-already-finished',
      exportStatus: 'COMPLETED',
    });
  });

  it("lists a spot's exports newest first, page by page", async () => {
    // Prepare
    const exportIds: string[] = [];
    for (const postId of ['a', 'b', 'c', 'd', 'e']) {
      const exportId = (await start(SPOT, { conversationId: `${SPOT}_${postId}` })).body.exportId as string;
      await handlers.abort(apiRequests.abort(SPOT, exportId), lambdaContext());
      exportIds.unshift(exportId);
      clock.nowMs += 1_000;
    }

    // Act
    const seen: string[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const query = { limit: '2', ...(nextToken !== undefined && { nextToken }) };
      const page = parseResponse(await handlers.list(apiRequests.list(SPOT, query), lambdaContext()));
      seen.push(...(page.body.items as { exportId: string }[]).map((item) => item.exportId));
      nextToken = page.body.nextToken as string | undefined;
      pages += 1;
    } while (nextToken !== undefined);
    const otherSpot = parseResponse(await handlers.list(apiRequests.list(OTHER_SPOT), lambdaContext()));

    // Assess
    expect(seen).toEqual(exportIds);
    expect(pages).toBe(3);
    expect(otherSpot.body).toMatchObject({ items: [], total: { exports: 0, cost: { totalUsd: 0 } } });
  });

  it('answers 409 with the active export while the spot is busy', async () => {
    // Prepare
    const active = (await startCreated(SPOT)).body.exportId;

    // Act
    const busy = await start(SPOT, { conversationId: `${SPOT}_post-2` });

    // Assess
    expect(busy.statusCode).toBe(409);
    expect(busy.body).toMatchObject({ type: '/problems/spot-busy', status: 409, activeExportId: active });
    expect(simulator.requestsTo('create')).toHaveLength(1);
  });

  it("answers 404 for another spot's export on status and abort, and changes nothing", async () => {
    // Prepare
    const exportId = (await startCreated(SPOT)).body.exportId as string;

    // Act
    const status = parseResponse(
      await handlers.check(apiRequests.check(OTHER_SPOT, exportId), lambdaContext()),
    );
    const abort = parseResponse(
      await handlers.abort(apiRequests.abort(OTHER_SPOT, exportId), lambdaContext()),
    );
    const own = parseResponse(await handlers.check(apiRequests.check(SPOT, exportId), lambdaContext()));

    // Assess
    expect([status.statusCode, abort.statusCode]).toEqual([404, 404]);
    expect(status.body).toMatchObject({ type: '/problems/export-not-found' });
    expect(own.body.status).toBe('PROCESSING');
    expect(simulator.requestsTo('abort')).toHaveLength(0);
  });

  it('records a scheduled export, and a redelivered schedule event creates nothing more upstream', async () => {
    // Prepare
    const event = {
      source: 'schedule',
      spotId: SPOT,
      schedule: 'six-hourly',
      window: 'PT6H',
      scheduledTime: '2026-11-01T06:00:00Z',
    };

    // Act
    const first = (await handlers.start(event, lambdaContext())) as ScheduleRunResult;
    const redelivered = (await handlers.start({ ...event }, lambdaContext())) as ScheduleRunResult;
    const exportId = first.windows[0]?.exportId as string;
    await runCreateTask(exportId);
    await handlers.start({ ...event }, lambdaContext());
    const read = parseResponse(await handlers.check(apiRequests.check(SPOT, exportId), lambdaContext()));

    // Assess
    expect(first.windows).toEqual([expect.objectContaining({ planned: true, status: 'REQUESTED' })]);
    // The watermark had moved to the run's end: nothing left to plan.
    expect(redelivered).toMatchObject({ watermark: first.watermark, windows: [] });
    expect(workflows.started).toHaveLength(1);
    expect(simulator.requestsTo('create')).toHaveLength(1);
    expect(read.body).toMatchObject({
      source: 'schedule',
      origin: { schedule: 'six-hourly' },
      request: { kind: 'dateRange', from: '2026-11-01T00:00:00Z', until: '2026-11-01T06:00:00Z' },
    });
  });
});
