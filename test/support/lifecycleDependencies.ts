import type { Config } from '../../lib/config';
import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import { dynamoDbBackfillStoreFactory } from '../../lib/runtime/adapterFactories/dynamoDbFactories';
import { type BuildDependenciesOptions, buildDependencies } from '../../lib/runtime/buildDependencies';
import { LIFECYCLE_ADAPTERS } from '../../lib/runtime/lifecycleAdapters';
import { InMemoryExportMetrics } from '../../local/InMemoryExportMetrics';

/** The lifecycle's and the backfills' AWS adapters through the composition root, with in-memory metrics unless given. */
export function lifecycleDependencies(
  config: Config,
  options: Partial<BuildDependenciesOptions> = {},
): ExportDependencies {
  return buildDependencies(
    config,
    { ...LIFECYCLE_ADAPTERS, backfills: dynamoDbBackfillStoreFactory },
    {
      ...options,
      metrics: options.metrics ?? new InMemoryExportMetrics(),
    },
  );
}
