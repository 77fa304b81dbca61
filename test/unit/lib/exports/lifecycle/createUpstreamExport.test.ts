import { beforeEach, describe, expect, it } from 'vitest';
import { createUpstreamExport } from '../../../../../lib/exports/lifecycle/createUpstreamExport';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  ExportConflictError,
  InvalidExportRequestError,
  UpstreamAuthPacedError,
  UpstreamRateLimitedError,
} from '../../../../../lib/exports/upstream/errors';
import { WorkflowErrorNames } from '../../../../../lib/exports/workflow/workflowContract';
import { captureError } from '../../../../support/captureError';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_unit';
const REQUEST = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;
const HOUR_MS = 3_600_000;

describe('createUpstreamExport', () => {
  let life: InMemoryLifecycle;
  let exportId: string;
  let deadline: string;

  beforeEach(async () => {
    life = inMemoryLifecycle();
    const { record } = await startExport(life.deps, { spotId: SPOT, request: REQUEST, source: 'api' });
    exportId = record.exportId;
    deadline = new Date(life.clock.nowMs + 6 * HOUR_MS).toISOString();
  });

  const create = () =>
    createUpstreamExport(life.deps, { action: 'create', spotId: SPOT, exportId, deadline });

  it('creates the export upstream: PROCESSING with its id, the spot held, the default first wait without history', async () => {
    // Act
    const output = await create();

    // Assess
    expect(output).toEqual({ spotId: SPOT, exportId, deadline, firstPollDelaySeconds: 30 });
    expect(await life.store.getExport(SPOT, exportId)).toMatchObject({
      status: ExportStatus.PROCESSING,
      upstreamExportId: 'up_1',
      createAttempts: 1,
    });
    expect((await life.spotLocks.get(SPOT))?.exportId).toBe(exportId);
    // The list before the create tells an export of ours from the others if its answer is lost.
    expect(life.upstream.calls).toEqual([
      `ensureAuthenticated ${SPOT}`,
      `listExports ${SPOT}`,
      `createExport ${SPOT}`,
    ]);
    expect(life.metrics).toContain('ExportsStarted');
  });

  it('never waits past the deadline for the first poll, however long the spot’s exports took', async () => {
    // Prepare: a finished export of the spot that took two hours, and 10 minutes left
    await life.store.createExport({
      spotId: SPOT,
      exportId: 'ex_01aaaaaaaaaaaaaaaaaaaaaaaa',
      status: ExportStatus.COMPLETED,
      request: REQUEST,
      links: [],
      requestedAt: '2026-10-01T00:00:00.000Z',
      startedAt: '2026-10-01T00:00:00.000Z',
      completedAt: '2026-10-01T02:00:00.000Z',
      pollCount: 1,
      source: 'api',
    });
    deadline = new Date(life.clock.nowMs + 10 * 60_000).toISOString();

    // Act
    const output = await create();

    // Assess
    expect(output.firstPollDelaySeconds).toBe(600);
  });

  it('waits without claiming when the fleet’s auth slot is taken: nothing sent, the wait recorded', async () => {
    // Prepare
    life.upstream.answers.ensureAuthenticated = [{ error: new UpstreamAuthPacedError(SPOT, 1500) }];

    // Act
    const error = await captureError(create());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.CREATE_DEFERRED });
    const record = await life.store.getExport(SPOT, exportId);
    expect(record).toMatchObject({
      status: ExportStatus.REQUESTED,
      createAttempts: 1,
      lastUpstreamWait: { kind: 'auth-paced' },
      nextCreateAttemptAt: new Date(life.clock.nowMs + 1500).toISOString(),
    });
    expect(record?.upstreamCreateAttemptedAt).toBeUndefined();
    expect(life.upstream.calls).not.toContain(`createExport ${SPOT}`);
  });

  it('gives its claim back when the create is throttled, so the next attempt sends it afresh', async () => {
    // Prepare
    life.upstream.answers.createExport = [{ error: new UpstreamRateLimitedError(undefined) }];

    // Act
    const error = await captureError(create());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.CREATE_DEFERRED });
    const record = await life.store.getExport(SPOT, exportId);
    expect(record?.upstreamCreateAttemptedAt).toBeUndefined();
    expect(record?.lastUpstreamWait).toMatchObject({ kind: 'throttled' });
  });

  it('ends FAILED with the upstream’s reason when it refuses the request, freeing the spot and announcing it', async () => {
    // Prepare
    life.upstream.answers.createExport = [{ error: new InvalidExportRequestError('range too long') }];

    // Act
    const error = await captureError(create());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.CREATE_REJECTED });
    const record = await life.store.getExport(SPOT, exportId);
    expect(record?.status).toBe(ExportStatus.FAILED);
    expect(record?.failureReason).toMatch(/^the upstream rejected the request: .*range too long/);
    expect(await life.spotLocks.get(SPOT)).toBeUndefined();
    expect(life.published.map((published) => published.status)).toEqual([ExportStatus.FAILED]);
  });

  it('never sends a maybe-sent create blindly: after an ambiguous answer it looks, probes once, and waits on 409', async () => {
    // Prepare: the create times out, the list shows nothing yet, the probe meets our own export running
    life.upstream.answers.createExport = [
      { error: new AmbiguousCreateError(SPOT, AmbiguousCreateReason.TIMEOUT) },
      { error: new ExportConflictError(SPOT, 'already running') },
    ];

    // Act
    const output = await create();

    // Assess
    expect(output.exportId).toBe(exportId);
    expect(life.upstream.calls.filter((call) => call.startsWith('createExport'))).toHaveLength(2);
    expect(life.upstream.calls).toContain(`listExports ${SPOT}`);
    const record = await life.store.getExport(SPOT, exportId);
    expect(record?.status).toBe(ExportStatus.REQUESTED);
    expect(record?.upstreamCreateAttemptedAt).toBeDefined();
  });

  it('refuses to start past the deadline, without a call upstream', async () => {
    // Prepare
    deadline = new Date(life.clock.nowMs - 1).toISOString();

    // Act
    const error = await captureError(create());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.POLLING_TIMED_OUT });
    expect(life.upstream.calls).toEqual([]);
  });

  it('answers at once for an export created already, without a call upstream', async () => {
    // Prepare
    await create();
    life.upstream.calls.length = 0;

    // Act
    const output = await create();

    // Assess
    expect(output.exportId).toBe(exportId);
    expect(life.upstream.calls).toEqual([]);
  });
});
