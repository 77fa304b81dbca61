import type { BackfillView } from '../lib/http/backfillViewSchema';
import type { FollowUpCommand } from './CliCommand';
import type { CliIo } from './CliIo';
import { ExitCode } from './ExitCode';
import type { ExportsApiClient } from './ExportsApiClient';
import {
  type ApiProblemError,
  type ApiUnreachableError,
  CliInterruptedError,
  WatchGaveUpError,
} from './errors';
import { formatElapsed } from './formatElapsed';
import { liveLine, ProgressMode, reconnectingText } from './progressRenderer';
import { describeApiFailure, isTransientApiFailure, reconnectDelayMs } from './watchExport';

const MS_PER_SECOND = 1000;
/** Windows listed under a plan; the rest are counted. */
export const PLAN_WINDOWS_SHOWN = 10;

export interface WatchBackfillsOptions {
  client: ExportsApiClient;
  /** The backfills as last seen (their creation's answers). */
  backfills: readonly BackfillView[];
  intervalSeconds: number;
  io: CliIo;
  mode: ProgressMode;
  /** Failed reads in a row to retry before giving up. */
  reconnectAttempts: number;
  /** How the resume hint names the command to run next. */
  followUp: FollowUpCommand;
}

/**
 * Follows backfills (of one spot or several) until each is COMPLETED or ABORTED, showing their
 * progress: on a terminal one line redrawn in place (windows done of all, running, queued, rows,
 * elapsed, ETA), otherwise a line whenever a backfill's counts change, with `--json` one JSON
 * view per change. Ctrl-C stops watching and leaves every backfill running. Answers the last views.
 */
export async function watchBackfills(options: WatchBackfillsOptions): Promise<BackfillView[]> {
  const { io } = options;
  const views = [...options.backfills];
  const renderer = backfillRenderer(options.mode, io);
  let failures = 0;
  try {
    renderer.update(views);
    while (views.some((view) => view.status === 'RUNNING')) {
      await pause(io, failures === 0 ? options.intervalSeconds * MS_PER_SECOND : reconnectDelayMs(failures));
      try {
        for (const [index, view] of views.entries()) {
          if (view.status !== 'RUNNING') continue;
          views[index] = await options.client.getBackfill(view.spotId, view.backfillId);
        }
      } catch (error) {
        if (!isTransientApiFailure(error)) throw error;
        failures += 1;
        if (failures > options.reconnectAttempts) {
          const [first] = views;
          throw new WatchGaveUpError(error as ApiUnreachableError | ApiProblemError, {
            exportId: first?.backfillId ?? '',
            spotId: first?.spotId ?? '',
            attempts: options.reconnectAttempts,
            resumeCommand: statusCommands(views, options.followUp).join(' ; '),
          });
        }
        renderer.reconnecting(
          reconnectingText({
            attempt: failures,
            maxAttempts: options.reconnectAttempts,
            nextInMs: reconnectDelayMs(failures),
            reason: describeApiFailure(error),
          }),
        );
        continue;
      }
      failures = 0;
      renderer.update(views);
    }
    renderer.finish(views);
    return views;
  } catch (error) {
    renderer.close();
    if (error instanceof CliInterruptedError) {
      io.stderr.write(
        `Stopped watching; the backfill${views.length === 1 ? ' keeps' : 's keep'} running. ` +
          `Follow with: ${statusCommands(views, options.followUp).join(' ; ')}\n`,
      );
    }
    throw error;
  }
}

/** The exit code once every backfill ended: an aborted one, then one with gaps, is not a success. */
export function exitCodeForBackfills(views: readonly BackfillView[]): ExitCode {
  if (views.some((view) => view.status === 'ABORTED')) return ExitCode.EXPORT_ABORTED;
  if (views.some((view) => view.progress.windows.gaps > 0)) return ExitCode.EXPORT_FAILED;
  return ExitCode.SUCCESS;
}

/** The plan of a new backfill, for people: the range, its windows (the first ones) and what it skipped. */
export function formatBackfillPlan(view: BackfillView): string {
  const { plan } = view;
  const lines = [
    `${view.spotId}  backfill ${view.backfillId}  ${view.from} → ${view.until} in windows of at most ${view.windowHours} h`,
    `  ${plan.windowCount} ${plan.windowCount === 1 ? 'window' : 'windows'} to export; ` +
      `${formatHours(plan.skippedHours)} of the range already held by the coverage ledger (skipped)`,
    ...plan.windows.slice(0, PLAN_WINDOWS_SHOWN).map((window) => `    ${window.from} → ${window.until}`),
  ];
  if (plan.windows.length > PLAN_WINDOWS_SHOWN)
    lines.push(`    … and ${plan.windows.length - PLAN_WINDOWS_SHOWN} more`);
  if (view.recording) lines.push('  (a long plan: the rest of its windows is being recorded)');
  return `${lines.join('\n')}\n`;
}

/** Where a backfill stands, in one line: `sp_demo bf_… RUNNING 2/3 done, 1 running, …`. */
export function formatBackfillStatus(view: BackfillView): string {
  const { windows } = view.progress;
  const parts = [
    `${windows.done}/${windows.total} windows done`,
    ...(windows.running > 0 ? [`${windows.running} running`] : []),
    ...(windows.queued > 0 ? [`${windows.queued} queued`] : []),
    ...(windows.retrying > 0 ? [`${windows.retrying} retrying`] : []),
    ...(windows.pending > 0 ? [`${windows.pending} being recorded`] : []),
    `${windows.gaps} ${windows.gaps === 1 ? 'gap' : 'gaps'}`,
    ...(windows.withdrawn > 0 ? [`${windows.withdrawn} withdrawn`] : []),
    `${formatCount(view.progress.rowsArchived)} rows`,
    `elapsed ${formatElapsed(view.progress.elapsedSeconds * MS_PER_SECOND)}`,
    ...(view.status === 'RUNNING' ? [`ETA ${etaText(view.progress.etaSeconds)}`] : []),
  ];
  return `${view.spotId}  ${view.backfillId}  ${view.status}  ${parts.join(', ')}`;
}

/** Every gap of the backfill with its reason, one per line. */
export function formatBackfillGaps(view: BackfillView): string {
  return view.windows
    .filter((window) => window.state === 'GAP')
    .map((window) => `  gap ${window.from} → ${window.until}: ${window.reason ?? 'no reason given'}\n`)
    .join('');
}

interface BackfillRenderer {
  update(views: readonly BackfillView[]): void;
  finish(views: readonly BackfillView[]): void;
  reconnecting(text: string): void;
  close(): void;
}

function backfillRenderer(mode: ProgressMode, io: CliIo): BackfillRenderer {
  switch (mode) {
    case ProgressMode.TTY: {
      const line = liveLine(io);
      return {
        update: (views) => line.draw(liveSummary(views)),
        finish(views) {
          line.close();
          for (const view of views)
            io.stdout.write(`${formatBackfillStatus(view)}\n${formatBackfillGaps(view)}`);
        },
        reconnecting: (text) => line.draw(text),
        close: () => line.close(),
      };
    }
    case ProgressMode.PLAIN: {
      const changed = changeDetector();
      return {
        update(views) {
          for (const view of views) {
            if (changed(view)) io.stdout.write(`${isoSeconds(io.now())}  ${formatBackfillStatus(view)}\n`);
          }
        },
        finish(views) {
          for (const view of views) io.stdout.write(formatBackfillGaps(view));
        },
        reconnecting: (text) => io.stdout.write(`${isoSeconds(io.now())}  ${text}\n`),
        close() {},
      };
    }
    case ProgressMode.JSON: {
      const changed = changeDetector();
      return {
        update(views) {
          for (const view of views) if (changed(view)) io.stdout.write(`${JSON.stringify(view)}\n`);
        },
        finish() {},
        // stdout stays JSON only.
        reconnecting: (text) => io.stderr.write(`${text}\n`),
        close() {},
      };
    }
  }
}

/** One line for every backfill watched: windows done of all, running, queued, rows, elapsed, ETA. */
function liveSummary(views: readonly BackfillView[]): string {
  if (views.length === 1) return formatBackfillStatus(views[0] as BackfillView);
  const sum = (read: (view: BackfillView) => number) => views.reduce((total, view) => total + read(view), 0);
  const running = views.filter((view) => view.status === 'RUNNING');
  // The spots run side by side: the last one to finish decides.
  const etas = running.map((view) => view.progress.etaSeconds);
  const eta = etas.some((seconds) => seconds === undefined) ? undefined : Math.max(0, ...(etas as number[]));
  const elapsed = Math.max(0, ...views.map((view) => view.progress.elapsedSeconds));
  return [
    `${views.length} spots`,
    `${sum((view) => view.progress.windows.done)}/${sum((view) => view.progress.windows.total)} windows done`,
    `${sum((view) => view.progress.windows.running)} running`,
    `${sum((view) => view.progress.windows.queued)} queued`,
    `${sum((view) => view.progress.windows.gaps)} gaps`,
    `${formatCount(sum((view) => view.progress.rowsArchived))} rows`,
    `elapsed ${formatElapsed(elapsed * MS_PER_SECOND)}`,
    `ETA ${running.length === 0 ? '0s' : etaText(eta)}`,
  ].join(', ');
}

/** The counts and status of a backfill: what makes a change worth a line. */
function changeDetector(): (view: BackfillView) => boolean {
  const last = new Map<string, string>();
  return (view) => {
    const key = JSON.stringify([view.status, view.progress.windows, view.progress.rowsArchived]);
    if (last.get(view.backfillId) === key) return false;
    last.set(view.backfillId, key);
    return true;
  };
}

function statusCommands(views: readonly BackfillView[], followUp: FollowUpCommand): string[] {
  return views.map((view) => followUp(`backfill status ${view.backfillId} --spot ${view.spotId} --wait`));
}

function etaText(seconds: number | undefined): string {
  return seconds === undefined
    ? 'unknown (no export of the spot finished yet)'
    : formatElapsed(seconds * MS_PER_SECOND);
}

function formatHours(hours: number): string {
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`;
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function pause(io: CliIo, milliseconds: number): Promise<void> {
  try {
    await io.sleep(milliseconds, io.signal);
  } catch (error) {
    if (io.signal?.aborted) throw new CliInterruptedError();
    throw error;
  }
  if (io.signal?.aborted) throw new CliInterruptedError();
}
