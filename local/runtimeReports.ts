import type { ReconcileSummary } from '../lib/exports/reconcileExports';
import type { ScheduleRun } from './schedules/LocalSchedules';
import { RECONCILER_SCHEDULE_NAME } from './schedules/localScheduleDefinitions';

/** The runtime's own human-readable lines (the banner is readyBanner.ts). */
export type Say = (line: string) => void;

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** One line per schedule run; the reconciler's only when it found something. */
export function reportScheduleRun(run: ScheduleRun, say: Say): void {
  const prefix = `schedule ${run.schedule}${run.manual ? ' (fired by hand)' : ''}`;
  if (run.outcome === 'failed') {
    say(`${prefix} failed: ${run.error}`);
    return;
  }
  if (run.schedule === RECONCILER_SCHEDULE_NAME) {
    // Runs every few seconds: only news is printed.
    const summary = run.result as ReconcileSummary | undefined;
    if (summary !== undefined && summary.examined > 0) {
      say(
        `${prefix}: ${summary.examined} examined, ${summary.finished} finished, ` +
          `${summary.workflowsRestarted} workflow(s) restarted, ${summary.failures} failed`,
      );
    }
    return;
  }
  if (run.outcome === 'skipped') {
    const skipped = run.result as { spotId?: string; activeExportId?: string } | undefined;
    say(
      `${prefix}: skipped, spot ${skipped?.spotId} busy with export ${skipped?.activeExportId ?? 'unknown'} ` +
        `(window ending ${run.scheduledTime}; a deployed schedule skips it the same way)`,
    );
    return;
  }
  const started = run.result as { exportId?: string; status?: string } | undefined;
  say(`${prefix}: export ${started?.exportId} ${started?.status} (window ending ${run.scheduledTime})`);
}

/** What resuming the active exports found at start did; nothing when there were none. */
export function reportResume(summary: ReconcileSummary, say: Say): void {
  if (summary.examined === 0) return;
  say(
    `resumed ${summary.examined} active export(s): ${summary.finished} reached a final state, ` +
      `${summary.workflowsRestarted} workflow(s) restarted, ${summary.failures} could not be reconciled`,
  );
}
