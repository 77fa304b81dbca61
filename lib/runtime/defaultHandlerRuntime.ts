import { loadConfig } from '../config';
import type { ExportDependencies } from '../exports/ports';
import { createLogger } from '../observability/createLogger';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import { createAwsExportDependencies } from './createAwsExportDependencies';
import type { HandlerRuntime } from './HandlerRuntime';

let runtime: HandlerRuntime | undefined;

/**
 * The runtime of the deployed functions, one per container. The logger and metrics
 * are cheap and built at once; the AWS clients and the configuration only on the
 * first invocation, and kept for the container's life once built.
 */
export function defaultHandlerRuntime(): HandlerRuntime {
  if (runtime !== undefined) return runtime;
  const logger = createLogger();
  const metrics = new PowertoolsExportMetrics();
  let dependencies: ExportDependencies | undefined;
  runtime = {
    logger,
    metrics,
    dependencies: () => {
      // A failed build is not kept: the next invocation tries again.
      dependencies ??= createAwsExportDependencies(loadConfig(), { metrics, logger });
      return dependencies;
    },
  };
  return runtime;
}

/** The deployed functions' dependencies, built on first use. */
export function defaultExportDependencies(): ExportDependencies {
  return defaultHandlerRuntime().dependencies();
}
