import * as z from 'zod/mini';
import { DEFAULT_EXPORT_SETTINGS, type ExportSettings } from './exports/ExportSettings';
import { SPOT_ID_PATTERN } from './exports/spotId';
import { isIamPrincipalArn } from './http/iamPrincipal';
import { JWT_CLAIM_NAME_PATTERN } from './http/jwtClaimValues';
import type { SpotsByPrincipal } from './http/spotAuthorization';
import { DEFAULT_DOWNLOAD_HOSTS, isDownloadHostEntry } from './openweb/downloadLinkPolicy';
import { DEFAULT_MAX_CONCURRENT_REQUESTS } from './openweb/UpstreamGovernor';

/** Upstream hosts from OpenWeb's documentation; local mode points both at the simulator. */
export const DEFAULT_OPENWEB_AUTH_BASE_URL = 'https://api.openweb.com';
export const DEFAULT_OPENWEB_EXPORT_BASE_URL = 'https://api-exporter.openweb.com';
export const DEFAULT_SECRET_NAME_PREFIX = 'openweb-exports/spots/';
export const DEFAULT_EVENT_BUS_NAME = 'default';
/** A `/files` URL works this long: long enough to start a download, short enough to be harmless when leaked. */
export const DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS = 15 * 60;
/** One link's download: an export file is at most a few hundred MB. */
export const DEFAULT_ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS = 10 * 60;

/**
 * API-fronted functions must answer within API Gateway's 29 s. One upstream call
 * lasts at most the retry budget plus one request timeout (the last attempt may
 * start at the end of the budget), and a call that must authenticate first spends
 * that twice: 2 × (2 s + 8 s) = 20 s, leaving headroom for DynamoDB and Lambda.
 */
export const DEFAULT_UPSTREAM_REQUEST_TIMEOUT_MS = 8_000;
export const DEFAULT_UPSTREAM_RETRY_BUDGET_MS = 2_000;
export const DEFAULT_UPSTREAM_MAX_ATTEMPTS = 4;
/** OpenWeb documents one auth request per second per address. */
export const DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND = 1;
export const DEFAULT_UPSTREAM_MAX_CONCURRENCY = DEFAULT_MAX_CONCURRENT_REQUESTS;
const MAX_UPSTREAM_CONCURRENCY = 1_000;
const MAX_UPSTREAM_REQUESTS_PER_SECOND = 10_000;

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;

const STATE_MACHINE_ARN = /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}$/;

const baseUrl = z.pipe(
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  z.transform((url: string) => url.replace(/\/+$/, '')),
);

/** `a.example.com, *.cdn.example.com` → entries in lower case; empty entries are ignored. */
const DOWNLOAD_HOSTS_MESSAGE = 'must be a comma-separated list of host, host:port or *.domain.tld entries';
const downloadHostList = z.pipe(
  z.string({ error: DOWNLOAD_HOSTS_MESSAGE }),
  z
    .transform((text: string) =>
      text
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== ''),
    )
    .check(
      z.refine(
        (entries: string[]) => entries.length > 0 && entries.every(isDownloadHostEntry),
        DOWNLOAD_HOSTS_MESSAGE,
      ),
    ),
);

const SPOTS_BY_PRINCIPAL_MESSAGE =
  'must be a JSON object of IAM role or user ARNs, each to a list of spot ids (sp_…)';

/** `{"arn:aws:iam::…:role/name": ["sp_a"]}` → the map; undefined when malformed. */
function spotsByPrincipalOf(text: string): SpotsByPrincipal | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed);
  const valid = entries.every(
    ([arn, spots]) =>
      isIamPrincipalArn(arn) &&
      Array.isArray(spots) &&
      spots.every((spot) => typeof spot === 'string' && SPOT_ID_PATTERN.test(spot)),
  );
  return valid ? (parsed as SpotsByPrincipal) : undefined;
}

const spotsByPrincipalSchema = z.pipe(
  z.string({ error: SPOTS_BY_PRINCIPAL_MESSAGE }),
  z
    .transform((text: string) => spotsByPrincipalOf(text))
    .check(z.refine((map) => map !== undefined, SPOTS_BY_PRINCIPAL_MESSAGE)),
);

function integerInRange(defaultValue: number, min: number, max: number) {
  return z._default(
    z.coerce
      .number({ error: 'must be a number' })
      .check(
        z.int('must be an integer'),
        z.gte(min, `must be at least ${min}`),
        z.lte(max, `must be at most ${max}`),
      ),
    defaultValue,
  );
}

/** A positive rate, at most `MAX_UPSTREAM_REQUESTS_PER_SECOND`. */
function requestsPerSecond() {
  return z.coerce
    .number({ error: 'must be a number' })
    .check(
      z.positive('must be greater than 0'),
      z.lte(MAX_UPSTREAM_REQUESTS_PER_SECOND, `must be at most ${MAX_UPSTREAM_REQUESTS_PER_SECOND}`),
    );
}

/** A string matching `pattern`; `message` says what it must be. */
function matching(pattern: RegExp, message: string) {
  return z.string({ error: message }).check(z.regex(pattern, message));
}

const environmentSchema = z.object({
  OPENWEB_AUTH_BASE_URL: z._default(baseUrl, DEFAULT_OPENWEB_AUTH_BASE_URL),
  OPENWEB_EXPORT_BASE_URL: z._default(baseUrl, DEFAULT_OPENWEB_EXPORT_BASE_URL),
  OPENWEB_DOWNLOAD_HOSTS: z.optional(downloadHostList),
  AUTH_SPOT_CLAIM: z.optional(
    matching(JWT_CLAIM_NAME_PATTERN, 'must be a JWT claim name (printable ASCII, no spaces)'),
  ),
  AUTH_SPOTS_BY_PRINCIPAL: z.optional(spotsByPrincipalSchema),
  SECRET_NAME_PREFIX: z._default(
    matching(/^[A-Za-z0-9/_+=.@-]{1,256}$/, 'may hold only letters, digits and /_+=.@-'),
    DEFAULT_SECRET_NAME_PREFIX,
  ),
  SECRETS_CACHE_MAX_AGE_SECONDS: integerInRange(300, 0, SECONDS_PER_DAY),
  // Empty values are dropped before parsing: any string names a file.
  LOCAL_SECRETS_FILE: z.optional(z.string({ error: 'must be a path' })),
  UPSTREAM_REQUEST_TIMEOUT_MS: integerInRange(DEFAULT_UPSTREAM_REQUEST_TIMEOUT_MS, 100, 120_000),
  UPSTREAM_MAX_ATTEMPTS: integerInRange(DEFAULT_UPSTREAM_MAX_ATTEMPTS, 1, 10),
  UPSTREAM_RETRY_BUDGET_MS: integerInRange(DEFAULT_UPSTREAM_RETRY_BUDGET_MS, 0, 600_000),
  UPSTREAM_MAX_CONCURRENCY: integerInRange(DEFAULT_UPSTREAM_MAX_CONCURRENCY, 1, MAX_UPSTREAM_CONCURRENCY),
  UPSTREAM_MAX_REQUESTS_PER_SECOND: z.optional(requestsPerSecond()),
  UPSTREAM_AUTH_REQUESTS_PER_SECOND: z._default(
    requestsPerSecond(),
    DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND,
  ),
  TABLE_NAME: z.optional(
    matching(/^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name (3-255 of letters, digits, _ . -)'),
  ),
  STATE_MACHINE_ARN: z.optional(matching(STATE_MACHINE_ARN, 'must be a Step Functions state machine ARN')),
  EVENT_BUS_NAME: z._default(
    matching(/^[A-Za-z0-9/_.:-]{1,1600}$/, 'must be an EventBridge event bus name or ARN'),
    DEFAULT_EVENT_BUS_NAME,
  ),
  EXPORT_DEADLINE_SECONDS: integerInRange(
    DEFAULT_EXPORT_SETTINGS.exportDeadlineSeconds,
    300,
    7 * SECONDS_PER_DAY,
  ),
  DEFAULT_FIRST_POLL_DELAY_SECONDS: integerInRange(
    DEFAULT_EXPORT_SETTINGS.defaultFirstPollDelaySeconds,
    0,
    SECONDS_PER_HOUR,
  ),
  STATUS_FRESHNESS_SECONDS: integerInRange(
    DEFAULT_EXPORT_SETTINGS.statusFreshnessSeconds,
    0,
    SECONDS_PER_HOUR,
  ),
  RECONCILE_STALE_AFTER_SECONDS: integerInRange(
    DEFAULT_EXPORT_SETTINGS.reconcileStaleAfterSeconds,
    60,
    SECONDS_PER_DAY,
  ),
  ARCHIVE_BUCKET_NAME: z.optional(
    matching(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z, 0-9, . and -)'),
  ),
  ARCHIVE_URL_EXPIRY_SECONDS: integerInRange(DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS, 60, 12 * SECONDS_PER_HOUR),
  ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS: integerInRange(DEFAULT_ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS, 10, 15 * 60),
  // Days after which the bucket's lifecycle rule deletes archived files; unset: kept.
  ARCHIVE_EXPIRE_AFTER_DAYS: z.optional(
    z.coerce
      .number({ error: 'must be a number' })
      .check(
        z.int('must be an integer'),
        z.gte(1, 'must be at least 1'),
        z.lte(36_500, 'must be at most 36500'),
      ),
  ),
  IDEMPOTENCY_TTL_SECONDS: integerInRange(
    DEFAULT_EXPORT_SETTINGS.idempotencyTtlSeconds,
    60,
    7 * SECONDS_PER_DAY,
  ),
});

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
  /** How long a `/files` download URL works. */
  urlExpirySeconds: number;
  /** Bound of one link's download. */
  downloadTimeoutSeconds: number;
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

/** Environment → typed config. Empty strings count as unset. Throws ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const e = parsed.data;
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
      downloadHosts: e.OPENWEB_DOWNLOAD_HOSTS ?? DEFAULT_DOWNLOAD_HOSTS,
    },
    archive: {
      bucketName: e.ARCHIVE_BUCKET_NAME,
      urlExpirySeconds: e.ARCHIVE_URL_EXPIRY_SECONDS,
      downloadTimeoutSeconds: e.ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS,
      expireAfterDays: e.ARCHIVE_EXPIRE_AFTER_DAYS,
    },
    credentials: e.LOCAL_SECRETS_FILE
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
