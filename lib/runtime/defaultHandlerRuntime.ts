import { type Config, loadConfig } from '../config';
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
  let built: { config: Config; dependencies: ExportDependencies } | undefined;
  // A failed build is not kept: the next invocation reads the environment and tries again.
  const build = () => {
    if (built === undefined) {
      const config = loadConfig();
      built = { config, dependencies: createAwsExportDependencies(config, { metrics, logger }) };
    }
    return built;
  };
  runtime = {
    logger,
    metrics,
    dependencies: () => build().dependencies,
    spotClaim: () => build().config.authorization.spotClaim,
  };
  return runtime;
}

/** The deployed functions' dependencies, built on first use. */
export function defaultExportDependencies(): ExportDependencies {
  return defaultHandlerRuntime().dependencies();
}
