import { makeAbortHandler } from '../functions/abort';
import { makeArchiveHandler } from '../functions/archive';
import { makeBackfillsHandler } from '../functions/backfills';
import { makeCheckStatusHandler } from '../functions/check-status';
import { makeCoverageHandler } from '../functions/coverage';
import { makeFilesHandler } from '../functions/files';
import { makeListHandler } from '../functions/list';
import { makeReconcileHandler } from '../functions/reconcile';
import { makeStartHandler } from '../functions/start';
import { makeWorkflowTaskHandler } from '../functions/workflow-task';
import type { ArchivedFilesDependencies } from '../lib/archive/archivedFiles';
import type { ArchiveDependencies } from '../lib/archive/archiveExport';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import { type HandlerName, HandlerNames } from '../lib/http/routeTable';
import type { ExportHandler } from '../lib/runtime/createHandler';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { localLambdaContext } from './localLambdaContext';

export type LocalHandlers = Record<HandlerName, ExportHandler>;

/** What archiving needs on this machine: the archive run's dependencies and `/files`'. */
export interface LocalArchiving {
  archive: ArchiveDependencies;
  files: ArchivedFilesDependencies;
}

/**
 * The deployed handlers, built around a local runtime's dependencies. Without `archiving`
 * nothing is archived: the archive task passes and `/files` lists no files.
 */
export function localHandlers(
  runtime: HandlerRuntime<ExportDependencies>,
  archiving?: LocalArchiving,
): LocalHandlers {
  const files: ArchivedFilesDependencies = archiving?.files ?? {
    store: { getExport: (spotId, exportId) => runtime.dependencies().store.getExport(spotId, exportId) },
    archiveReader: undefined,
    archiveSettings: { urlExpirySeconds: 0 },
    now: Date.now,
  };
  return {
    [HandlerNames.START]: makeStartHandler(runtime),
    [HandlerNames.CHECK_STATUS]: makeCheckStatusHandler(runtime),
    [HandlerNames.WORKFLOW_TASK]: makeWorkflowTaskHandler(runtime),
    [HandlerNames.RECONCILE]: makeReconcileHandler(runtime),
    [HandlerNames.ABORT]: makeAbortHandler(runtime),
    [HandlerNames.LIST]: makeListHandler(runtime),
    [HandlerNames.ARCHIVE]: makeArchiveHandler({ ...runtime, dependencies: () => archiving?.archive }),
    [HandlerNames.FILES]: makeFilesHandler({ ...runtime, dependencies: () => files }),
    [HandlerNames.COVERAGE]: makeCoverageHandler(runtime),
    [HandlerNames.BACKFILLS]: makeBackfillsHandler(runtime),
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
