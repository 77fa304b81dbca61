import type { ExportSettings } from './exports/record/ExportSettings';
import type { SpotsByPrincipal } from './http/spotAuthorization';
import { DEFAULT_EXPORT_SETTINGS } from './settings/defaultExportSettings';
import { readFunctionSettings } from './settings/functionSettings';
import { SETTINGS } from './settings/settingsTable';

/** Upstream hosts from OpenWeb's documentation; local mode points both at the simulator. */
export const DEFAULT_OPENWEB_AUTH_BASE_URL = SETTINGS.openWebAuthBaseUrl.default;
export const DEFAULT_OPENWEB_EXPORT_BASE_URL = SETTINGS.openWebExportBaseUrl.default;
export const DEFAULT_SECRET_NAME_PREFIX = SETTINGS.secretNamePrefix.default;

export interface OpenWebConfig {
  authBaseUrl: string;
  exportBaseUrl: string;
  requestTimeoutMs: number;
  maxAttempts: number;
  retryBudgetMs: number;
  /** Upstream HTTP requests in flight at once per process (one client), at most. */
  maxConcurrentRequests: number;
  /** Upstream HTTP requests started per second per process, at most; undefined = no limit. */
  maxRequestsPerSecond: number | undefined;
  /** Auth requests per second across the whole fleet (all containers, one table), at most. */
  authRequestsPerSecond: number;
  /** Hosts download links may point to besides the export host (`host`, `host:port`, `*.domain.tld`). */
  downloadHosts: readonly string[];
}

/** How API callers are authorized beyond API Gateway's own check. */
export interface AuthorizationConfig {
  /** JWT mode: the claim listing the spots a caller may use; undefined: any authorized caller may use any spot. */
  spotClaim: string | undefined;
  /** IAM mode: the spots each role or user may use; undefined: any authorized caller may use any spot. */
  spotsByPrincipal: SpotsByPrincipal | undefined;
}

export type CredentialsConfig =
  | { source: 'secretsManager'; secretNamePrefix: string; cacheMaxAgeSeconds: number }
  | { source: 'file'; path: string };

/** The AWS resources the functions use. Optional here so tools can validate a partial environment; the AWS runtime requires them. */
export interface AwsResourcesConfig {
  tableName: string | undefined;
  stateMachineArn: string | undefined;
  eventBusName: string;
}

/** Where finished exports' files are kept and how they are handed out. */
export interface ArchiveConfig {
  /** The archive bucket; undefined: nothing is archived (the functions that need it say so). */
  bucketName: string | undefined;
  /** The bucket's URL `/files` signs download URLs for; undefined where nothing reads the archive. */
  bucketUrl: string | undefined;
  /** How long a `/files` download URL works. */
  urlExpirySeconds: number;
  /** Bound of one link's download. */
  downloadTimeoutSeconds: number;
  /** The catalog database of the query tables, where the archive registers each partition it writes. */
  lakeDatabaseName: string;
  /** Whether the archive also writes each CSV as a Parquet file of the `comment_rows` table. */
  writeTable: boolean;
  /** Days after which the bucket's lifecycle rule deletes archived files; undefined: kept. */
  expireAfterDays: number | undefined;
}

export interface Config {
  openWeb: OpenWebConfig;
  archive: ArchiveConfig;
  credentials: CredentialsConfig;
  resources: AwsResourcesConfig;
  exports: ExportSettings;
  authorization: AuthorizationConfig;
}

/** Names every variable that is wrong, so a misconfigured deploy fails once with the whole list. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Environment → typed config, each variable checked against the settings table
 * (lib/settings/settingsTable.ts). Empty strings count as unset. Throws ConfigError.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { values: e, problems } = readFunctionSettings(env);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    openWeb: {
      authBaseUrl: e.OPENWEB_AUTH_BASE_URL,
      exportBaseUrl: e.OPENWEB_EXPORT_BASE_URL,
      requestTimeoutMs: e.UPSTREAM_REQUEST_TIMEOUT_MS,
      maxAttempts: e.UPSTREAM_MAX_ATTEMPTS,
      retryBudgetMs: e.UPSTREAM_RETRY_BUDGET_MS,
      maxConcurrentRequests: e.UPSTREAM_MAX_CONCURRENCY,
      maxRequestsPerSecond: e.UPSTREAM_MAX_REQUESTS_PER_SECOND,
      authRequestsPerSecond: e.UPSTREAM_AUTH_REQUESTS_PER_SECOND,
      downloadHosts: e.OPENWEB_DOWNLOAD_HOSTS,
    },
    archive: {
      bucketName: e.ARCHIVE_BUCKET_NAME,
      bucketUrl: e.ARCHIVE_BUCKET_URL,
      urlExpirySeconds: e.ARCHIVE_URL_EXPIRY_SECONDS,
      downloadTimeoutSeconds: e.ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS,
      lakeDatabaseName: e.LAKE_DATABASE_NAME,
      writeTable: e.ARCHIVE_WRITE_TABLE,
      expireAfterDays: e.ARCHIVE_EXPIRE_AFTER_DAYS,
    },
    credentials:
      e.LOCAL_SECRETS_FILE !== undefined
        ? { source: 'file', path: e.LOCAL_SECRETS_FILE }
        : {
            source: 'secretsManager',
            secretNamePrefix: e.SECRET_NAME_PREFIX,
            cacheMaxAgeSeconds: e.SECRETS_CACHE_MAX_AGE_SECONDS,
          },
    resources: {
      tableName: e.TABLE_NAME,
      stateMachineArn: e.STATE_MACHINE_ARN,
      eventBusName: e.EVENT_BUS_NAME,
    },
    exports: {
      ...DEFAULT_EXPORT_SETTINGS,
      exportDeadlineSeconds: e.EXPORT_DEADLINE_SECONDS,
      defaultFirstPollDelaySeconds: e.DEFAULT_FIRST_POLL_DELAY_SECONDS,
      statusFreshnessSeconds: e.STATUS_FRESHNESS_SECONDS,
      reconcileStaleAfterSeconds: e.RECONCILE_STALE_AFTER_SECONDS,
      idempotencyTtlSeconds: e.IDEMPOTENCY_TTL_SECONDS,
      windowRetryAttempts: e.WINDOW_RETRY_ATTEMPTS,
      windowRetryCooldownSeconds: e.WINDOW_RETRY_COOLDOWN_SECONDS,
    },
    authorization: { spotClaim: e.AUTH_SPOT_CLAIM, spotsByPrincipal: e.AUTH_SPOTS_BY_PRINCIPAL },
  };
}

/** The archive's resources. Throws ConfigError naming each missing variable. */
export function requireArchiveResources(config: Config): {
  tableName: string;
  bucketName: string;
  eventBusName: string;
} {
  const { tableName, eventBusName } = config.resources;
  const { bucketName } = config.archive;
  if (tableName === undefined || bucketName === undefined) {
    throw new ConfigError([
      ...(tableName === undefined ? ['TABLE_NAME is required'] : []),
      ...(bucketName === undefined ? ['ARCHIVE_BUCKET_NAME is required'] : []),
    ]);
  }
  return { tableName, bucketName, eventBusName };
}
