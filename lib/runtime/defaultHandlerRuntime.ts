import { type Config, loadConfig } from '../config';
import { createLogger } from '../observability/createLogger';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import {
  type AdapterFactories,
  type AdapterName,
  type BuiltDependencies,
  buildDependencies,
} from './buildDependencies';
import type { HandlerRuntime } from './HandlerRuntime';

/**
 * The runtime of a deployed function, built once per container from the adapters that function's
 * code paths use (and nothing else is bundled). The logger and metrics are cheap and built at
 * once; the AWS clients and the configuration only on the first invocation, and kept for the
 * container's life once built.
 */
export function defaultHandlerRuntime<K extends AdapterName>(
  factories: AdapterFactories<K>,
): HandlerRuntime<BuiltDependencies<K>> {
  const logger = createLogger();
  const metrics = new PowertoolsExportMetrics();
  let built: { config: Config; dependencies: BuiltDependencies<K> } | undefined;
  // A failed build is not kept: the next invocation reads the environment and tries again.
  const build = () => {
    if (built === undefined) {
      const config = loadConfig();
      built = { config, dependencies: buildDependencies(config, factories, { metrics, logger }) };
    }
    return built;
  };
  return {
    logger,
    metrics,
    dependencies: () => build().dependencies,
    spotClaim: () => build().config.authorization.spotClaim,
    spotsByPrincipal: () => build().config.authorization.spotsByPrincipal,
  };
}
