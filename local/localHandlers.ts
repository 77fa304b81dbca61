import { makeAbortHandler } from '../functions/abort';
import { makeArchiveHandler } from '../functions/archive';
import { makeCheckStatusHandler } from '../functions/check-status';
import { makeFilesHandler } from '../functions/files';
import { makeListHandler } from '../functions/list';
import { makeStartHandler } from '../functions/start';
import type { ArchiveDependencies } from '../lib/archive/archiveExport';
import { type HandlerName, HandlerNames } from '../lib/http/routeTable';
import type { ExportHandler } from '../lib/runtime/createExportHandler';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { localLambdaContext } from './localLambdaContext';

export type LocalHandlers = Record<HandlerName, ExportHandler>;

/**
 * The deployed handlers, built around a local runtime's dependencies. Without `archive`
 * nothing is archived: the archive task passes and `/files` lists no files.
 */
export function localHandlers(runtime: HandlerRuntime, archive?: ArchiveDependencies): LocalHandlers {
  const getExport = (spotId: string, exportId: string) =>
    runtime.dependencies().store.getExport(spotId, exportId);
  return {
    [HandlerNames.START]: makeStartHandler(runtime),
    [HandlerNames.CHECK_STATUS]: makeCheckStatusHandler(runtime),
    [HandlerNames.ABORT]: makeAbortHandler(runtime),
    [HandlerNames.LIST]: makeListHandler(runtime),
    [HandlerNames.ARCHIVE]: makeArchiveHandler(runtime, () => archive),
    [HandlerNames.FILES]: makeFilesHandler(runtime, () => ({
      getExport,
      storage: archive?.storage,
      urlExpirySeconds: archive?.settings.downloadUrlExpirySeconds ?? 0,
      now: archive?.now ?? Date.now,
    })),
  };
}

/** Invokes a handler as Lambda would: the event and a fresh context. */
export function invokeLocalHandler(
  handlers: LocalHandlers,
  handler: HandlerName,
  event: unknown,
): Promise<unknown> {
  return handlers[handler](event, localLambdaContext(handler));
}
