import { isTerminal } from '../lib/exports/ExportStatus';
import type { CliIo } from './CliIo';
import type { ExportsApiClient } from './ExportsApiClient';
import type { ExportView } from './ExportView';
import { ApiProblemError, ApiUnreachableError, CliInterruptedError } from './errors';
import type { ProgressRenderer } from './progressRenderer';

export const DEFAULT_WATCH_INTERVAL_SECONDS = 2;
// The API refreshes a stale export from upstream on read, on its own schedule; polling it faster
// than this only re-reads the same record.
export const MIN_WATCH_INTERVAL_SECONDS = 1;
// A watch may run for an hour: a restarting local runtime or a brief outage should not end it.
export const WATCH_MAX_CONSECUTIVE_TRANSIENT_FAILURES = 5;
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
}

/**
 * Polls the export until it reaches a terminal state and returns that view. The loop ends with
 * the export (the service bounds its lifetime with its own timeout) or with Ctrl-C, which throws
 * `CliInterruptedError` and leaves the export running.
 */
export async function watchExport(options: WatchExportOptions): Promise<ExportView> {
  const { io, renderer } = options;
  let view = options.initialView;
  try {
    view ??= await options.client.getExport(options.spotId, options.exportId);
    renderer.update(view);
    let failures = 0;
    while (!isTerminal(view.status)) {
      await pause(io, options.intervalSeconds * MS_PER_SECOND);
      try {
        view = await options.client.getExport(options.spotId, options.exportId);
        failures = 0;
      } catch (error) {
        if (!isTransient(error) || ++failures > WATCH_MAX_CONSECUTIVE_TRANSIENT_FAILURES) throw error;
        continue;
      }
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

async function pause(io: CliIo, milliseconds: number): Promise<void> {
  try {
    await io.sleep(milliseconds, io.signal);
  } catch (error) {
    if (io.signal?.aborted) throw new CliInterruptedError();
    throw error;
  }
  if (io.signal?.aborted) throw new CliInterruptedError();
}

function isTransient(error: unknown): boolean {
  if (error instanceof ApiUnreachableError) return true;
  return (
    error instanceof ApiProblemError &&
    (error.httpStatus === HTTP_TOO_MANY_REQUESTS || error.httpStatus >= HTTP_SERVER_ERROR)
  );
}
