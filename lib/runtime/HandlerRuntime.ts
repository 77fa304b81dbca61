import type { Logger } from '@aws-lambda-powertools/logger';
import type { ExportDependencies } from '../exports/ExportDependencies';
import type { SpotsByPrincipal } from '../http/spotAuthorization';
import { createLogger } from '../observability/createLogger';
import type { PublishableExportMetrics } from '../observability/PublishableExportMetrics';

/**
 * What a handler runs with. The AWS runtime, the local runtime and the tests each
 * build one, and all run the very same handler code with it.
 */
export interface HandlerRuntime<D = ExportDependencies> {
  logger: Logger;
  /** Published after every invocation; the same object the dependencies count into. */
  metrics: PublishableExportMetrics;
  /** Built on first use (inside an invocation, so a bad configuration is reported there). */
  dependencies: () => D;
  /** The JWT claim listing the spots a caller may use (`AUTH_SPOT_CLAIM`); unset: no per-spot check. */
  spotClaim?: () => string | undefined;
  /** IAM mode: the spots each role or user may use (`AUTH_SPOTS_BY_PRINCIPAL`); unset: no per-spot check. */
  spotsByPrincipal?: () => SpotsByPrincipal | undefined;
}

export interface HandlerRuntimeOptions {
  logger?: Logger;
  spotClaim?: string;
  spotsByPrincipal?: SpotsByPrincipal;
}

/** A runtime around ready-made dependencies (tests, the local runtime). */
export function handlerRuntimeFor<D extends Pick<ExportDependencies, 'metrics'>>(
  dependencies: D,
  options: HandlerRuntimeOptions = {},
): HandlerRuntime<D> {
  const { metrics } = dependencies;
  return {
    logger: options.logger ?? createLogger(),
    metrics:
      'publish' in metrics
        ? (metrics as PublishableExportMetrics)
        : // Counters that publish on their own (or never) have nothing to flush.
          { count: (name, value) => metrics.count(name, value), publish: () => {} },
    dependencies: () => dependencies,
    spotClaim: () => options.spotClaim,
    spotsByPrincipal: () => options.spotsByPrincipal,
  };
}

/** What every handler runs with besides its dependencies: logs, metrics, who may use which spot. */
export type HandlerRuntimeServices = Pick<
  HandlerRuntime<unknown>,
  'logger' | 'metrics' | 'spotClaim' | 'spotsByPrincipal'
>;
