import type { Logger } from '@aws-lambda-powertools/logger';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { ArchiveDependencies } from '../archive/archiveExport';
import { type Config, loadConfig, requireArchiveResources } from '../config';
import { EventBridgeExportEvents } from '../events/EventBridgeExportEvents';
import { downloadLinkPolicy } from '../openweb/downloadLinkPolicy';
import { createDocumentClient } from '../store/createDocumentClient';
import { DynamoDbArchiveRecords } from '../store/DynamoDbArchiveRecords';
import { DynamoDbExportStore } from '../store/DynamoDbExportStore';
import { AWS_REQUEST_HANDLER } from './AwsClients';
import type { ArchiveReadClients } from './archivedFilesDependencies';
import { s3ArchiveWriter } from './ports/s3ArchiveWriter';

/** The clients the archive needs; the local runtime passes its own (dynalite, the S3 stand-in). */
export interface ArchiveClients extends ArchiveReadClients {
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
  const store = new DynamoDbExportStore({ client: documentClient, tableName });
  // Built on the first announcement: a run that never announces never builds the client.
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
    storage: s3ArchiveWriter(bucketName, options.clients?.s3),
    events: options.events ?? lazyBusEvents(),
    downloadPolicy: downloadLinkPolicy(config.openWeb.exportBaseUrl, config.openWeb.downloadHosts),
    settings: {
      claimLeaseSeconds: ARCHIVE_CLAIM_LEASE_SECONDS,
      downloadTimeoutMs: config.archive.downloadTimeoutSeconds * 1000,
    },
    now: options.now ?? Date.now,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  };
}

let built: ArchiveDependencies | undefined;

/** The deployed archive function's dependencies, built on first use and kept per container. */
export function defaultArchiveDependencies(): ArchiveDependencies {
  built ??= createArchiveDependencies(loadConfig());
  return built;
}
