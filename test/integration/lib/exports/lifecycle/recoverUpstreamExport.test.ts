import { afterEach, describe, expect, it } from 'vitest';
import type { ExportDependencies } from '../../../../../lib/exports/ExportDependencies';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import type { ExportRequest } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import type { ListEntryStyle } from '../../../../../local/openweb-simulator/index';
import { crashingStore } from '../../../../support/crashingStore';
import { type ExportHarness, startExportHarness } from '../../../../support/exportHarness';
import { SimulatedCrash } from '../../../../support/SimulatedCrash';
import { runCreateTask } from '../../../../support/startAndCreate';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
const EARLIER_DAY = { from: '2026-10-20T00:00:00Z', until: '2026-10-21T00:00:00Z' };
const HOUR_MS = 60 * 60 * 1000;
const CLAIM_TIMEOUT_SECONDS = 30;
const LIST_ENTRY_STYLES: readonly ListEntryStyle[] = ['withCreatedAt', 'withoutCreatedAt'];

describe.each(LIST_ENTRY_STYLES)('recovering an ambiguous create (list entries %s)', (listEntryStyle) => {
  let h: ExportHarness;

  afterEach(async () => {
    await h.close();
  });

  function upstreamExportsOfSpot(): number {
    return h.simulator.listExports(SPOT).length;
  }

  /**
   * A finished export of the spot that no record of ours owns (made before this deployment, or by
   * hand): in a list without creation times it looks like any other.
   */
  async function finishedForeignExport(): Promise<string> {
    const { exportId } = await h.deps.upstream.createExport(SPOT, EARLIER_DAY);
    h.simulator.finishExport(exportId, 'completed');
    h.clock.advance(HOUR_MS);
    return exportId;
  }

  /** The create reached the upstream, then the task died before recording the id; its export then finished. */
  async function createLostThenFinished(): Promise<string> {
    const crashing: ExportDependencies = {
      ...h.deps,
      store: crashingStore(h.store, ExportStatus.PROCESSING),
    };
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await expect(runCreateTask(crashing, SPOT, record.exportId)).rejects.toThrow(SimulatedCrash);
    h.clock.advance(2 * HOUR_MS);
    return record.exportId;
  }

  it('adopts our finished export and never sends the create again', async () => {
    // Prepare
    h = await startExportHarness({
      simulator: { listEntryStyle },
      settings: { createClaimTimeoutSeconds: CLAIM_TIMEOUT_SECONDS },
    });
    const foreign = await finishedForeignExport();
    const exportId = await createLostThenFinished();

    // Act: the workflow's Retry runs the create task again.
    await runCreateTask(h.deps, SPOT, exportId);

    // Assess: one upstream export of ours, adopted; the foreign one is not taken for it.
    const recovered = await h.store.getExport(SPOT, exportId);
    const ours = h.simulator.listExports(SPOT).find((candidate) => candidate.id !== foreign);
    expect(h.simulator.requestsTo('create').map((request) => request.status)).toEqual([200, 200]);
    expect(upstreamExportsOfSpot()).toBe(2);
    expect(recovered?.status).toBe(ExportStatus.PROCESSING);
    expect(recovered?.upstreamExportId).toBe(ours?.id);
  });

  it('creates the export when the lost create never reached the upstream', async () => {
    // Prepare
    h = await startExportHarness({ simulator: { listEntryStyle } });
    const foreign = await finishedForeignExport();
    h.simulator.setFaults({ script: [{ endpoint: 'create', kind: 'resetBeforeProcessing' }] });
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    await runCreateTask(h.deps, SPOT, record.exportId);

    // Assess: the list proved ours was not there, so the create was sent again, once.
    const created = await h.store.getExport(SPOT, record.exportId);
    expect(upstreamExportsOfSpot()).toBe(2);
    expect(created?.status).toBe(ExportStatus.PROCESSING);
    expect(created?.upstreamExportId).not.toBe(foreign);
  });
});

describe('recovering an ambiguous create when the list before it could not be read', () => {
  let h: ExportHarness;

  afterEach(async () => {
    await h.close();
  });

  it('never sends the create again when the list cannot tell our export from another', async () => {
    // Prepare: the list before the create fails, so nothing tells which later entries are new.
    h = await startExportHarness({
      simulator: { listEntryStyle: 'withoutCreatedAt' },
      settings: { createClaimTimeoutSeconds: CLAIM_TIMEOUT_SECONDS },
    });
    const crashing: ExportDependencies = {
      ...h.deps,
      store: crashingStore(h.store, ExportStatus.PROCESSING),
    };
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.simulator.setFaults({ script: [{ endpoint: 'list', kind: 'error', status: 503, times: 10 }] });
    await expect(runCreateTask(crashing, SPOT, record.exportId)).rejects.toThrow(SimulatedCrash);
    h.simulator.setFaults({});
    h.clock.advance(2 * HOUR_MS);

    // Act
    await runCreateTask(h.deps, SPOT, record.exportId);

    // Assess: still waiting for its id, and still one upstream export.
    expect(h.simulator.requestsTo('create')).toHaveLength(1);
    expect(h.simulator.listExports(SPOT)).toHaveLength(1);
    expect((await h.store.getExport(SPOT, record.exportId))?.status).toBe(ExportStatus.REQUESTED);
  });
});
