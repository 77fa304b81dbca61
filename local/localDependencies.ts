import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { functionEnvironment } from '../infra/functionEnvironment';
import { type Config, loadConfig } from '../lib/config';
import type { ExportSettings } from '../lib/exports/ExportSettings';
import type { ExportDependencies, ExportMetrics, PollingWorkflows } from '../lib/exports/ports';
import { createArchiveDependencies } from '../lib/runtime/archiveDependencies';
import { createArchivedFilesDependencies } from '../lib/runtime/archivedFilesDependencies';
import { buildExportDependencies } from '../lib/runtime/buildExportDependencies';
import { dynamoDbExportStore } from '../lib/runtime/ports/dynamoDbExportStore';
import { openWebUpstream } from '../lib/runtime/ports/openWebUpstream';
import type { FileCredentialsProvider } from '../lib/secrets/FileCredentialsProvider';
import type { LocalExportEvents } from './LocalExportEvents';
import type { LocalArchiving } from './localHandlers';
import type { LocalRuntimeSettings } from './localRuntimeSettings';
import type { LocalS3 } from './localS3';
import { LOCAL_TABLE_NAME } from './localStores';

/** However small the time scale, an export gets at least this long before its deadline. */
export const MIN_SCALED_EXPORT_DEADLINE_SECONDS = 1;

export interface LocalDependencyParts {
  /** The handlers' environment on this machine (`handlerEnvironment`) and the configuration read from it. */
  environment: NodeJS.ProcessEnv;
  config: Config;
  timeScale: number;
  documentClient: DynamoDBDocumentClient;
  credentials: FileCredentialsProvider;
  workflows: PollingWorkflows;
  events: LocalExportEvents;
  metrics: ExportMetrics;
  logger: Logger;
  /** The S3 stand-in when archiving is on. */
  archiveStorage: LocalS3 | undefined;
}

/**
 * The handlers' dependencies on this machine, wired by the deployed builders: the table on
 * dynalite, the credentials file, the OpenWeb client (to the simulator or OpenWeb), and in place
 * of Step Functions and EventBridge the local workflows and announcements.
 */
export function localDependencies(parts: LocalDependencyParts): {
  deps: ExportDependencies;
  archiving: LocalArchiving | undefined;
} {
  const { config, environment, documentClient, archiveStorage, events } = parts;
  const deps = buildExportDependencies(
    config,
    {
      store: dynamoDbExportStore,
      credentials: () => parts.credentials,
      upstream: openWebUpstream,
      workflows: () => parts.workflows,
      events: () => events,
    },
    {
      clients: { documentClient },
      metrics: parts.metrics,
      logger: parts.logger,
      settings: scaledExportSettings(config.exports, parts.timeScale),
    },
  );
  if (archiveStorage === undefined) return { deps, archiving: undefined };
  const archiveConfig = loadConfig({ ...environment, ARCHIVE_BUCKET_NAME: archiveStorage.bucketName });
  const clients = { documentClient, s3: archiveStorage.client };
  return {
    deps,
    archiving: {
      archive: createArchiveDependencies(archiveConfig, { clients, events }),
      files: createArchivedFilesDependencies(archiveConfig, clients),
    },
  };
}

/**
 * The handlers' environment on this machine: the one the stack gives the functions (every
 * function's variables, from the stack configuration), then `npm start`'s own environment, whose
 * variables win, then this machine's upstream, credentials and table. The local API authorizes no
 * caller by JWT, so no spot claim is passed on.
 */
export function handlerEnvironment(
  env: NodeJS.ProcessEnv,
  settings: LocalRuntimeSettings,
  simulator: { authBaseUrl: string; exportBaseUrl: string } | undefined,
): NodeJS.ProcessEnv {
  const upstream = simulator ?? (settings.upstream.kind === 'openweb' ? settings.upstream : undefined);
  const deployed = functionEnvironment('all', { ...settings.stackConfig, auth: { mode: 'iam' } }, {});
  return {
    ...deployed,
    ...env,
    OPENWEB_AUTH_BASE_URL: upstream?.authBaseUrl,
    OPENWEB_EXPORT_BASE_URL: upstream?.exportBaseUrl,
    LOCAL_SECRETS_FILE: settings.secretsFile,
    TABLE_NAME: LOCAL_TABLE_NAME,
  };
}

/**
 * The deadline is compared with the simulator's scaled durations and bounds the scaled
 * workflow (whose timeout and poll budget shrink with the time scale), so it shrinks too.
 * Leases, claims and freshness guard real I/O and stay as configured.
 */
export function scaledExportSettings(exports: ExportSettings, timeScale: number): ExportSettings {
  return {
    ...exports,
    exportDeadlineSeconds: Math.max(
      MIN_SCALED_EXPORT_DEADLINE_SECONDS,
      exports.exportDeadlineSeconds * timeScale,
    ),
  };
}
