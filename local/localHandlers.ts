import type { ErasureApiDependencies } from '../functions/erasures';
import {
  EXPORT_FUNCTIONS,
  type HandlerDependencies,
  type HandlerDependencyKind,
  type HandlerSource,
} from '../functions/registry';
import type { ArchivedFilesDependencies } from '../lib/archive/archivedFiles';
import type { ArchiveDependencies } from '../lib/archive/archiveExport';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import type { ErasureDependencies } from '../lib/exports/erasure/runErasure';
import type { HandlerName } from '../lib/http/routeTable';
import type { ExportHandler } from '../lib/runtime/createHandler';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { LocalArchiveOffError } from './errors';
import { localLambdaContext } from './localLambdaContext';

export type LocalHandlers = Record<HandlerName, ExportHandler>;

/** What archiving needs on this machine: the archive run's dependencies and `/files`'. */
export interface LocalArchiving {
  archive: ArchiveDependencies;
  files: ArchivedFilesDependencies;
  /** The erasure routes' (the records and the suppression list, on the same table). */
  erasure?: ErasureApiDependencies;
  /** The erasure workflow task's (the records, the eraser on the S3 stand-in, the announcements). */
  erasureRun?: ErasureDependencies;
}

type HandlerRuntimes = { [K in HandlerDependencyKind]: HandlerRuntime<HandlerDependencies[K]> };

/** Makes a function's handler around the runtime of its kind. */
type LocalHandlerMaker = (runtimes: HandlerRuntimes) => ExportHandler;

/** Every function's handler maker, loaded with this module as static imports of the entry files would be. */
const MAKERS = new Map(
  await Promise.all(EXPORT_FUNCTIONS.map(async (fn) => [fn.name, await loadMaker(fn.handler)] as const)),
);

/**
 * The deployed handlers of the function registry, built around a local runtime's dependencies.
 * Without `archiving` nothing is archived: the archive task passes and `/files` lists no files.
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
  const runtimes: HandlerRuntimes = {
    lifecycle: runtime,
    archive: { ...runtime, dependencies: () => archiving?.archive },
    files: { ...runtime, dependencies: () => files },
    erasure: { ...runtime, dependencies: () => erasureDependencies(archiving) },
    erasureRun: { ...runtime, dependencies: () => erasureRunDependencies(archiving) },
  };
  return Object.fromEntries([...MAKERS].map(([name, make]) => [name, make(runtimes)])) as LocalHandlers;
}

/** The erasure routes' dependencies; without an archive there is nothing to erase from. */
function erasureDependencies(archiving: LocalArchiving | undefined): ErasureApiDependencies {
  if (archiving?.erasure === undefined) throw new LocalArchiveOffError();
  return archiving.erasure;
}

function erasureRunDependencies(archiving: LocalArchiving | undefined): ErasureDependencies {
  if (archiving?.erasureRun === undefined) throw new LocalArchiveOffError();
  return archiving.erasureRun;
}

/** Invokes a handler as Lambda would: the event and a fresh context. */
export function invokeLocalHandler(
  handlers: LocalHandlers,
  handler: HandlerName,
  event: unknown,
): Promise<unknown> {
  return handlers[handler](event, localLambdaContext(handler));
}

async function loadMaker(source: HandlerSource): Promise<LocalHandlerMaker> {
  switch (source.dependencies) {
    case 'lifecycle': {
      const make = await source.load();
      return (runtimes) => make(runtimes.lifecycle);
    }
    case 'archive': {
      const make = await source.load();
      return (runtimes) => make(runtimes.archive);
    }
    case 'files': {
      const make = await source.load();
      return (runtimes) => make(runtimes.files);
    }
    case 'erasure': {
      const make = await source.load();
      return (runtimes) => make(runtimes.erasure);
    }
    case 'erasureRun': {
      const make = await source.load();
      return (runtimes) => make(runtimes.erasureRun);
    }
  }
}
