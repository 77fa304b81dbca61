import type { Setting } from './Setting';

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 60 * SECONDS_PER_MINUTE;
const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;
const MAX_PORT = 65_535;
const MAX_UPSTREAM_REQUESTS_PER_SECOND = 10_000;
/** Bounds the simulator's own bookkeeping; far above any real limit worth simulating. */
const MAX_SIMULATOR_REQUESTS_PER_SECOND = 100_000;
const MAX_LIFECYCLE_DAYS = 36_500;
/**
 * A customer-managed KMS key's ARN: its key id is a UUID, or `mrk-` and 32 hex digits for a
 * multi-Region key (an alias or a key of any other shape is refused).
 */
const KMS_KEY_ARN =
  /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})$/;
const KMS_KEY_ARN_MESSAGE =
  'must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>, the id a UUID or mrk-<32 hex digits>)';
const DYNAMODB_TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
const DYNAMODB_TABLE_NAME_MESSAGE = 'must be a DynamoDB table name (3-255 of letters, digits, _ . -)';
/**
 * Lambda allows 4 KB of environment per function, all variables together: the role-to-spots map
 * travels in one (`AUTH_SPOTS_BY_PRINCIPAL`) beside a dozen others.
 */
export const MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS = 2048;

/** `npm start` with the simulator: a simulated one-day export (30 s + 24 min) takes about 15 s. */
export const SIMULATED_TIME_SCALE = 0.01;
/** `npm start` with a real upstream: it runs in real time, so polling must too. */
export const REAL_TIME_SCALE = 1;

/**
 * The AWS list prices each export's estimated cost is computed from (lib/exports/cost): US East
 * (N. Virginia), before free tiers, as published on the AWS pricing pages in November 2026; other
 * regions differ by up to about 50 %. The sizes are what an invocation is billed as where nothing
 * is measured: the functions' memory (arm64) and a generous duration (most polls take a few
 * hundred ms). docs/deploying.md's cost table is computed from these by `npm run bench:polling`.
 * A `PriceTable` (lib/exports/cost/PriceTable.ts), checked where the domain is given it: the
 * settings import nothing of the domain, which reads its settings from them.
 */
export const AWS_PRICE_TABLE = {
  region: 'us-east-1',
  asOf: '2026-11',
  // $0.025 per 1,000 state transitions (Standard).
  stepFunctionsPerTransitionUsd: 0.025 / 1_000,
  // $0.20 per million requests, $0.0000133334 per GB-second (arm64).
  lambdaPerRequestUsd: 0.2 / 1_000_000,
  lambdaPerGbSecondUsd: 0.0000133334,
  // On-demand: $0.625 per million write request units, $0.125 per million read request units.
  dynamoDbPerWriteUnitUsd: 0.625 / 1_000_000,
  dynamoDbPerReadUnitUsd: 0.125 / 1_000_000,
  // HTTP API: $1.00 per million requests; EventBridge: $1.00 per million custom events.
  apiGatewayPerRequestUsd: 1 / 1_000_000,
  eventBridgePerEventUsd: 1 / 1_000_000,
  // Secrets Manager: $0.05 per 10,000 API calls.
  secretsManagerPerCallUsd: 0.05 / 10_000,
  // S3 Standard: $0.005 per 1,000 PUT requests, $0.023 per GB-month.
  s3PerPutUsd: 0.005 / 1_000,
  s3PerGbMonthUsd: 0.023,
  workflowTaskGb: 0.5,
  workflowTaskBilledSeconds: 1,
  startGb: 0.25,
  startBilledSeconds: 0.5,
  archiveGb: 1,
  // About a second per 10 MB of CSV.
  archiveBilledSecondsPerMb: 0.1,
};

/**
 * Every setting of openweb-exports, once: where it is written (stack configuration key,
 * environment variable), its default, its values and unit, who reads it. The functions'
 * configuration (lib/config.ts), the stack configuration (infra/stackConfig.ts), the function
 * environment (infra/functionEnvironment.ts), the construct's props, `npm start`'s settings
 * (local/localRuntimeSettings.ts) and docs/configuration.md are derived from it.
 */
export const SETTINGS = {
  // The upstream.
  openWebAuthBaseUrl: {
    path: 'openWebAuthBaseUrl',
    env: 'OPENWEB_AUTH_BASE_URL',
    config: 'openWeb.authBaseUrl',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'url' },
    default: 'https://api.openweb.com',
  },
  openWebExportBaseUrl: {
    path: 'openWebExportBaseUrl',
    env: 'OPENWEB_EXPORT_BASE_URL',
    config: 'openWeb.exportBaseUrl',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'url' },
    default: 'https://api-exporter.openweb.com',
  },
  openWebDownloadHosts: {
    path: 'openWebDownloadHosts',
    env: 'OPENWEB_DOWNLOAD_HOSTS',
    config: 'openWeb.downloadHosts',
    scope: 'deployment',
    readBy: 'all',
    optionalInStack: true,
    kind: { type: 'hostList' },
    default: ['*.openweb.com'],
  },
  secretNamePrefix: {
    path: 'secretNamePrefix',
    env: 'SECRET_NAME_PREFIX',
    config: 'credentials.secretNamePrefix',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: {
      type: 'text',
      pattern: /^[A-Za-z0-9/_+=.@-]{1,256}$/,
      message: 'may hold only letters, digits and /_+=.@-',
    },
    default: 'openweb-exports/spots/',
  },
  secretsKmsKeyArn: {
    path: 'secretsKmsKeyArn',
    scope: 'deployment',
    kind: { type: 'text', pattern: KMS_KEY_ARN, message: KMS_KEY_ARN_MESSAGE },
  },
  secretsCacheMaxAgeSeconds: {
    env: 'SECRETS_CACHE_MAX_AGE_SECONDS',
    config: 'credentials.cacheMaxAgeSeconds',
    scope: 'deployment',
    readBy: 'lifecycle',
    writtenAsDefault: true,
    kind: { type: 'integer', min: 0, max: SECONDS_PER_DAY },
    default: 5 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },
  upstreamRequestTimeoutMs: {
    env: 'UPSTREAM_REQUEST_TIMEOUT_MS',
    config: 'openWeb.requestTimeoutMs',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 100, max: 120_000 },
    // A call that must authenticate first spends 2 × (retry budget + request timeout) = 20 s, within API Gateway's 29 s.
    default: 8_000,
    unit: 'milliseconds',
  },
  upstreamMaxAttempts: {
    env: 'UPSTREAM_MAX_ATTEMPTS',
    config: 'openWeb.maxAttempts',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 1, max: 10 },
    default: 4,
    unit: 'attempts',
  },
  upstreamRetryBudgetMs: {
    env: 'UPSTREAM_RETRY_BUDGET_MS',
    config: 'openWeb.retryBudgetMs',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: 600_000 },
    default: 2_000,
    unit: 'milliseconds',
  },
  upstreamMaxConcurrency: {
    env: 'UPSTREAM_MAX_CONCURRENCY',
    config: 'openWeb.maxConcurrentRequests',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 1, max: 1_000 },
    // Enough for a local runtime with hundreds of spots; a Lambda container sends one call at a time anyway.
    default: 16,
    unit: 'requests',
  },
  upstreamMaxRequestsPerSecond: {
    env: 'UPSTREAM_MAX_REQUESTS_PER_SECOND',
    config: 'openWeb.maxRequestsPerSecond',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'number', min: 0, minExclusive: true, max: MAX_UPSTREAM_REQUESTS_PER_SECOND },
    unit: 'requests/s',
  },
  upstreamAuthRequestsPerSecond: {
    path: 'upstreamAuthRequestsPerSecond',
    env: 'UPSTREAM_AUTH_REQUESTS_PER_SECOND',
    config: 'openWeb.authRequestsPerSecond',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'number', min: 0, minExclusive: true, max: MAX_UPSTREAM_REQUESTS_PER_SECOND },
    // OpenWeb documents one auth request per second per address.
    default: 1,
    unit: 'requests/s',
  },

  // The export lifecycle.
  exportDeadlineSeconds: {
    path: 'polling.exportDeadlineSeconds',
    env: 'EXPORT_DEADLINE_SECONDS',
    config: 'exports.exportDeadlineSeconds',
    timeScaled: true,
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 5 * SECONDS_PER_MINUTE, max: 7 * SECONDS_PER_DAY },
    default: 6 * SECONDS_PER_HOUR,
    unit: 'seconds',
  },
  defaultFirstPollDelaySeconds: {
    path: 'polling.defaultFirstPollDelaySeconds',
    env: 'DEFAULT_FIRST_POLL_DELAY_SECONDS',
    config: 'exports.defaultFirstPollDelaySeconds',
    timeScaled: true,
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: SECONDS_PER_HOUR },
    default: 30,
    unit: 'seconds',
  },
  statusPollIntervalSeconds: {
    path: 'polling.statusPollIntervalSeconds',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: SECONDS_PER_HOUR },
    default: 10,
    unit: 'seconds',
  },
  statusPollMaxDelaySeconds: {
    path: 'polling.statusPollMaxDelaySeconds',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: SECONDS_PER_HOUR },
    default: 5 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },
  statusFreshnessSeconds: {
    path: 'polling.statusFreshnessSeconds',
    env: 'STATUS_FRESHNESS_SECONDS',
    config: 'exports.statusFreshnessSeconds',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: SECONDS_PER_HOUR },
    default: 10,
    unit: 'seconds',
  },
  reconcileStaleAfterSeconds: {
    path: 'polling.reconcileStaleAfterSeconds',
    env: 'RECONCILE_STALE_AFTER_SECONDS',
    config: 'exports.reconcileStaleAfterSeconds',
    // Compared with the workflow's poll spacing, which the local time scale shortens.
    timeScaled: true,
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: SECONDS_PER_DAY },
    default: 15 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },
  reconcileRate: {
    path: 'polling.reconcileRate',
    scope: 'deployment',
    kind: { type: 'schedule', forms: ['rate'] },
    default: 'rate(5 minutes)',
  },
  // The coverage ledger.
  windowRetryAttempts: {
    path: 'coverage.windowRetryAttempts',
    env: 'WINDOW_RETRY_ATTEMPTS',
    config: 'exports.windowRetryAttempts',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'integer', min: 0, max: 10 },
    default: 3,
    unit: 'attempts',
  },
  windowRetryCooldownSeconds: {
    path: 'coverage.windowRetryCooldownSeconds',
    env: 'WINDOW_RETRY_COOLDOWN_SECONDS',
    config: 'exports.windowRetryCooldownSeconds',
    timeScaled: true,
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: SECONDS_PER_DAY },
    default: 10 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },
  restatementsPerSpotPerDay: {
    path: 'coverage.restatementsPerSpotPerDay',
    env: 'RESTATEMENTS_PER_SPOT_PER_DAY',
    config: 'exports.restatementsPerSpotPerDay',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: 1_000 },
    default: 48,
    unit: 'exports',
  },
  freshnessTargetSeconds: {
    path: 'coverage.freshnessTargetSeconds',
    scope: 'deployment',
    kind: { type: 'integer', min: 5 * SECONDS_PER_MINUTE, max: 90 * SECONDS_PER_DAY },
    unit: 'seconds',
  },
  freshnessAlarmStaleSpots: {
    path: 'coverage.freshnessAlarmStaleSpots',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 10_000 },
    default: 1,
    unit: 'spots',
  },
  // The JSON text; lib/config.ts checks it (spot ids to seconds or null) into the export settings.
  fleetFreshnessTargets: {
    env: 'FLEET_FRESHNESS_TARGETS',
    config: 'resources.fleetFreshnessTargets',
    scope: 'resource',
    readBy: 'lifecycle',
    kind: { type: 'json' },
  },
  idempotencyTtlSeconds: {
    env: 'IDEMPOTENCY_TTL_SECONDS',
    config: 'exports.idempotencyTtlSeconds',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: 7 * SECONDS_PER_DAY },
    default: SECONDS_PER_DAY,
    unit: 'seconds',
  },

  // The HTTP API.
  apiThrottlingRateLimit: {
    path: 'api.throttlingRateLimit',
    scope: 'deployment',
    kind: { type: 'number', min: 0, minExclusive: true, max: 10_000 },
    default: 25,
    unit: 'requests/s',
  },
  apiThrottlingBurstLimit: {
    path: 'api.throttlingBurstLimit',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 5_000 },
    default: 50,
    unit: 'requests',
  },
  authSpotClaim: {
    path: 'auth.spotClaim',
    env: 'AUTH_SPOT_CLAIM',
    config: 'authorization.spotClaim',
    scope: 'deployment',
    readBy: 'all',
    // `spots`, `custom:spots` (Cognito), `https://example.com/spots` (namespaced, as Auth0 requires).
    kind: {
      type: 'text',
      pattern: /^[\x21-\x7e]{1,256}$/,
      message: 'must be a JWT claim name (printable ASCII, no spaces)',
    },
  },
  authSpotsByPrincipal: {
    path: 'auth.spotsByPrincipal',
    env: 'AUTH_SPOTS_BY_PRINCIPAL',
    config: 'authorization.spotsByPrincipal',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'spotsByPrincipal', maxJsonChars: MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS },
  },

  // The archive.
  archiveInfrequentAccessAfterDays: {
    path: 'archive.infrequentAccessAfterDays',
    scope: 'deployment',
    // S3 moves objects to Standard-IA no sooner than 30 days after creation.
    kind: { type: 'integer', min: 30, max: MAX_LIFECYCLE_DAYS },
    nullable: true,
    default: 90,
    unit: 'days',
  },
  archiveExpireAfterDays: {
    path: 'archive.expireAfterDays',
    env: 'ARCHIVE_EXPIRE_AFTER_DAYS',
    config: 'archive.expireAfterDays',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'integer', min: 1, max: MAX_LIFECYCLE_DAYS },
    unit: 'days',
  },
  archiveNoncurrentVersionExpireAfterDays: {
    path: 'archive.noncurrentVersionExpireAfterDays',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: MAX_LIFECYCLE_DAYS },
    default: 30,
    unit: 'days',
  },
  archiveKmsKeyArn: {
    path: 'archive.kmsKeyArn',
    scope: 'deployment',
    kind: { type: 'text', pattern: KMS_KEY_ARN, message: KMS_KEY_ARN_MESSAGE },
  },
  archiveDownloadUrlExpirySeconds: {
    path: 'archive.downloadUrlExpirySeconds',
    env: 'ARCHIVE_URL_EXPIRY_SECONDS',
    config: 'archive.urlExpirySeconds',
    scope: 'deployment',
    readBy: 'archive',
    // A presigned URL stops working when the credentials that signed it expire, whatever its own
    // expiry: the files function signs with its role's temporary credentials, whose lifetime Lambda
    // neither documents nor lets anyone set. An hour is what AWS gives a role session by default.
    kind: {
      type: 'integer',
      min: SECONDS_PER_MINUTE,
      max: SECONDS_PER_HOUR,
      maxReason:
        "a URL never outlives the session of the role that signed it, and Lambda does not say how long the functions' sessions last",
    },
    // Long enough to start a download, short enough to be harmless when leaked.
    default: 15 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },
  archiveCatalogDatabaseName: {
    path: 'archive.catalogDatabaseName',
    env: 'LAKE_DATABASE_NAME',
    config: 'archive.lakeDatabaseName',
    scope: 'deployment',
    readBy: 'archive',
    // Unset in the stack: derived from the deployment's name (lib/lake/lakeDatabaseName.ts), which
    // the stack writes into the functions' environment; the default is the local runtime's.
    optionalInStack: true,
    kind: {
      type: 'text',
      pattern: /^[a-z0-9_]{1,255}$/,
      message: 'must be 1-255 of a-z, 0-9 and _ (the names Athena reads)',
    },
    default: 'openweb_exports',
  },
  archiveWriteTable: {
    path: 'archive.writeTable',
    env: 'ARCHIVE_WRITE_TABLE',
    config: 'archive.writeTable',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'boolean' },
    default: true,
  },
  archiveMaxScannedGigabytesPerQuery: {
    path: 'archive.maxScannedGigabytesPerQuery',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 1_000_000 },
    default: 10,
    unit: 'gigabytes',
  },
  archiveQueryResultsExpireAfterDays: {
    path: 'archive.queryResultsExpireAfterDays',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 30 },
    default: 7,
    unit: 'days',
  },
  archiveDownloadTimeoutSeconds: {
    env: 'ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS',
    config: 'archive.downloadTimeoutSeconds',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'integer', min: 10, max: 15 * SECONDS_PER_MINUTE },
    // An export file is at most a few hundred MB.
    default: 10 * SECONDS_PER_MINUTE,
    unit: 'seconds',
  },

  // Logs and traces.
  logRetentionDays: {
    path: 'logRetentionDays',
    scope: 'deployment',
    // The retention periods CloudWatch Logs accepts.
    kind: {
      type: 'oneOf',
      values: [
        1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
        3653,
      ],
    },
    default: 90,
    unit: 'days',
  },
  logLevel: {
    path: 'logLevel',
    env: 'POWERTOOLS_LOG_LEVEL',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    kind: { type: 'enum', values: ['DEBUG', 'INFO', 'WARN', 'ERROR'] },
    default: 'INFO',
  },
  workflowLogLevel: {
    path: 'workflowLogLevel',
    scope: 'deployment',
    kind: { type: 'enum', values: ['ERROR', 'ALL'] },
    // Every event is about three per poll, billed as vended logs; the alarms need only the errors.
    default: 'ERROR',
  },
  powertoolsServiceName: {
    env: 'POWERTOOLS_SERVICE_NAME',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    writtenAsDefault: true,
    kind: { type: 'text', pattern: /^\S{1,256}$/, message: 'must be a name without spaces' },
    default: 'openweb-exports',
  },
  powertoolsMetricsNamespace: {
    env: 'POWERTOOLS_METRICS_NAMESPACE',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    writtenAsDefault: true,
    kind: { type: 'text', pattern: /^\S{1,256}$/, message: 'must be a name without spaces' },
    default: 'OpenWebExports',
  },
  sourceMapStackTraces: {
    path: 'sourceMapStackTraces',
    scope: 'deployment',
    kind: { type: 'boolean' },
    // Node would parse each bundle's source map at every cold start.
    default: false,
  },

  // A deployment after a deleted one.
  existingTableName: {
    path: 'existingTableName',
    scope: 'deployment',
    kind: { type: 'text', pattern: DYNAMODB_TABLE_NAME, message: DYNAMODB_TABLE_NAME_MESSAGE },
  },

  // The resources the stack creates.
  tableName: {
    env: 'TABLE_NAME',
    config: 'resources.tableName',
    scope: 'resource',
    readBy: 'all',
    kind: { type: 'text', pattern: DYNAMODB_TABLE_NAME, message: DYNAMODB_TABLE_NAME_MESSAGE },
  },
  stateMachineArn: {
    env: 'STATE_MACHINE_ARN',
    config: 'resources.stateMachineArn',
    scope: 'resource',
    readBy: 'lifecycle',
    kind: {
      type: 'text',
      pattern: /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}$/,
      message: 'must be a Step Functions state machine ARN',
    },
  },
  erasureStateMachineArn: {
    env: 'ERASURE_STATE_MACHINE_ARN',
    config: 'resources.erasureStateMachineArn',
    scope: 'resource',
    readBy: 'lifecycle',
    kind: {
      type: 'text',
      pattern: /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}$/,
      message: 'must be a Step Functions state machine ARN',
    },
  },
  eventBusName: {
    env: 'EVENT_BUS_NAME',
    config: 'resources.eventBusName',
    scope: 'resource',
    readBy: 'all',
    kind: {
      type: 'text',
      pattern: /^[A-Za-z0-9/_.:-]{1,1600}$/,
      message: 'must be an EventBridge event bus name or ARN',
    },
    default: 'default',
  },
  archiveBucketName: {
    env: 'ARCHIVE_BUCKET_NAME',
    config: 'archive.bucketName',
    scope: 'resource',
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      message: 'must be an S3 bucket name (3-63 of a-z, 0-9, . and -)',
    },
  },
  archiveBucketUrl: {
    env: 'ARCHIVE_BUCKET_URL',
    config: 'archive.bucketUrl',
    scope: 'resource',
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^https?:\/\/[^\s/?#]+(\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9])?\/?$/,
      message:
        "must be the archive bucket's URL: https://<bucket>.s3.<region>.amazonaws.com, or path-style http(s)://<host>/<bucket>",
    },
  },
  lakeWorkGroupName: {
    env: 'LAKE_WORK_GROUP_NAME',
    config: 'archive.lakeWorkGroupName',
    scope: 'resource',
    // Written by the stack for the erasure task only (the function that asks Athena).
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^[A-Za-z0-9._-]{1,128}$/,
      message: 'must be an Athena workgroup name (1-128 of A-Z, a-z, 0-9, ., _ and -)',
    },
  },

  // npm start.
  localSecretsFile: {
    env: 'LOCAL_SECRETS_FILE',
    config: 'credentials.file',
    scope: 'local',
    readBy: 'lifecycle',
    kind: { type: 'path' },
    // Simulator keys only, never real credentials.
    default: 'local/demo-spots.json',
  },
  localApiPort: {
    env: 'PORT',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_PORT },
    default: 3000,
  },
  simulatorPort: {
    env: 'SIMULATOR_PORT',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_PORT },
    default: 4010,
  },
  localTimeScale: {
    env: 'LOCAL_TIME_SCALE',
    scope: 'local',
    kind: { type: 'number', min: 0, minExclusive: true, max: REAL_TIME_SCALE },
  },
  localDataDir: {
    env: 'LOCAL_DATA_DIR',
    scope: 'local',
    kind: { type: 'path' },
    default: '.local-data',
  },
  localStackConfig: {
    env: 'LOCAL_STACK_CONFIG',
    scope: 'local',
    kind: { type: 'json' },
  },
  localLogLevel: {
    env: 'LOG_LEVEL',
    overridingEnv: 'POWERTOOLS_LOG_LEVEL',
    scope: 'local',
    kind: {
      type: 'enum',
      values: ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'],
      ignoreCase: true,
    },
    // Quiet enough that the runtime's own lines stay readable.
    default: 'WARN',
  },
  simulatorAuthRequestsPerSecond: {
    env: 'SIMULATOR_AUTH_REQUESTS_PER_SECOND',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_SIMULATOR_REQUESTS_PER_SECOND },
    // The upstream's documented auth limit, per client address.
    default: 1,
    unit: 'requests/s',
  },
  simulatorAuthRetryAfter: {
    env: 'SIMULATOR_AUTH_RETRY_AFTER',
    scope: 'local',
    kind: { type: 'boolean' },
    default: true,
  },
  simulatorExportRequestsPerSecond: {
    env: 'SIMULATOR_EXPORT_REQUESTS_PER_SECOND',
    scope: 'local',
    kind: { type: 'integer', min: 1, max: MAX_SIMULATOR_REQUESTS_PER_SECOND },
    unit: 'requests/s',
  },
  simulatorExportRateLimitScope: {
    env: 'SIMULATOR_EXPORT_RATE_LIMIT_SCOPE',
    scope: 'local',
    kind: { type: 'enum', values: ['clientAddress', 'spot'] },
    default: 'clientAddress',
  },
  simulatorCommentsPerHour: {
    env: 'SIMULATOR_COMMENTS_PER_HOUR',
    scope: 'local',
    // An export is counted when it completes, every comment of its window drawn once: a month's
    // window at this rate is 73 million draws, a minute of work.
    kind: { type: 'integer', min: 0, max: 100_000 },
    default: 250,
    unit: 'records/hour',
  },
  simulatorStatusChangeShare: {
    env: 'SIMULATOR_STATUS_CHANGE_SHARE',
    scope: 'local',
    kind: { type: 'number', min: 0, max: 1 },
    default: 0.2,
  },
  simulatorEditShare: {
    env: 'SIMULATOR_EDIT_SHARE',
    scope: 'local',
    kind: { type: 'number', min: 0, max: 1 },
    default: 0.05,
  },
  simulatorDeleteShare: {
    env: 'SIMULATOR_DELETE_SHARE',
    scope: 'local',
    kind: { type: 'number', min: 0, max: 1 },
    default: 0.05,
  },
  simulatorMaxChangeDelaySeconds: {
    env: 'SIMULATOR_MAX_CHANGE_DELAY_SECONDS',
    scope: 'local',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: 30 * SECONDS_PER_DAY },
    // Most changes within the first day (a restatement at one day sees them), a few later.
    default: 2 * SECONDS_PER_DAY,
    unit: 'seconds',
  },
  localArchive: {
    env: 'LOCAL_ARCHIVE',
    scope: 'local',
    kind: { type: 'boolean', words: ['on', 'off'] },
    default: true,
  },
} as const satisfies Record<string, Setting>;

export type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
