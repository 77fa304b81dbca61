import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type {
  ArchiveEvents,
  ArchiveReader,
  ArchiveRecords,
  ArchiveSettings,
  ArchiveWriter,
  TablePartitions,
} from '../archive/ports';
import type { TablePartitionRepair } from '../archive/TablePartitionRepair';
import { type Config, ConfigError } from '../config';
import type { ExportDependencies } from '../exports/ExportDependencies';
import type {
  ArchivedUserEraser,
  ErasureEvents,
  ErasureStore,
  ErasureWorkflows,
  SuppressionList,
  UserRowsQuery,
} from '../exports/erasure/ports';
import type { FreshnessMarks } from '../exports/fleet/ports';
import type { ExportSettings } from '../exports/record/ExportSettings';
import type { ExportMetrics } from '../exports/record/ports';
import { downloadLinkPolicy } from '../openweb/downloadLinkPolicy';
import { createDocumentClient } from '../store/createDocumentClient';
import { AWS_REQUEST_HANDLER, type AwsClients } from './AwsClients';

/**
 * Everything a handler may be given: the export lifecycle's ports and the archive's. Each
 * function asks for the adapters its code paths use, and only those are built (and bundled).
 */
export interface Dependencies extends ExportDependencies {
  /** Whether each spot was last announced stale (the reconciler's freshness watch). */
  freshnessMarks: FreshnessMarks;
  archives: ArchiveRecords;
  archiveWriter: ArchiveWriter;
  archiveReader: ArchiveReader;
  archiveEvents: ArchiveEvents;
  /** The query table's partitions (Glue in AWS); the archive registers each one it writes to. */
  partitions: TablePartitions;
  /** The catalog's repair from the bucket's partitions, kept for the process's life (Glue and S3 in AWS). */
  partitionRepair: Pick<TablePartitionRepair, 'repair'>;
  archiveSettings: ArchiveSettings;
  /** The erasures' records. */
  erasures: ErasureStore;
  /** The spots' erased users, left out of every archive. */
  suppressions: SuppressionList;
  /** The erasure workflow's executions. */
  erasureWorkflows: ErasureWorkflows;
  /** Where an erasure's end is announced. */
  erasureEvents: ErasureEvents;
  /** The archive's side of an erasure: rewrites and checks the archived files. */
  eraser: ArchivedUserEraser;
  /** The table asked at an erasure's end (DuckDB locally, Athena in AWS); undefined when the archive writes no table. */
  userRows: UserRowsQuery | undefined;
  /** The fetch of the upstream client and of archive downloads; the global one unless given. */
  fetch?: typeof fetch;
}

/** What every build has, whatever adapters it asked for. */
type AlwaysBuilt = 'metrics' | 'settings' | 'archiveSettings' | 'now' | 'fetch';

/** The dependencies that talk to something outside the process, each built by an adapter factory. */
export type AdapterName = Exclude<keyof Dependencies, AlwaysBuilt>;

/** What an adapter factory builds its adapter from. */
export interface AdapterContext {
  config: Config;
  /** Epoch ms. */
  now: () => number;
  /** Where the upstream client reports its retries and re-authentications. */
  logger: Logger | undefined;
  /** The upstream client's fetch. */
  fetch: typeof fetch | undefined;
  /** Clients to use instead of new ones (mocked in tests, local endpoints in the local runtime). */
  clients: Partial<AwsClients>;
  /** The table's client, one for every adapter of this build. */
  documentClient(): DynamoDBDocumentClient;
  /** Another adapter of the same build, built once (the upstream signs in with the credentials adapter). */
  adapter<K extends AdapterName>(name: K): Dependencies[K];
}

/** Builds one adapter from the configuration (and the clients the caller gave). */
export type AdapterFactory<K extends AdapterName> = (context: AdapterContext) => Dependencies[K];

/** The factories of the adapters a caller needs; only these are built. */
export type AdapterFactories<K extends AdapterName> = { [P in K]: AdapterFactory<P> };

/** The adapters asked for, with the metrics, settings, clock and fetch every build has. */
export type BuiltDependencies<K extends AdapterName> = Pick<Dependencies, K | AlwaysBuilt>;

export interface BuildDependenciesOptions {
  metrics: ExportMetrics;
  clients?: Partial<AwsClients>;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Epoch ms; `Date.now` unless given. */
  now?: () => number;
  /** The lifecycle settings; the configuration's unless given (the local runtime scales them). */
  settings?: ExportSettings;
}

/**
 * A claim outlives any archive task: the archive function's timeout is 15 minutes, the most
 * Lambda allows.
 */
export const ARCHIVE_CLAIM_LEASE_SECONDS = 20 * 60;
const MS_PER_SECOND = 1000;

/** The archive's settings, from the configuration. */
export function archiveSettingsOf(config: Config): ArchiveSettings {
  return {
    claimLeaseSeconds: ARCHIVE_CLAIM_LEASE_SECONDS,
    downloadTimeoutMs: config.archive.downloadTimeoutSeconds * MS_PER_SECOND,
    urlExpirySeconds: config.archive.urlExpirySeconds,
    writeTable: config.archive.writeTable,
    expireAfterDays: config.archive.expireAfterDays,
    downloadPolicy: downloadLinkPolicy(config.openWeb.exportBaseUrl, config.openWeb.downloadHosts),
  };
}

/**
 * The composition root: the one place every handler's dependencies are wired — the deployed
 * functions (each with the adapters its code paths use), the local runtime (with its own clients
 * and stand-ins) and the tests all call it. An adapter missing a resource makes the build fail
 * with every missing variable named at once. @throws ConfigError
 */
export function buildDependencies<K extends AdapterName>(
  config: Config,
  factories: AdapterFactories<K>,
  options: BuildDependenciesOptions,
): BuiltDependencies<K> {
  const byName: Partial<Record<AdapterName, AdapterFactory<AdapterName>>> = factories;
  const built = new Map<AdapterName, unknown>();
  let documentClient: DynamoDBDocumentClient | undefined;
  const context: AdapterContext = {
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
    adapter: <P extends AdapterName>(name: P): Dependencies[P] => {
      if (!built.has(name)) {
        const factory = byName[name];
        if (factory === undefined) throw new RangeError(`The ${name} adapter is needed but was not given`);
        built.set(name, factory(context));
      }
      return built.get(name) as Dependencies[P];
    },
  };
  const problems = new Set<string>();
  for (const name of Object.keys(byName) as AdapterName[]) {
    try {
      context.adapter(name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
  }
  if (problems.size > 0) throw new ConfigError([...problems]);
  return {
    ...(Object.fromEntries(built) as Pick<Dependencies, K>),
    metrics: options.metrics,
    settings: options.settings ?? config.exports,
    archiveSettings: archiveSettingsOf(config),
    now: context.now,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  } as BuiltDependencies<K>;
}
