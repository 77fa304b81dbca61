import type { ExportDependencies } from '../lib/exports/ports';
import {
  RECONCILE_BATCH_SIZE,
  type ReconcileSummary,
  reconcileExports,
} from '../lib/exports/reconcileExports';

/** Bounds the boot sweep (25 exports each) even if records keep failing to reconcile. */
export const MAX_RESUME_BATCHES = 40;
const MS_PER_SECOND = 1000;

/**
 * After a restart no workflow is running: every active export is reconciled at once (the
 * reconciler's own path with "not polled since boot" as the staleness), which polls it and
 * starts a new workflow for each one still running upstream.
 */
export async function resumeActiveExports(
  deps: ExportDependencies,
  bootedAtMs: number,
): Promise<ReconcileSummary> {
  const total: ReconcileSummary = { examined: 0, finished: 0, workflowsRestarted: 0, failures: 0 };
  for (let batch = 0; batch < MAX_RESUME_BATCHES; batch += 1) {
    // Records this sweep already polled are newer than the boot, so each batch brings new ones.
    const sinceBootSeconds = Math.max(0, (deps.now() - bootedAtMs) / MS_PER_SECOND);
    const summary = await reconcileExports({
      ...deps,
      settings: { ...deps.settings, reconcileStaleAfterSeconds: sinceBootSeconds },
    });
    total.examined += summary.examined;
    total.finished += summary.finished;
    total.workflowsRestarted += summary.workflowsRestarted;
    total.failures += summary.failures;
    if (summary.examined < RECONCILE_BATCH_SIZE || summary.failures === summary.examined) break;
  }
  return total;
}
