import type { ScheduleRunResult } from '../lib/exports/coverage/runSchedule';
import type { ReconcileSummary } from '../lib/exports/reconciler/reconcileExports';
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
    if (summary !== undefined && hasNews(summary)) say(`${prefix}: ${describeSweep(summary)}`);
    return;
  }
  say(`${prefix}: ${describeScheduledRun(run.result as ScheduleRunResult | undefined)}`);
}

/** What a scheduled run did: its windows and their exports, or that the ledger had them already. */
function describeScheduledRun(result: ScheduleRunResult | undefined): string {
  if (result === undefined) return 'no answer';
  const planned = result.windows.filter((window) => window.planned);
  if (planned.length === 0) return `nothing new to export (planned up to ${result.watermark})`;
  const exports = planned.map((window) =>
    `${window.from}..${window.until} export ${window.exportId} ${window.status ?? ''}`.trimEnd(),
  );
  return `${planned.length} window(s) up to ${result.watermark}: ${exports.join('; ')}`;
}

function hasNews(summary: ReconcileSummary): boolean {
  return (
    summary.examined + summary.queuedStarted + summary.archivesRestarted + summary.windowsAdvanced > 0 ||
    summary.backfillsFinished + summary.legacyArchivesIndexed + summary.failures > 0
  );
}

function describeSweep(summary: ReconcileSummary): string {
  const parts = [
    `${summary.examined} examined`,
    `${summary.finished} finished`,
    `${summary.workflowsRestarted} workflow(s) restarted`,
  ];
  if (summary.queuedStarted > 0) parts.push(`${summary.queuedStarted} queued export(s) started`);
  if (summary.archivesRestarted > 0) parts.push(`${summary.archivesRestarted} archive(s) restarted`);
  if (summary.windowsAdvanced > 0) parts.push(`${summary.windowsAdvanced} coverage window(s) advanced`);
  if (summary.backfillsFinished > 0) parts.push(`${summary.backfillsFinished} backfill(s) recorded`);
  if (summary.legacyArchivesIndexed > 0)
    parts.push(`${summary.legacyArchivesIndexed} older archive(s) indexed`);
  parts.push(`${summary.failures} failed`);
  return parts.join(', ');
}

/** What resuming the active exports found at start did; nothing when there were none. */
export function reportResume(summary: ReconcileSummary, say: Say): void {
  if (!hasNews(summary)) return;
  say(`resumed what was left running: ${describeSweep(summary)}`);
}
