import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { checkExport } from '../../../lib/exports/lifecycle/checkExport';
import { pollExportForWorkflow } from '../../../lib/exports/lifecycle/pollExportForWorkflow';
import { SpotBusyError } from '../../../lib/exports/queue/errors';
import { startExport } from '../../../lib/exports/queue/startExport';
import type { ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import {
  ExportAlreadyFinishedError,
  ExportNotFoundError,
  IdempotencyKeyReusedError,
} from '../../../lib/exports/record/errors';
import { UpstreamAuthPacedError } from '../../../lib/exports/upstream/errors';
import { WorkflowErrorNames } from '../../../lib/exports/workflow/workflowContract';
import type { AuthPacer } from '../../../lib/openweb/AuthPacer';
import { captureError } from '../../support/captureError';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { runCreateTask, startAndCreate } from '../../support/startAndCreate';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
const HOUR_MS = 60 * 60 * 1000;

describe('export use cases against dynalite and the simulator', () => {
  let h: ExportHarness;

  beforeEach(async () => {
    h = await startExportHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  it('starts an export, polls it while processing and records the links when it completes', async () => {
    // Act
    const { record: started } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const pollInput = {
      action: 'poll' as const,
      spotId: SPOT,
      exportId: started.exportId,
      deadline: '2026-11-02T00:00:00Z',
    };
    const whileProcessing = await captureError(pollExportForWorkflow(h.deps, pollInput));
    h.clock.advance(2 * HOUR_MS);
    const output = await pollExportForWorkflow(h.deps, pollInput);

    // Assess
    expect(started.status).toBe(ExportStatus.PROCESSING);
    expect(started.upstreamExportId).toBe(h.simulator.listExports(SPOT)[0]?.id);
    expect(h.workflows.started.get(started.exportId)).toMatchObject({
      spotId: SPOT,
      exportId: started.exportId,
    });
    expect(whileProcessing.name).toBe(WorkflowErrorNames.STILL_PROCESSING);
    expect(output.status).toBe(ExportStatus.COMPLETED);
    // The links stay in the record: the task's output (a state payload, capped at 256 KB) only counts them.
    expect(output).toEqual({
      spotId: SPOT,
      exportId: started.exportId,
      status: ExportStatus.COMPLETED,
      fileCount: expect.any(Number),
    });
    expect(output.fileCount).toBeGreaterThan(0);
    const stored = await h.store.getExport(SPOT, started.exportId);
    expect(stored).toMatchObject({ status: ExportStatus.COMPLETED });
    expect(stored?.links).toHaveLength(output.fileCount);
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
    expect(h.published.map((record) => record.status)).toEqual([ExportStatus.COMPLETED]);
  });

  it('hands a poll whose new sign-in finds no free auth slot to the workflow’s retry, not its failure', async () => {
    // Prepare: the fleet's auth slots are taken once the export runs, and the upstream drops our token.
    await h.close();
    let slotsTaken = false;
    const pacer: AuthPacer = {
      intervalMs: 1_100,
      acquire: async (spotId) => {
        if (slotsTaken) throw new UpstreamAuthPacedError(spotId, 4_000);
      },
      holdUntil: async () => {},
    };
    h = await startExportHarness({ client: { authPacer: pacer } });
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    slotsTaken = true;
    h.simulator.setFaults({ script: [{ endpoint: 'status', kind: 'error', status: 401 }] });

    // Act
    const error = await captureError(
      pollExportForWorkflow(h.deps, {
        action: 'poll',
        spotId: SPOT,
        exportId: record.exportId,
        deadline: '2026-11-02T00:00:00Z',
      }),
    );

    // Assess
    expect(error.name).toBe(WorkflowErrorNames.UPSTREAM_UNAVAILABLE);
    expect((error.cause as Error).name).toBe('UpstreamAuthPaced');
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.PROCESSING);
  });

  it('throws ExportPollingTimedOut past the deadline while the export still runs', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const error = await captureError(
      pollExportForWorkflow(h.deps, {
        action: 'poll',
        spotId: SPOT,
        exportId: record.exportId,
        deadline: '2026-10-31T00:00:00Z',
      }),
    );

    // Assess
    expect(error.name).toBe(WorkflowErrorNames.POLLING_TIMED_OUT);
  });

  it('answers a second start for a busy spot with SpotBusyError naming the active export', async () => {
    // Prepare
    const { record: first } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const error = await captureError(startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' }));

    // Assess
    expect(error).toBeInstanceOf(SpotBusyError);
    expect((error as SpotBusyError).activeExportId).toBe(first.exportId);
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
  });

  it('fails the export with the upstream’s reason when it rejects the create, and frees the spot', async () => {
    // Prepare
    const tooLong: ExportRequest = {
      kind: 'dateRange',
      from: '2026-01-01T00:00:00Z',
      until: '2026-03-01T00:00:00Z',
    };

    // Act
    const { record } = await startExport(h.deps, { spotId: SPOT, request: tooLong, source: 'api' });
    const error = await captureError(runCreateTask(h.deps, SPOT, record.exportId));
    const next = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Assess
    expect(error.name).toBe(WorkflowErrorNames.CREATE_REJECTED);
    const failed = await h.store.getExport(SPOT, record.exportId);
    expect(failed?.status).toBe(ExportStatus.FAILED);
    expect(failed?.failureReason).toContain('InvalidExportRequestError');
    expect(h.published.map((published) => published.status)).toEqual([ExportStatus.FAILED]);
    expect(next.record.status).toBe(ExportStatus.PROCESSING);
  });

  it('serves API checks from the record within the freshness window', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const check = () => checkExport(h.deps, { spotId: SPOT, exportId: record.exportId, mode: 'api' });
    await check();
    const statusCallsAfterFirst = h.simulator.requestsTo('status').length;

    // Act
    await Promise.all(Array.from({ length: 30 }, check));
    h.clock.advance(h.deps.settings.statusFreshnessSeconds * 1000);
    await Promise.all(Array.from({ length: 30 }, check));

    // Assess
    expect(statusCallsAfterFirst).toBe(1);
    expect(h.simulator.requestsTo('status')).toHaveLength(2);
  });

  it('hides another spot’s export as not found', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const error = await captureError(
      checkExport(h.deps, { spotId: 'sp_other', exportId: record.exportId, mode: 'api' }),
    );

    // Assess
    expect(error).toBeInstanceOf(ExportNotFoundError);
  });

  it('aborts upstream, frees the spot, stops the workflow, and answers a repeated abort the same', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const aborted = await abortExport(h.deps, {
      spotId: SPOT,
      exportId: record.exportId,
      reason: 'requested',
    });
    const again = await abortExport(h.deps, { spotId: SPOT, exportId: record.exportId, reason: 'requested' });

    // Assess
    expect(aborted.status).toBe(ExportStatus.ABORTED);
    expect(again.status).toBe(ExportStatus.ABORTED);
    expect(h.simulator.getExport(record.upstreamExportId as string)?.state).toBe('aborted');
    expect(h.simulator.requestsTo('abort')).toHaveLength(1);
    expect(h.workflows.stopped).toEqual([record.exportId]);
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('refuses to abort a completed export', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    await checkExport(h.deps, { spotId: SPOT, exportId: record.exportId, mode: 'workflow' });

    // Act
    const error = await captureError(
      abortExport(h.deps, { spotId: SPOT, exportId: record.exportId, reason: 'requested' }),
    );

    // Assess
    expect(error).toBeInstanceOf(ExportAlreadyFinishedError);
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.COMPLETED);
  });

  it('lets completion win when the upstream finished before the abort reached it', async () => {
    // Prepare
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);

    // Act
    const error = await captureError(
      abortExport(h.deps, { spotId: SPOT, exportId: record.exportId, reason: 'requested' }),
    );

    // Assess
    expect(error).toBeInstanceOf(ExportAlreadyFinishedError);
    const stored = await h.store.getExport(SPOT, record.exportId);
    expect(stored?.status).toBe(ExportStatus.COMPLETED);
    expect(stored?.links.length).toBeGreaterThan(0);
  });

  it('gives 20 concurrent starts with one idempotency key one export, one workflow and identical answers', async () => {
    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api', idempotencyKey: 'key-1' }),
      ),
    );
    await runCreateTask(h.deps, SPOT, results[0]?.record.exportId ?? '');

    // Assess
    const ids = new Set(results.map((result) => result.record.exportId));
    expect(ids.size).toBe(1);
    expect(new Set(results.map((result) => result.record.status))).toEqual(new Set([ExportStatus.REQUESTED]));
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect([...h.workflows.started.keys()]).toEqual([...ids]);
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
  });

  it('sends one create when two workflows run the create task of one export at once', async () => {
    // Prepare
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const outcomes = await Promise.allSettled([
      runCreateTask(h.deps, SPOT, record.exportId),
      runCreateTask(h.newContainer(), SPOT, record.exportId),
    ]);

    // Assess
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    // The loser waits for the winner (ExportCreateDeferred) and, retried, finds the export created.
    for (const outcome of rejected)
      expect((outcome.reason as Error).name).toBe(WorkflowErrorNames.CREATE_DEFERRED);
    await runCreateTask(h.deps, SPOT, record.exportId);
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.PROCESSING);
  });

  it('refuses an idempotency key reused for another request', async () => {
    // Prepare
    await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api', idempotencyKey: 'key-2' });

    // Act
    const error = await captureError(
      startAndCreate(h.deps, {
        spotId: SPOT,
        request: { ...DAY, from: '2026-10-29T00:00:00Z' },
        source: 'api',
        idempotencyKey: 'key-2',
      }),
    );

    // Assess
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('answers a start at once while the upstream throttles, and creates the export once it lets up', async () => {
    // Prepare
    h.simulator.setFaults({
      script: [{ endpoint: 'create', kind: 'rateLimit', retryAfterSeconds: 7, times: 1 }],
    });
    const command = {
      spotId: SPOT,
      request: DAY,
      source: 'schedule' as const,
      idempotencyKey: 'schedule:P1D:x',
    };

    // Act
    const { record } = await startExport(h.deps, command);
    const deferred = await captureError(runCreateTask(h.deps, SPOT, record.exportId));
    const waiting = await h.store.getExport(SPOT, record.exportId);
    h.clock.advance(7_000);
    await runCreateTask(h.deps, SPOT, record.exportId);

    // Assess
    expect(record.status).toBe(ExportStatus.REQUESTED);
    expect(deferred.name).toBe(WorkflowErrorNames.CREATE_DEFERRED);
    expect(waiting).toMatchObject({
      status: ExportStatus.REQUESTED,
      lastUpstreamWait: { kind: 'throttled' },
      nextCreateAttemptAt: new Date(Date.parse(waiting?.lastUpstreamWait?.at ?? '') + 7_000).toISOString(),
    });
    const created = await h.store.getExport(SPOT, record.exportId);
    expect(created).toMatchObject({ status: ExportStatus.PROCESSING, createAttempts: 2 });
    expect(h.simulator.listExports(SPOT)).toHaveLength(1);
    expect(h.published).toEqual([]);
  });
});
