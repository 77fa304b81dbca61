import { loadConfig } from '../config';
import { createLogger } from '../observability/createLogger';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import type { HandlerRuntimeServices } from './HandlerRuntime';

/** What the archive and files handlers run with: logs and metrics, without the upstream's dependencies. */
export type ArchiveHandlerRuntime = HandlerRuntimeServices;

/** The deployed archive or files function's runtime, one per container. */
export function archiveHandlerRuntime(): ArchiveHandlerRuntime {
  return {
    logger: createLogger(),
    metrics: new PowertoolsExportMetrics(),
    spotClaim: () => loadConfig().authorization.spotClaim,
  };
}
