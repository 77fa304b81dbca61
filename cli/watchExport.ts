import { isTerminal } from '../lib/exports/record/ExportStatus';
import type { ExportView } from '../lib/http/exportViewSchema';
import type { CliIo } from './CliIo';
import type { ExportsApiClient } from './ExportsApiClient';
import { ApiProblemError, ApiUnreachableError, CliInterruptedError, WatchGaveUpError } from './errors';
import type { ProgressRenderer } from './progressRenderer';

export const DEFAULT_WATCH_INTERVAL_SECONDS = 2;
// The API refreshes a stale export from upstream on read, on its own schedule; polling it faster
// than this only re-reads the same record.
export const MIN_WATCH_INTERVAL_SECONDS = 1;
/**
 * A watch may run for hours: a restarting local runtime or an outage should not end it. Failed
 * checks in a row are retried this often by default, waiting 1 s, 2 s, 4 s… up to 30 s between
 * them: about 13 minutes in all. `--reconnect-attempts` changes it.
 */
export const DEFAULT_WATCH_RECONNECT_ATTEMPTS = 30;
export const WATCH_RECONNECT_FIRST_DELAY_MS = 1_000;
export const WATCH_RECONNECT_MAX_DELAY_MS = 30_000;
const MS_PER_SECOND = 1000;
const HTTP_TOO_MANY_REQUESTS = 429;
const HTTP_SERVER_ERROR = 500;

export interface WatchExportOptions {
  client: ExportsApiClient;
  spotId: string;
  exportId: string;
  intervalSeconds: number;
  io: CliIo;
  renderer: ProgressRenderer;
  /** A view already in hand (from a start), shown before the first poll. */
  initialView?: ExportView;
  /** Failed status checks in a row to retry before giving up (default DEFAULT_WATCH_RECONNECT_ATTEMPTS). */
  reconnectAttempts?: number;
  /** The command that resumes this watch, for the message when it gives up. */
  resumeCommand?: string;
}

/** The wait before reconnect attempt `attempt` (1-based): doubling from 1 s, capped at 30 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(WATCH_RECONNECT_MAX_DELAY_MS, WATCH_RECONNECT_FIRST_DELAY_MS * 2 ** (attempt - 1));
}

/**
 * Polls the export until it reaches a terminal state and returns that view. The loop ends with
 * the export (the service bounds its lifetime with its own timeout) or with Ctrl-C, which throws
 * `CliInterruptedError` and leaves the export running. Once the export has been seen, an API that
 * cannot be reached or answers 429/5xx is retried with backoff, shown as "reconnecting"; after
 * `reconnectAttempts` failures in a row it throws `WatchGaveUpError` (the export keeps running).
 */
export async function watchExport(options: WatchExportOptions): Promise<ExportView> {
  const { io, renderer } = options;
  const maxAttempts = options.reconnectAttempts ?? DEFAULT_WATCH_RECONNECT_ATTEMPTS;
  let view = options.initialView;
  try {
    view ??= await options.client.getExport(options.spotId, options.exportId);
    renderer.update(view);
    let failures = 0;
    let delayMs = options.intervalSeconds * MS_PER_SECOND;
    while (!isTerminal(view.status)) {
      await pause(io, delayMs);
      delayMs = options.intervalSeconds * MS_PER_SECOND;
      try {
        view = await options.client.getExport(options.spotId, options.exportId);
      } catch (error) {
        if (!isTransientApiFailure(error)) throw error;
        failures += 1;
        if (failures > maxAttempts) {
          throw new WatchGaveUpError(error as ApiUnreachableError | ApiProblemError, {
            exportId: options.exportId,
            spotId: options.spotId,
            attempts: maxAttempts,
            ...(options.resumeCommand !== undefined && { resumeCommand: options.resumeCommand }),
          });
        }
        delayMs = reconnectDelayMs(failures);
        renderer.reconnecting(view, {
          attempt: failures,
          maxAttempts,
          nextInMs: delayMs,
          reason: describeApiFailure(error),
        });
        continue;
      }
      if (failures > 0) renderer.reconnected(view);
      failures = 0;
      renderer.update(view);
    }
    renderer.finish(view);
    return view;
  } catch (error) {
    if (error instanceof CliInterruptedError) renderer.interrupt(view);
    else renderer.close();
    throw error;
  }
}

export function describeApiFailure(error: unknown): string {
  if (error instanceof ApiUnreachableError) return 'the API cannot be reached';
  if (error instanceof ApiProblemError) return `the API answered ${error.httpStatus}`;
  return 'the API failed';
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

/** A failure worth trying again after a pause: the API unreachable, or answering 429 or 5xx. */
export function isTransientApiFailure(error: unknown): boolean {
  if (error instanceof ApiUnreachableError) return true;
  return (
    error instanceof ApiProblemError &&
    (error.httpStatus === HTTP_TOO_MANY_REQUESTS || error.httpStatus >= HTTP_SERVER_ERROR)
  );
}
