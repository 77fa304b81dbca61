import type { Logger } from '@aws-lambda-powertools/logger';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArchiveDependencies } from '../archive/archiveExport';
import { type Config, loadConfig, requireArchiveResources } from '../config';
import { EventBridgeExportEvents } from '../events/EventBridgeExportEvents';
import { createLogger } from '../observability/createLogger';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import { downloadLinkPolicy } from '../openweb/downloadLinkPolicy';
import { S3ArchiveStorage } from '../s3/S3ArchiveStorage';
import { createDocumentClient } from '../store/createDocumentClient';
import { DynamoDbArchiveRecords } from '../store/DynamoDbArchiveRecords';
import { DynamoDbExportStore } from '../store/DynamoDbExportStore';
import { AWS_CONNECTION_TIMEOUT_MS, AWS_REQUEST_HANDLER } from './AwsClients';
import type { HandlerRuntime } from './HandlerRuntime';

/** The clients the archive needs; the local runtime passes its own (dynalite, the S3 stand-in). */
export interface ArchiveClients {
  documentClient: DynamoDBDocumentClient;
  s3: S3Client;
  eventBridge?: EventBridgeClient;
}

export interface ArchiveDependencyOptions {
  clients?: Partial<ArchiveClients>;
  /** Where `Export Archived` is announced; EventBridge by default. */
  events?: ArchiveDependencies['events'];
  now?: () => number;
  fetch?: typeof fetch;
  logger?: Logger;
}

/**
 * A claim outlives any archive task: the archive function's timeout is 15 minutes, the
 * most Lambda allows.
 */
export const ARCHIVE_CLAIM_LEASE_SECONDS = 20 * 60;

/** The archive's dependencies: the exports table, the archive bucket, the export bus. @throws ConfigError */
export function createArchiveDependencies(
  config: Config,
  options: ArchiveDependencyOptions = {},
): ArchiveDependencies {
  const { tableName, bucketName, eventBusName } = requireArchiveResources(config);
  const documentClient =
    options.clients?.documentClient ?? createDocumentClient({ requestHandler: AWS_REQUEST_HANDLER });
  // Uploads stream for minutes; only connecting is bounded.
  const s3 =
    options.clients?.s3 ?? new S3Client({ requestHandler: { connectionTimeout: AWS_CONNECTION_TIMEOUT_MS } });
  const store = new DynamoDbExportStore({ client: documentClient, tableName });
  // Built on the first announcement: the files function, which never announces, never builds it.
  let busEvents: EventBridgeExportEvents | undefined;
  const lazyBusEvents = (): ArchiveDependencies['events'] => ({
    publishArchived: (record) => {
      busEvents ??= new EventBridgeExportEvents({
        client:
          options.clients?.eventBridge ?? new EventBridgeClient({ requestHandler: AWS_REQUEST_HANDLER }),
        eventBusName,
        archiveBucketName: bucketName,
      });
      return busEvents.publishArchived(record);
    },
  });
  return {
    getExport: (spotId, exportId) => store.getExport(spotId, exportId),
    archives: new DynamoDbArchiveRecords({ client: documentClient, tableName }),
    storage: new S3ArchiveStorage({ client: s3, bucketName }),
    events: options.events ?? lazyBusEvents(),
    downloadPolicy: downloadLinkPolicy(config.openWeb.exportBaseUrl, config.openWeb.downloadHosts),
    settings: {
      claimLeaseSeconds: ARCHIVE_CLAIM_LEASE_SECONDS,
      downloadTimeoutMs: config.archive.downloadTimeoutSeconds * 1000,
      downloadUrlExpirySeconds: config.archive.urlExpirySeconds,
    },
    now: options.now ?? Date.now,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  };
}

let built: ArchiveDependencies | undefined;

/** The deployed archive and files functions' dependencies, built on first use and kept per container. */
export function defaultArchiveDependencies(): ArchiveDependencies {
  built ??= createArchiveDependencies(loadConfig());
  return built;
}

/** What the archive and files handlers run with: logs and metrics, without the upstream's dependencies. */
export type ArchiveHandlerRuntime = Pick<HandlerRuntime, 'logger' | 'metrics' | 'spotClaim'>;

let runtime: ArchiveHandlerRuntime | undefined;

export function archiveHandlerRuntime(): ArchiveHandlerRuntime {
  runtime ??= {
    logger: createLogger(),
    metrics: new PowertoolsExportMetrics(),
    spotClaim: () => loadConfig().authorization.spotClaim,
  };
  return runtime;
}
