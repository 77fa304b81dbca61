import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExportDependencies } from '../../../lib/exports/ExportDependencies';
import { abortExport } from '../../../lib/exports/lifecycle/abortExport';
import { checkExport } from '../../../lib/exports/lifecycle/checkExport';
import { startExport } from '../../../lib/exports/queue/startExport';
import { reconcileExports } from '../../../lib/exports/reconciler/reconcileExports';
import type { ExportRecord, ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { isTerminal } from '../../../lib/exports/record/ExportStatus';
import type { ExportStore } from '../../../lib/exports/record/ExportStore';
import { auditedStore, StoreAudit } from '../../support/auditedStore';
import { startExportHarness } from '../../support/exportHarness';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };

type Step =
  | { kind: 'start'; key: string | undefined }
  | { kind: 'poll' | 'apiCheck' | 'abort'; target: number }
  | { kind: 'upstreamFinish'; target: number; outcome: 'completed' | 'failed' }
  | { kind: 'advance'; minutes: number }
  | { kind: 'reconcile' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('start' as const),
    key: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constantFrom('poll' as const, 'apiCheck' as const, 'abort' as const),
    target: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('upstreamFinish' as const),
    target: fc.nat(3),
    outcome: fc.constantFrom('completed' as const, 'failed' as const),
  }),
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('reconcile' as const) }),
);

async function snapshot(store: ExportStore): Promise<Map<string, ExportRecord>> {
  const page = await store.listExports(SPOT, { limit: 100 });
  return new Map(page.items.map((record) => [record.exportId, record]));
}

describe('export lifecycle under random event sequences', () => {
  it('never persists an illegal transition and never changes a terminal record', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 14 }), async (steps) => {
        // Prepare
        const h = await startExportHarness({ settings: { createClaimTimeoutSeconds: 60 } });
        const audit = new StoreAudit();
        const deps: ExportDependencies = { ...h.deps, store: auditedStore(h.store, audit) };
        const exportIds: string[] = [];
        try {
          for (const step of steps) {
            const before = await snapshot(h.store);
            const target =
              'target' in step ? exportIds[step.target % Math.max(1, exportIds.length)] : undefined;
            // Act: expected refusals (spot busy, already finished…) are part of the game.
            await runStep(deps, h, step, target, exportIds).catch(() => undefined);
            // Assess
            const after = await snapshot(h.store);
            for (const [exportId, record] of before) {
              if (isTerminal(record.status)) expect(after.get(exportId)).toEqual(record);
            }
          }
          expect(audit.violations).toEqual([]);
        } finally {
          await h.close();
        }
      }),
      { numRuns: 40, seed: 20261121 },
    );
  }, 120_000);
});

async function runStep(
  deps: ExportDependencies,
  h: Awaited<ReturnType<typeof startExportHarness>>,
  step: Step,
  target: string | undefined,
  exportIds: string[],
): Promise<void> {
  switch (step.kind) {
    case 'start': {
      const { record } = await startExport(deps, {
        spotId: SPOT,
        request: DAY,
        source: 'api',
        idempotencyKey: step.key,
      });
      if (!exportIds.includes(record.exportId)) exportIds.push(record.exportId);
      return;
    }
    case 'poll':
    case 'apiCheck':
      if (target)
        await checkExport(deps, {
          spotId: SPOT,
          exportId: target,
          mode: step.kind === 'poll' ? 'workflow' : 'api',
        });
      return;
    case 'abort':
      if (target) await abortExport(deps, { spotId: SPOT, exportId: target, reason: 'requested' });
      return;
    case 'upstreamFinish': {
      const record = target ? await h.store.getExport(SPOT, target) : undefined;
      if (record?.upstreamExportId) h.simulator.finishExport(record.upstreamExportId, step.outcome);
      return;
    }
    case 'advance':
      h.clock.advance(step.minutes * 60_000);
      return;
    case 'reconcile':
      await reconcileExports(deps);
      return;
  }
}
