import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Config, ConfigError } from '../config';
import type { ExportSettings } from '../exports/ExportSettings';
import type { ExportDependencies, ExportMetrics } from '../exports/ports';
import { createDocumentClient } from '../store/createDocumentClient';
import { AWS_REQUEST_HANDLER, type AwsClients } from './AwsClients';

/** The dependencies that talk to something outside the process, each built by a port factory. */
export type PortName = 'store' | 'credentials' | 'upstream' | 'workflows' | 'events';

/** What a port factory builds its adapter from. */
export interface PortContext {
  config: Config;
  /** Epoch ms. */
  now: () => number;
  /** Where the upstream client reports its retries and re-authentications. */
  logger: Logger | undefined;
  /** The upstream client's fetch. */
  fetch: typeof fetch | undefined;
  /** Clients to use instead of new ones (mocked in tests, local endpoints in the local runtime). */
  clients: Partial<AwsClients>;
  /** The table's client, one for every port of this build. */
  documentClient(): DynamoDBDocumentClient;
  /** Another port of the same build, built once (the upstream signs in with the credentials port). */
  port<K extends PortName>(name: K): ExportDependencies[K];
}

export type PortFactory<K extends PortName> = (context: PortContext) => ExportDependencies[K];

/** The factories of the ports a caller needs; only these are built (and bundled). */
export type PortFactories<K extends PortName> = { [P in K]: PortFactory<P> };

/** The dependencies of the ports given, with the metrics, settings and clock every use case has. */
export type BuiltDependencies<K extends PortName> = Pick<
  ExportDependencies,
  K | 'metrics' | 'settings' | 'now'
>;

export interface BuildDependenciesOptions {
  metrics: ExportMetrics;
  clients?: Partial<AwsClients>;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Epoch ms; `Date.now` unless given. */
  now?: () => number;
  /** The lifecycle settings; the configuration's unless given. */
  settings?: ExportSettings;
}

/**
 * The one place the use cases' dependencies are wired: the deployed functions (each with the
 * ports its code paths use), the local runtime (with its own clients and stand-ins) and the
 * tests all call it. A port missing a resource makes the build fail with every missing
 * variable named at once. @throws ConfigError
 */
export function buildExportDependencies<K extends PortName>(
  config: Config,
  ports: PortFactories<K>,
  options: BuildDependenciesOptions,
): BuiltDependencies<K> {
  const factories: Partial<Record<PortName, PortFactory<PortName>>> = ports;
  const built = new Map<PortName, unknown>();
  let documentClient: DynamoDBDocumentClient | undefined;
  const context: PortContext = {
    config,
    now: options.now ?? Date.now,
    logger: options.logger,
    fetch: options.fetch,
    clients: options.clients ?? {},
    documentClient: () => {
      documentClient ??=
        options.clients?.documentClient ?? createDocumentClient({ requestHandler: AWS_REQUEST_HANDLER });
      return documentClient;
    },
    port: <P extends PortName>(name: P): ExportDependencies[P] => {
      if (!built.has(name)) {
        const factory = factories[name];
        if (factory === undefined) throw new RangeError(`The ${name} port is needed but was not given`);
        built.set(name, factory(context));
      }
      return built.get(name) as ExportDependencies[P];
    },
  };
  const problems = new Set<string>();
  for (const name of Object.keys(factories) as PortName[]) {
    try {
      context.port(name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
  }
  if (problems.size > 0) throw new ConfigError([...problems]);
  return {
    ...(Object.fromEntries(built) as Pick<ExportDependencies, K>),
    metrics: options.metrics,
    settings: options.settings ?? config.exports,
    now: context.now,
  } as BuiltDependencies<K>;
}
