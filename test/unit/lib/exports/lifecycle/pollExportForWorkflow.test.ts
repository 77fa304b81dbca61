import { beforeEach, describe, expect, it } from 'vitest';
import { createUpstreamExport } from '../../../../../lib/exports/lifecycle/createUpstreamExport';
import { pollExportForWorkflow } from '../../../../../lib/exports/lifecycle/pollExportForWorkflow';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { UpstreamUnavailableError } from '../../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../../lib/exports/upstream/UpstreamExports';
import { WorkflowErrorNames } from '../../../../../lib/exports/workflow/workflowContract';
import { captureError } from '../../../../support/captureError';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_unit';
const REQUEST = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;
const HOUR_MS = 3_600_000;

function report(status: UpstreamExportStatus, links: string[] = []) {
  return { exportId: 'up_1', status, rawStatus: status, links, rejectedLinkCount: 0, raw: {} };
}

describe('pollExportForWorkflow', () => {
  let life: InMemoryLifecycle;
  let exportId: string;
  let deadline: string;

  beforeEach(async () => {
    life = inMemoryLifecycle();
    const { record } = await startExport(life.deps, { spotId: SPOT, request: REQUEST, source: 'api' });
    exportId = record.exportId;
    deadline = new Date(life.clock.nowMs + 6 * HOUR_MS).toISOString();
    await createUpstreamExport(life.deps, { action: 'create', spotId: SPOT, exportId, deadline });
  });

  const poll = () => pollExportForWorkflow(life.deps, { action: 'poll', spotId: SPOT, exportId, deadline });

  it('throws ExportStillProcessing while the upstream works, for the state machine’s Retry', async () => {
    // Prepare
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    const error = await captureError(poll());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.STILL_PROCESSING });
    expect(life.metrics).toContain('UpstreamPolls');
  });

  /**
   * The spot's first export, seen running at 60 s and done at 62 s, then a second of the same
   * length created (urgent or not): answers the second's id, its first wait and its poll.
   */
  async function secondAfterHistory(options: { urgent?: boolean } = {}) {
    const { record: second } = await startExport(life.deps, {
      spotId: SPOT,
      request: { ...REQUEST, from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' },
      source: 'api',
      whenBusy: 'queue',
      ...options,
    });
    life.upstream.answers.getExportStatus = [
      report(UpstreamExportStatus.PROCESSING),
      report(UpstreamExportStatus.COMPLETED, ['https://files.openweb.com/1.csv.zip']),
    ];
    life.clock.advance(60_000);
    await captureError(poll());
    life.clock.advance(2_000);
    await poll();
    return {
      exportId: second.exportId,
      pollSecond: () =>
        pollExportForWorkflow(life.deps, {
          action: 'poll',
          spotId: SPOT,
          exportId: second.exportId,
          deadline,
        }),
      create: () =>
        createUpstreamExport(life.deps, {
          action: 'create',
          spotId: SPOT,
          exportId: second.exportId,
          deadline,
        }),
    };
  }

  const queueAnother = () =>
    startExport(life.deps, {
      spotId: SPOT,
      request: { ...REQUEST, from: '2026-10-29T00:00:00Z', until: '2026-10-30T00:00:00Z' },
      source: 'schedule',
      whenBusy: 'queue',
    });

  it('throws ExportFinishing within the expected end while a successor is queued, so the next poll comes within seconds', async () => {
    // Prepare
    const second = await secondAfterHistory();
    await queueAnother();
    const created = await second.create();
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    life.clock.advance(created.firstPollDelaySeconds * 1000);
    const within = await captureError(second.pollSecond());
    life.clock.advance(10 * 60_000);
    const after = await captureError(second.pollSecond());

    // Assess: the first wait ends where the end is expected to begin
    expect(created.firstPollDelaySeconds).toBe(60);
    expect(within).toMatchObject({ name: WorkflowErrorNames.FINISHING });
    expect(after).toMatchObject({ name: WorkflowErrorNames.STILL_PROCESSING });
  });

  it('backs off within the expected end when nothing waits, the first poll coming when most exports had ended', async () => {
    // Prepare
    const second = await secondAfterHistory();
    const created = await second.create();
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    life.clock.advance(created.firstPollDelaySeconds * 1000);
    const within = await captureError(second.pollSecond());

    // Assess
    expect(created.firstPollDelaySeconds).toBe(62);
    expect(within).toMatchObject({ name: WorkflowErrorNames.STILL_PROCESSING });
  });

  it('switches to close polls when an export is queued behind it while it runs', async () => {
    // Prepare
    const second = await secondAfterHistory();
    const created = await second.create();
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];
    life.clock.advance(created.firstPollDelaySeconds * 1000);
    const before = await captureError(second.pollSecond());

    // Act
    await queueAnother();
    life.clock.advance(5_000);
    const queued = await captureError(second.pollSecond());

    // Assess
    expect(before).toMatchObject({ name: WorkflowErrorNames.STILL_PROCESSING });
    expect(queued).toMatchObject({ name: WorkflowErrorNames.FINISHING });
  });

  it('polls an urgent export closely with nothing queued', async () => {
    // Prepare
    const second = await secondAfterHistory({ urgent: true });
    const created = await second.create();
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    life.clock.advance(created.firstPollDelaySeconds * 1000);
    const within = await captureError(second.pollSecond());

    // Assess
    expect(created.firstPollDelaySeconds).toBe(60);
    expect(within).toMatchObject({ name: WorkflowErrorNames.FINISHING });
    expect(await life.store.getExport(SPOT, second.exportId)).toMatchObject({ urgent: true });
  });

  it('records completion with the links, frees the spot, announces it, and answers the file count', async () => {
    // Prepare
    const links = ['https://files.openweb.com/1.csv.zip', 'https://files.openweb.com/2.csv.zip'];
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.COMPLETED, links)];

    // Act
    const output = await poll();

    // Assess
    expect(output).toEqual({ spotId: SPOT, exportId, status: ExportStatus.COMPLETED, fileCount: 2 });
    expect(await life.store.getExport(SPOT, exportId)).toMatchObject({
      status: ExportStatus.COMPLETED,
      links,
    });
    expect(await life.spotLocks.get(SPOT)).toBeUndefined();
    expect(life.published.map((record) => record.status)).toEqual([ExportStatus.COMPLETED]);
  });

  it('turns passing upstream trouble into UpstreamUnavailable, retried like a poll that learned nothing', async () => {
    // Prepare
    life.upstream.answers.getExportStatus = [{ error: new UpstreamUnavailableError('502 from upstream') }];

    // Act
    const error = await captureError(poll());

    // Assess
    expect(error).toMatchObject({ name: WorkflowErrorNames.UPSTREAM_UNAVAILABLE });
    expect((await life.store.getExport(SPOT, exportId))?.status).toBe(ExportStatus.PROCESSING);
  });

  it('throws ExportPollingTimedOut past the deadline, outage or not, for the Catch to abort', async () => {
    // Prepare
    life.clock.advance(7 * HOUR_MS);
    life.upstream.answers.getExportStatus = [report(UpstreamExportStatus.PROCESSING)];

    // Act
    const slow = await captureError(poll());
    life.upstream.answers.getExportStatus = [{ error: new UpstreamUnavailableError('down') }];
    const down = await captureError(poll());

    // Assess
    expect(slow).toMatchObject({ name: WorkflowErrorNames.POLLING_TIMED_OUT });
    expect(down).toMatchObject({ name: WorkflowErrorNames.POLLING_TIMED_OUT });
  });
});
