import { beforeEach, describe, expect, it } from 'vitest';
import {
  defer,
  deferBeforeClaim,
  markProcessing,
  refuse,
} from '../../../../../lib/exports/lifecycle/createOutcomes';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import {
  UpstreamRateLimitedError,
  UpstreamUnavailableError,
} from '../../../../../lib/exports/upstream/errors';
import {
  ExportCreateDeferredError,
  ExportCreateRejectedError,
} from '../../../../../lib/exports/workflow/errors';
import { captureError } from '../../../../support/captureError';
import { type InMemoryLifecycle, inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_unit';
const REQUEST = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;
const RETRY_AFTER_MS = 4_000;

describe('createOutcomes', () => {
  let life: InMemoryLifecycle;
  let requested: ExportRecord;

  beforeEach(async () => {
    life = inMemoryLifecycle();
    ({ record: requested } = await startExport(life.deps, { spotId: SPOT, request: REQUEST, source: 'api' }));
  });

  /** The record as the create task leaves it once it claimed the create (about to send it). */
  async function claimed(): Promise<ExportRecord> {
    return life.store.transition(SPOT, requested.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.REQUESTED,
      changes: { upstreamCreateAttemptedAt: new Date(life.clock.nowMs).toISOString() },
    });
  }

  /** An abort asked while the create was in flight: ABORTING, no upstream id yet. */
  async function abortAsked(record: ExportRecord): Promise<ExportRecord> {
    return life.store.transition(SPOT, record.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.ABORTING,
    });
  }

  describe('deferBeforeClaim', () => {
    it('counts the attempt, records why and until when the export waits, and hands the wait to the workflow', async () => {
      // Act
      const error = await captureError(
        deferBeforeClaim(life.deps, requested, new UpstreamRateLimitedError(RETRY_AFTER_MS)),
      );

      // Assess
      expect(error).toBeInstanceOf(ExportCreateDeferredError);
      expect(await life.store.getExport(SPOT, requested.exportId)).toMatchObject({
        status: ExportStatus.REQUESTED,
        createAttempts: 1,
        lastUpstreamWait: { kind: 'throttled', at: new Date(life.clock.nowMs).toISOString() },
        nextCreateAttemptAt: new Date(life.clock.nowMs + RETRY_AFTER_MS).toISOString(),
      });
    });

    it('clears an earlier retry time when the upstream names none', async () => {
      // Prepare: a first wait with a time, then one without
      await captureError(
        deferBeforeClaim(life.deps, requested, new UpstreamRateLimitedError(RETRY_AFTER_MS)),
      );
      const waiting = (await life.store.getExport(SPOT, requested.exportId)) as ExportRecord;

      // Act
      await captureError(deferBeforeClaim(life.deps, waiting, new UpstreamUnavailableError('down')));

      // Assess
      const record = await life.store.getExport(SPOT, requested.exportId);
      expect(record?.createAttempts).toBe(2);
      expect(record?.nextCreateAttemptAt).toBeUndefined();
    });
  });

  describe('defer', () => {
    it('gives the claim back, so the next attempt may send, and hands the wait to the workflow', async () => {
      // Prepare
      const record = await claimed();

      // Act
      const error = await captureError(defer(life.deps, record, new UpstreamUnavailableError('down')));

      // Assess
      expect(error).toBeInstanceOf(ExportCreateDeferredError);
      const released = await life.store.getExport(SPOT, requested.exportId);
      expect(released?.status).toBe(ExportStatus.REQUESTED);
      expect(released?.upstreamCreateAttemptedAt).toBeUndefined();
      expect(released?.lastUpstreamWait?.kind).toBe('unavailable');
    });

    it('ends an export aborted meanwhile as ABORTED, with nothing to abort upstream', async () => {
      // Prepare
      const record = await claimed();
      await abortAsked(record);

      // Act
      const outcome = await defer(life.deps, record, new UpstreamUnavailableError('down'));

      // Assess
      expect(outcome.status).toBe(ExportStatus.ABORTED);
      expect(life.upstream.calls).not.toContain(`abortExport ${SPOT} ${requested.exportId}`);
      expect(life.published.map((published) => published.status)).toEqual([ExportStatus.ABORTED]);
    });
  });

  describe('refuse', () => {
    it('fails the export with the reason, frees the spot, announces the end and ends the workflow', async () => {
      // Prepare
      const record = await claimed();

      // Act
      const error = await captureError(refuse(life.deps, record, 'the window is too long', new Error('400')));

      // Assess
      expect(error).toBeInstanceOf(ExportCreateRejectedError);
      expect(await life.store.getExport(SPOT, requested.exportId)).toMatchObject({
        status: ExportStatus.FAILED,
        failureReason: 'the window is too long',
      });
      expect(await life.spotLocks.get(SPOT)).toBeUndefined();
      expect(life.published.map((published) => published.status)).toEqual([ExportStatus.FAILED]);
    });

    it('ends an export aborted while the refused create was in flight as ABORTED', async () => {
      // Prepare
      const record = await claimed();
      await abortAsked(record);

      // Act
      await captureError(refuse(life.deps, record, 'refused', new Error('400')));

      // Assess
      expect((await life.store.getExport(SPOT, requested.exportId))?.status).toBe(ExportStatus.ABORTED);
    });
  });

  describe('markProcessing', () => {
    it('records the upstream id and when it started, holds the spot and counts the start', async () => {
      // Prepare
      const record = await claimed();

      // Act
      const processing = await markProcessing(life.deps, record, 'up_42');

      // Assess
      expect(processing).toMatchObject({
        status: ExportStatus.PROCESSING,
        upstreamExportId: 'up_42',
        startedAt: new Date(life.clock.nowMs).toISOString(),
      });
      expect((await life.spotLocks.get(SPOT))?.exportId).toBe(requested.exportId);
      expect(life.metrics).toContain('ExportsStarted');
    });

    it('sends the abort asked while the create was in flight, once the upstream id is known', async () => {
      // Prepare
      const record = await claimed();
      await abortAsked(record);

      // Act
      const outcome = await markProcessing(life.deps, record, 'up_42');

      // Assess
      expect(life.upstream.calls).toContain(`abortExport ${SPOT} up_42`);
      expect(outcome.status).toBe(ExportStatus.ABORTED);
      expect(life.metrics).not.toContain('ExportsStarted');
    });
  });
});
