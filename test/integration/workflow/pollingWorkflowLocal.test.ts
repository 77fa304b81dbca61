import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExtractedStateMachine,
  stateMachineDefinitionFromTemplate,
} from '../../../infra/extractStateMachine';
import { synthesizeStackTemplate } from '../../../infra/synthesizeStackTemplate';
import { PATH_TABLE_PARTITIONS } from '../../../lib/archive/pathTablePartitions';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { startExport } from '../../../lib/exports/queue/startExport';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import type { ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { WorkflowErrorNames } from '../../../lib/exports/workflow/workflowContract';
import { downloadLinkPolicy } from '../../../lib/openweb/downloadLinkPolicy';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../../lib/store/DynamoDbArchiveRecords';
import { type ExecutionOutcome, LocalPollingWorkflows } from '../../../local/LocalPollingWorkflows';
import {
  invokeLocalHandler,
  type LocalArchiving,
  type LocalHandlers,
  localHandlers,
} from '../../../local/localHandlers';
import { type LocalS3, startLocalS3 } from '../../../local/localS3';
import {
  type ExportHarness,
  type ExportHarnessOptions,
  startExportHarness,
} from '../../support/exportHarness';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
// Deployed waits and retry intervals × this: a 10 s poll interval takes 2 ms, the 300 s cap 60 ms.
const WORKFLOW_TIME_SCALE = 0.0002;

describe('the synthesized polling workflow run locally against the real handlers', () => {
  let stateMachine: ExtractedStateMachine;
  let h: ExportHarness;
  let workflows: LocalPollingWorkflows;
  const outcomes = new Map<string, ExecutionOutcome>();

  beforeAll(() => {
    stateMachine = stateMachineDefinitionFromTemplate(synthesizeStackTemplate());
  }, 60_000);

  let s3: LocalS3 | undefined;

  afterEach(async () => {
    await workflows.stopAll();
    await h.close();
    await s3?.close();
    s3 = undefined;
    outcomes.clear();
  });

  /** The archive against the in-process S3 stand-in, as `npm start` wires it. */
  async function archiving(): Promise<LocalArchiving> {
    s3 = await startLocalS3();
    const bucket = { client: s3.client, bucketName: s3.bucketName };
    const archiveSettings = {
      claimLeaseSeconds: 1200,
      downloadTimeoutMs: 10_000,
      downloadPolicy: downloadLinkPolicy(h.simulator.exportBaseUrl, []),
      urlExpirySeconds: 900,
      writeTable: true,
    };
    return {
      archive: {
        store: h.store,
        archives: new DynamoDbArchiveRecords({
          client: h.table.documentClient,
          tableName: h.table.tableName,
        }),
        archiveWriter: new S3ArchiveWriter(bucket),
        suppressions: { suppressedUsers: async () => [] },
        partitions: PATH_TABLE_PARTITIONS,
        archiveEvents: { publishArchived: async () => {} },
        archiveSettings,
        coverage: h.coverage,
        events: h.deps.events,
        metrics: h.deps.metrics,
        settings: h.deps.settings,
        now: Date.now,
      },
      files: { store: h.store, archiveReader: s3.archiveReader(), archiveSettings, now: Date.now },
    };
  }

  /** Runs before a task's handler; what it throws is what the task raises. */
  type TaskInterceptor = (handler: string, event: unknown) => Promise<void>;

  async function startHarness(
    options: ExportHarnessOptions & { archive?: boolean; beforeTask?: TaskInterceptor },
  ): Promise<void> {
    let handlers: LocalHandlers | undefined;
    workflows = new LocalPollingWorkflows({
      stateMachine,
      timeScale: WORKFLOW_TIME_SCALE,
      invoke: async (handler, event) => {
        await options.beforeTask?.(handler, event);
        return invokeLocalHandler(handlers as LocalHandlers, handler, event);
      },
      onExecutionEnd: (name, outcome) => outcomes.set(name, outcome),
    });
    h = await startExportHarness({ ...options, realTime: true, workflows });
    handlers = localHandlers(handlerRuntimeFor(h.deps), options.archive ? await archiving() : undefined);
  }

  async function runToEnd() {
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await workflows.whenFinished(record.exportId);
    return { started: record, final: await h.store.getExport(SPOT, record.exportId) };
  }

  function createRequestStatuses(): (number | string)[] {
    return h.simulator.requestsTo('create').map((request) => request.status);
  }

  it('polls an export until it completes and records its links', async () => {
    // Prepare: a day's export lasts 30 s + 24 min upstream; at this scale about 0.3 s.
    await startHarness({ simulator: { timeScale: 0.0002 } });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(started.status).toBe(ExportStatus.REQUESTED);
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.createAttempts).toBe(1);
    expect(final?.links.length).toBeGreaterThan(0);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
    expect(h.simulator.requestsTo('status').length).toBeGreaterThanOrEqual(1);
  });

  it('archives a completed export’s files after the poll loop', async () => {
    // Prepare
    await startHarness({ simulator: { timeScale: 0.0002 }, archive: true });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expect(final?.archive?.files).toHaveLength(final?.links.length as number);
    expect(final?.archive?.files.every((file) => file.sha256.length === 64 && file.bytes > 0)).toBe(true);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('archives an export the deadline abort finds COMPLETED upstream', async () => {
    // Prepare: the first poll comes after the upstream finished, and finds the deadline passed
    // (as a poll does when the last wait overran it): the Catch sends the deadline abort.
    const timedOutPolls: string[] = [];
    await startHarness({
      simulator: { timeScale: 0.0002 },
      archive: true,
      beforeTask: async (_handler, event) => {
        const task = event as { action?: string; exportId: string };
        if (task.action !== 'poll' || timedOutPolls.includes(task.exportId)) return;
        const record = await h.store.getExport(SPOT, task.exportId);
        const upstreamId = record?.upstreamExportId as string;
        while (h.simulator.getExport(upstreamId)?.state !== 'completed')
          await new Promise((resolve) => setTimeout(resolve, 20));
        timedOutPolls.push(task.exportId);
        throw Object.assign(new Error('the deadline passed'), { name: WorkflowErrorNames.POLLING_TIMED_OUT });
      },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess: the abort learned the export had completed; its files were archived.
    expect(timedOutPolls).toEqual([started.exportId]);
    expect(h.simulator.requestsTo('abort').length).toBeLessThanOrEqual(1);
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expect(final?.archive?.files.length).toBeGreaterThan(0);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('retries an archive download that meets a 503, with backoff, until it succeeds', async () => {
    // Prepare
    await startHarness({
      simulator: {
        timeScale: 0.0002,
        faults: { script: [{ endpoint: 'download', kind: 'error', status: 503, times: 2 }] },
      },
      archive: true,
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expect(
      h.simulator
        .requestsTo('download')
        .map((request) => request.status)
        .slice(0, 3),
    ).toEqual([503, 503, 200]);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('records the archive FAILED for a corrupt download, and the export stays COMPLETED', async () => {
    // Prepare
    await startHarness({
      simulator: { timeScale: 0.0002, faults: { script: [{ endpoint: 'download', kind: 'malformedBody' }] } },
      archive: true,
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.archive?.status).toBe(ArchiveStatus.FAILED);
    expect(final?.archive?.reason).toMatch(/zip/);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('ends FAILED when the upstream export fails', async () => {
    // Prepare
    await startHarness({ simulator: { timeScale: 0.0002, outcome: () => 'failed' } });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.FAILED);
    expect(final?.failureReason).toContain('Failed');
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('aborts the upstream export and ends ABORTED when the deadline passes', async () => {
    // Prepare: the export would run for days; the deadline is one second away.
    await startHarness({
      simulator: { exportDurationMs: () => 7 * 24 * 60 * 60 * 1000 },
      settings: { exportDeadlineSeconds: 1 },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.ABORTED);
    expect(final?.failureReason).toBe('polling deadline passed');
    expect(h.simulator.getExport(final?.upstreamExportId as string)?.state).toBe('aborted');
    expect(outcomes.get(started.exportId)).toBe('failed');
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('keeps retrying a throttled create across simulated minutes, then completes', async () => {
    // Prepare: the upstream answers the first eight creates 429, without Retry-After.
    await startHarness({
      simulator: {
        timeScale: 0.0002,
        faults: { script: [{ endpoint: 'create', kind: 'rateLimit', retryAfterSeconds: null, times: 8 }] },
      },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(createRequestStatuses().filter((status) => status === 429)).toHaveLength(8);
    expect(h.simulator.listExports(SPOT)).toHaveLength(1);
    expect(final?.createAttempts).toBeGreaterThanOrEqual(2);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('fails the export with the upstream’s reason when it rejects the create, and fails the execution', async () => {
    // Prepare
    await startHarness({
      simulator: {
        timeScale: 0.0002,
        faults: { script: [{ endpoint: 'create', kind: 'error', status: 400 }] },
      },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.FAILED);
    expect(final?.failureReason).toContain('InvalidExportRequestError');
    expect(h.simulator.listExports(SPOT)).toHaveLength(0);
    expect(outcomes.get(started.exportId)).toBe('failed');
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('aborts an export still waiting for the upstream without calling it, and stops its workflow', async () => {
    // Prepare: every create is throttled.
    await startHarness({
      simulator: { timeScale: 0.0002, faults: { endpoints: { create: { rateLimitRate: 1 } } } },
    });
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Act
    const aborted = await abortExport(h.deps, {
      spotId: SPOT,
      exportId: record.exportId,
      reason: 'requested',
    });
    await workflows.whenFinished(record.exportId);

    // Assess: between attempts the abort ends it at once and stops the workflow; during an
    // attempt it is ABORTING until that attempt learns nothing was sent, which ends it ABORTED.
    expect([ExportStatus.ABORTED, ExportStatus.ABORTING]).toContain(aborted.status);
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.ABORTED);
    expect(h.simulator.listExports(SPOT)).toHaveLength(0);
    expect(h.simulator.requestsTo('abort')).toHaveLength(0);
    expect(outcomes.get(record.exportId)).toBe(
      aborted.status === ExportStatus.ABORTED ? 'aborted' : 'succeeded',
    );
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('ends ABORTED with the reason and nothing upstream when the deadline passes while still throttled', async () => {
    // Prepare
    await startHarness({
      simulator: { timeScale: 0.0002, faults: { endpoints: { create: { rateLimitRate: 1 } } } },
      settings: { exportDeadlineSeconds: 1 },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.ABORTED);
    expect(final?.failureReason).toBe(
      'deadline passed before the upstream accepted the create; nothing was sent',
    );
    expect(final?.lastUpstreamWait?.kind).toBe('throttled');
    expect(h.simulator.listExports(SPOT)).toHaveLength(0);
    expect(outcomes.get(started.exportId)).toBe('failed');
    expect(await h.spotLocks.get(SPOT)).toBeUndefined();
  });
});
