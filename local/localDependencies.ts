import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { fleetFreshnessTargets } from '../infra/fleetFreshnessTargets';
import { functionEnvironment } from '../infra/functionEnvironment';
import { PATH_TABLE_PARTITIONS } from '../lib/archive/pathTablePartitions';
import type { Config } from '../lib/config';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import type { ErasureWorkflows } from '../lib/exports/erasure/ports';
import type { ExportSettings } from '../lib/exports/record/ExportSettings';
import type { ExportMetrics } from '../lib/exports/record/ports';
import type { PollingWorkflows } from '../lib/exports/workflow/ports';
import { archiveUserEraserFactory } from '../lib/runtime/adapterFactories/archiveUserEraserFactory';
import {
  dynamoDbArchiveRecordsFactory,
  dynamoDbBackfillStoreFactory,
  dynamoDbCoverageLedgerFactory,
  dynamoDbErasureStoreFactory,
  dynamoDbExportStoreFactory,
  dynamoDbFreshnessMarksFactory,
  dynamoDbIdempotencyKeysFactory,
  dynamoDbSpotLocksFactory,
  dynamoDbSuppressionListFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { openWebUpstreamFactory } from '../lib/runtime/adapterFactories/openWebUpstreamFactory';
import { s3ArchiveWriterFactory } from '../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
import { buildDependencies } from '../lib/runtime/buildDependencies';
import type { FileCredentialsProvider } from '../lib/secrets/FileCredentialsProvider';
import type { Setting } from '../lib/settings/Setting';
import { SETTINGS } from '../lib/settings/settingsTable';
import { DuckDbUserRowsQuery } from './DuckDbUserRowsQuery';
import type { LocalExportEvents } from './LocalExportEvents';
import type { LocalArchiving } from './localHandlers';
import type { LocalRuntimeSettings } from './localRuntimeSettings';
import type { LocalS3 } from './localS3';
import { LOCAL_TABLE_NAME } from './localStores';
import { STAND_IN_REQUEST_TIMEOUT_MS } from './standInRequestHandler';

/** However small the time scale, an export gets at least this long before its deadline (and a failed window before its retry). */
export const MIN_SCALED_SECONDS = 1;
/**
 * However small the time scale, the reconciler takes an export for silent only once it has gone
 * unpolled this long (real seconds): a poll in progress may wait on a stand-in that long on a
 * loaded machine, and is not silent.
 */
export const MIN_SILENT_EXPORT_SECONDS = STAND_IN_REQUEST_TIMEOUT_MS / 1000;
const EXPORTS_GROUP = 'exports.';
const TIME_SCALED_EXPORT_SETTINGS = Object.values(SETTINGS as Record<string, Setting>).filter(
  (setting) => setting.timeScaled === true && setting.config?.startsWith(EXPORTS_GROUP) === true,
);

export interface LocalDependencyParts {
  /** The configuration read from the handlers' environment on this machine (`handlerEnvironment`). */
  config: Config;
  timeScale: number;
  documentClient: DynamoDBDocumentClient;
  credentials: FileCredentialsProvider;
  workflows: PollingWorkflows;
  /** The erasure workflow, run from the same synthesized definition. */
  erasureWorkflows: ErasureWorkflows;
  events: LocalExportEvents;
  metrics: ExportMetrics;
  logger: Logger;
  /** The S3 stand-in when archiving is on. */
  archiveStorage: LocalS3 | undefined;
}

/**
 * The handlers' dependencies on this machine, wired by the deployed composition root
 * (`buildDependencies`) with the deployed adapter factories: the table on dynalite, the OpenWeb
 * client (to the simulator or OpenWeb), the archive on the S3 stand-in; and in place of Step
 * Functions, EventBridge, Secrets Manager and the Glue catalog the local workflows,
 * announcements, credentials file and partitions read from the keys.
 */
export function localDependencies(parts: LocalDependencyParts): {
  deps: ExportDependencies;
  archiving: LocalArchiving | undefined;
} {
  const { documentClient, archiveStorage, events } = parts;
  const config: Config =
    archiveStorage === undefined
      ? parts.config
      : { ...parts.config, archive: { ...parts.config.archive, bucketName: archiveStorage.bucketName } };
  const lifecycle = {
    store: dynamoDbExportStoreFactory,
    coverage: dynamoDbCoverageLedgerFactory,
    backfills: dynamoDbBackfillStoreFactory,
    freshnessMarks: dynamoDbFreshnessMarksFactory,
    spotLocks: dynamoDbSpotLocksFactory,
    idempotencyKeys: dynamoDbIdempotencyKeysFactory,
    credentials: () => parts.credentials,
    upstream: openWebUpstreamFactory,
    workflows: () => parts.workflows,
    events: () => events,
  };
  const options = {
    clients: { documentClient, ...(archiveStorage !== undefined && { s3: archiveStorage.client }) },
    metrics: parts.metrics,
    logger: parts.logger,
    settings: {
      ...scaledExportSettings(config.exports, parts.timeScale),
      archiving: archiveStorage !== undefined,
    },
  };
  if (archiveStorage === undefined) {
    return { deps: buildDependencies(config, lifecycle, options), archiving: undefined };
  }
  const deps = buildDependencies(
    config,
    {
      ...lifecycle,
      archives: dynamoDbArchiveRecordsFactory,
      suppressions: dynamoDbSuppressionListFactory,
      erasures: dynamoDbErasureStoreFactory,
      archiveWriter: s3ArchiveWriterFactory,
      archiveReader: () => archiveStorage.archiveReader(),
      // DuckDB (`openweb-exports query`) reads the partitions from the keys: nothing to register.
      partitions: () => PATH_TABLE_PARTITIONS,
      archiveEvents: () => events,
      erasureWorkflows: () => parts.erasureWorkflows,
      erasureEvents: () => events,
      eraser: archiveUserEraserFactory,
    },
    options,
  );
  // An erasure asks the table at its end where the archive writes one: DuckDB over the files.
  const erasureRun = config.archive.writeTable
    ? { ...deps, userRows: new DuckDbUserRowsQuery({ bucketDirectory: archiveStorage.bucketDirectory }) }
    : deps;
  return { deps, archiving: { archive: deps, files: deps, erasure: deps, erasureRun } };
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
  spotsWithKeys: readonly string[] = [],
): NodeJS.ProcessEnv {
  const upstream = simulator ?? (settings.upstream.kind === 'openweb' ? settings.upstream : undefined);
  const deployed = functionEnvironment('all', { ...settings.stackConfig, auth: { mode: 'iam' } }, {});
  // The fleet: the configured spots, and here every spot of the credentials file too (no target).
  const freshnessTargets = {
    ...Object.fromEntries(spotsWithKeys.map((spotId) => [spotId, null])),
    ...fleetFreshnessTargets(settings.stackConfig),
  };
  return {
    ...deployed,
    FLEET_FRESHNESS_TARGETS: JSON.stringify(freshnessTargets),
    ...env,
    OPENWEB_AUTH_BASE_URL: upstream?.authBaseUrl,
    OPENWEB_EXPORT_BASE_URL: upstream?.exportBaseUrl,
    LOCAL_SECRETS_FILE: settings.secretsFile,
    TABLE_NAME: LOCAL_TABLE_NAME,
  };
}

/**
 * The settings the table marks `timeScaled` shrink with the time scale: they are durations of the
 * upstream's world (the deadline is compared with the simulator's scaled durations and bounds the
 * scaled workflow; a failed window's cooldown waits for the upstream to change; the first poll of a
 * spot without history is waited in real seconds, like the ones learned from the clock; an export
 * is silent for the reconciler once it has gone unpolled for several of the workflow's scaled poll
 * intervals, and an in-flight window is checked as soon, though never before a stand-in's call
 * could have answered). Leases, claims and freshness guard real I/O and stay as configured. A
 * scaled setting that may not be 0 keeps at least a second.
 */
export function scaledExportSettings(exports: ExportSettings, timeScale: number): ExportSettings {
  const scaled: Record<string, number> = {};
  for (const setting of TIME_SCALED_EXPORT_SETTINGS) {
    const key = (setting.config as string).slice(EXPORTS_GROUP.length);
    const floor = setting.kind.type === 'integer' && setting.kind.min === 0 ? 0 : MIN_SCALED_SECONDS;
    scaled[key] = Math.max(floor, (exports[key as keyof ExportSettings] as number) * timeScale);
  }
  scaled.reconcileStaleAfterSeconds = Math.max(
    MIN_SILENT_EXPORT_SECONDS,
    scaled.reconcileStaleAfterSeconds ?? exports.reconcileStaleAfterSeconds,
  );
  return { ...exports, ...scaled };
}
