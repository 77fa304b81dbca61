import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArchivedFilesDependencies } from '../archive/archivedFiles';
import type { ArchiveReader } from '../archive/ports';
import { type Config, loadConfig, requireArchiveResources } from '../config';
import { createDocumentClient } from '../store/createDocumentClient';
import { DynamoDbExportStore } from '../store/DynamoDbExportStore';
import { AWS_REQUEST_HANDLER } from './AwsClients';
import { s3ArchiveReader } from './ports/s3ArchiveReader';

/** The clients reading the archive; the local runtime passes its own (dynalite, the S3 stand-in). */
export interface ArchiveReadClients {
  documentClient: DynamoDBDocumentClient;
  s3: S3Client;
}

/** The exports table and the archive bucket, read only. @throws ConfigError */
export function createArchivedFilesDependencies(
  config: Config,
  clients: Partial<ArchiveReadClients> = {},
): ArchivedFilesDependencies & { storage: ArchiveReader } {
  const { tableName, bucketName } = requireArchiveResources(config);
  const store = new DynamoDbExportStore({
    client: clients.documentClient ?? createDocumentClient({ requestHandler: AWS_REQUEST_HANDLER }),
    tableName,
  });
  return {
    getExport: (spotId, exportId) => store.getExport(spotId, exportId),
    storage: s3ArchiveReader(bucketName, clients.s3),
    urlExpirySeconds: config.archive.urlExpirySeconds,
    now: Date.now,
  };
}

let built: ArchivedFilesDependencies | undefined;

/** The deployed files function's dependencies, built on first use and kept per container. */
export function defaultArchivedFilesDependencies(): ArchivedFilesDependencies {
  built ??= createArchivedFilesDependencies(loadConfig());
  return built;
}
