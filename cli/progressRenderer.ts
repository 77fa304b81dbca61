import type { ExportView } from '../lib/http/exportViewSchema';
import { CLI_NAME } from '../lib/settings/localRuntimeLayout';
import type { FollowUpCommand } from './CliCommand';
import type { CliIo } from './CliIo';
import { exportElapsedMs, formatElapsed } from './formatElapsed';

/** How watch progress is shown: redrawn in place, a line per change, or JSON lines. */
export const ProgressMode = {
  TTY: 'tty',
  PLAIN: 'plain',
  JSON: 'json',
} as const;

export type ProgressMode = (typeof ProgressMode)[keyof typeof ProgressMode];

export interface ProgressRenderer {
  /** After every poll, with the latest view. */
  update(view: ExportView): void;
  /** Once, with the view in its terminal state. */
  finish(view: ExportView): void;
  /** When watching stops before the export ends (Ctrl-C). */
  interrupt(view: ExportView | undefined): void;
  /** When watching stops on an error: leaves the terminal ready for the error message. */
  close(): void;
  /** A status check failed and is retried after a pause; `view` is the last one seen. */
  reconnecting(view: ExportView, state: ReconnectState): void;
  /** A status check succeeded again after failures. */
  reconnected(view: ExportView): void;
}

export interface ReconnectState {
  /** 1-based, failures in a row so far. */
  attempt: number;
  maxAttempts: number;
  nextInMs: number;
  /** Why the last check failed, e.g. "the API cannot be reached". */
  reason: string;
}

/** "reconnecting (attempt 2 of 30, next in 4 s): the API cannot be reached" */
export function reconnectingText(state: ReconnectState): string {
  return (
    `reconnecting (attempt ${state.attempt} of ${state.maxAttempts}, ` +
    `next in ${Math.ceil(state.nextInMs / 1000)} s): ${state.reason}`
  );
}

// Return to the start of the line and erase it, so the next status replaces the last.
const REDRAW_LINE = '\r\x1b[2K';
const SPINNER_FRAMES = ['|', '/', '-', '\\'] as const;

export function progressModeFor(options: { json: boolean; isTTY: boolean }): ProgressMode {
  if (options.json) return ProgressMode.JSON;
  return options.isTTY ? ProgressMode.TTY : ProgressMode.PLAIN;
}

/** `followUp` names the abort command printed when watching stops (with the API's options kept). */
export function createProgressRenderer(
  mode: ProgressMode,
  io: CliIo,
  followUp: FollowUpCommand = (words) => `${CLI_NAME} ${words}`,
): ProgressRenderer {
  switch (mode) {
    case ProgressMode.TTY:
      return ttyRenderer(io, followUp);
    case ProgressMode.PLAIN:
      return plainRenderer(io, followUp);
    case ProgressMode.JSON:
      return jsonRenderer(io, followUp);
  }
}

/** One line of a terminal redrawn in place, led by a spinner that turns on every draw. */
export interface LiveLine {
  /** Replaces the line with `text` (cut to the terminal's width). */
  draw(text: string): void;
  /** Replaces the line with `text` for good, and moves to the next line. */
  finish(text: string): void;
  /** Ends a drawn line, so what follows starts on a line of its own. */
  close(): void;
}

export function liveLine(io: CliIo): LiveLine {
  let frame = 0;
  let drawn = false;
  const fitToTerminal = (line: string) =>
    io.columns && line.length >= io.columns ? line.slice(0, io.columns - 1) : line;
  return {
    draw(text) {
      const spinner = SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length];
      io.stdout.write(`${REDRAW_LINE}${fitToTerminal(`${spinner} ${text}`)}`);
      drawn = true;
    },
    finish(text) {
      io.stdout.write(`${REDRAW_LINE}${text}\n`);
      drawn = false;
    },
    close() {
      if (drawn) io.stdout.write('\n');
      drawn = false;
    },
  };
}

/** A single status line redrawn on every poll (the elapsed time moves even when nothing else does). */
function ttyRenderer(io: CliIo, followUp: FollowUpCommand): ProgressRenderer {
  const line = liveLine(io);
  return {
    update(view) {
      line.draw(progressSummary(view, io.now()));
    },
    finish(view) {
      line.finish(finalSummary(view, io.now()));
      writeLinks(io, view);
    },
    interrupt(view) {
      line.close();
      writeStoppedWatching(io, view, followUp);
    },
    close: () => line.close(),
    reconnecting(view, state) {
      line.draw(`${view.exportId}  ${view.status}  ${reconnectingText(state)}`);
    },
    reconnected() {},
  };
}

/** A line only when something the operator cares about changed: fit for logs and pipes. */
function plainRenderer(io: CliIo, followUp: FollowUpCommand): ProgressRenderer {
  const changes = changeDetector();
  const update = (view: ExportView) => {
    if (!changes.changed(view)) return;
    const time = new Date(io.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const failure = view.failureReason ? `  reason=${view.failureReason}` : '';
    const elapsedMs = exportElapsedMs(view, io.now());
    const elapsed =
      elapsedMs === undefined ? '' : `  elapsed=${formatElapsed(elapsedMs).replaceAll(' ', '')}`;
    const waiting = upstreamWaitText(view, io.now());
    io.stdout.write(
      `${time}  ${view.exportId}  ${view.status}  polls=${view.pollCount}  ` +
        `upstream=${view.upstreamStatus ?? '-'}${elapsed}${failure}${waiting ? `  ${waiting}` : ''}\n`,
    );
  };
  return {
    update,
    finish(view) {
      update(view);
      writeLinks(io, view);
    },
    interrupt(view) {
      writeStoppedWatching(io, view, followUp);
    },
    close() {},
    reconnecting(view, state) {
      io.stdout.write(`${isoSeconds(io.now())}  ${view.exportId}  ${reconnectingText(state)}\n`);
    },
    reconnected(view) {
      io.stdout.write(`${isoSeconds(io.now())}  ${view.exportId}  reconnected\n`);
    },
  };
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One JSON view per change; the last line is the final view. */
function jsonRenderer(io: CliIo, followUp: FollowUpCommand): ProgressRenderer {
  const changes = changeDetector();
  const update = (view: ExportView) => {
    if (changes.changed(view)) io.stdout.write(`${JSON.stringify(view)}\n`);
  };
  return {
    update,
    finish: update,
    interrupt(view) {
      writeStoppedWatching(io, view, followUp);
    },
    close() {},
    // stdout stays JSON only.
    reconnecting(view, state) {
      io.stderr.write(`${view.exportId}  ${reconnectingText(state)}\n`);
    },
    reconnected(view) {
      io.stderr.write(`${view.exportId}  reconnected\n`);
    },
  };
}

/** Status, poll count and upstream status: what makes a poll worth a line. */
function changeDetector(): { changed(view: ExportView): boolean } {
  let last: string | undefined;
  return {
    changed(view) {
      const key = JSON.stringify([
        view.status,
        view.pollCount,
        view.upstreamStatus ?? null,
        view.upstreamWait?.attempts ?? null,
      ]);
      if (key === last) return false;
      last = key;
      return true;
    },
  };
}

function progressSummary(view: ExportView, nowMs: number): string {
  const elapsedMs = exportElapsedMs(view, nowMs);
  return [
    view.exportId,
    view.status,
    elapsedMs === undefined ? undefined : formatElapsed(elapsedMs),
    `${view.pollCount} ${view.pollCount === 1 ? 'poll' : 'polls'}`,
    upstreamWaitText(view, nowMs) ?? `upstream ${view.upstreamStatus ?? '-'}`,
  ]
    .filter((part) => part !== undefined)
    .join('  ');
}

function finalSummary(view: ExportView, nowMs: number): string {
  const elapsedMs = exportElapsedMs(view, nowMs);
  const after = elapsedMs === undefined ? '' : ` after ${formatElapsed(elapsedMs)}`;
  const reason = view.failureReason ? `: ${view.failureReason}` : '';
  const links = view.links.length === 1 ? '1 link' : `${view.links.length} links`;
  const polls = view.pollCount === 1 ? '1 poll' : `${view.pollCount} polls`;
  return `${view.exportId} ${view.status}${after} (${polls}, ${links})${reason}`;
}

function writeLinks(io: CliIo, view: ExportView): void {
  for (const link of view.links) io.stdout.write(`${link}\n`);
}

function writeStoppedWatching(io: CliIo, view: ExportView | undefined, followUp: FollowUpCommand): void {
  const spot = view ? ` --spot ${view.spotId}` : '';
  const exportId = view?.exportId ?? '<exportId>';
  io.stderr.write(
    `Stopped watching; the export keeps running. Abort it with: ${followUp(`abort ${exportId}${spot}`)}\n`,
  );
}

/** Why a REQUESTED export still waits, e.g. "waiting for upstream: throttled, next try in 20 s (3 attempts)". */
export function upstreamWaitText(view: ExportView, nowMs: number): string | undefined {
  const wait = view.upstreamWait;
  if (view.status !== 'REQUESTED' || wait === undefined || wait.lastErrorKind === undefined) return undefined;
  const nextMs = wait.nextAttemptAt === undefined ? Number.NaN : Date.parse(wait.nextAttemptAt) - nowMs;
  const next = Number.isFinite(nextMs) && nextMs > 0 ? `, next try in ${Math.ceil(nextMs / 1000)} s` : '';
  const attempts = `${wait.attempts} ${wait.attempts === 1 ? 'attempt' : 'attempts'}`;
  return `waiting for upstream: ${wait.lastErrorKind}${next} (${attempts})`;
}
