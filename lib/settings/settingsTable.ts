import type { PriceTable } from '../exports/cost/PriceTable';
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
 */
export const AWS_PRICE_TABLE: PriceTable = {
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
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'url' },
    default: 'https://api.openweb.com',
    description:
      "Base URL of OpenWeb's auth API (`POST /v1/publisher/auth`); set for `npm start`, it replaces the simulator by the real upstream.",
  },
  openWebExportBaseUrl: {
    path: 'openWebExportBaseUrl',
    env: 'OPENWEB_EXPORT_BASE_URL',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'url' },
    default: 'https://api-exporter.openweb.com',
    description:
      "Base URL of OpenWeb's export API (`/v4/export*`); set for `npm start`, it replaces the simulator by the real upstream.",
  },
  openWebDownloadHosts: {
    path: 'openWebDownloadHosts',
    env: 'OPENWEB_DOWNLOAD_HOSTS',
    scope: 'deployment',
    readBy: 'all',
    optionalInStack: true,
    kind: { type: 'hostList' },
    default: ['*.openweb.com'],
    description:
      'Hosts a download link may point to besides the export host (`host`, `host:port` or `*.domain.tld`; comma-separated in the environment); other links are dropped.',
  },
  secretNamePrefix: {
    path: 'secretNamePrefix',
    env: 'SECRET_NAME_PREFIX',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: {
      type: 'text',
      pattern: /^[A-Za-z0-9/_+=.@-]{1,256}$/,
      message: 'may hold only letters, digits and /_+=.@-',
    },
    default: 'openweb-exports/spots/',
    description:
      'The secret of spot `sp_abc` is `<prefix>sp_abc`; the functions may read only secrets under this prefix (so it may not be empty).',
  },
  secretsKmsKeyArn: {
    path: 'secretsKmsKeyArn',
    scope: 'deployment',
    kind: { type: 'text', pattern: KMS_KEY_ARN, message: KMS_KEY_ARN_MESSAGE },
    defaultText: 'the AWS-managed key `aws/secretsmanager`, which needs no grant',
    description:
      "The customer-managed KMS key the spots' secrets are encrypted with, in the stack's region, whose policy lets the account's IAM policies grant it (the default key policy does); the functions that read secrets may decrypt with it through Secrets Manager only (`kms:ViaService`).",
  },
  secretsCacheMaxAgeSeconds: {
    env: 'SECRETS_CACHE_MAX_AGE_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    writtenAsDefault: true,
    kind: { type: 'integer', min: 0, max: SECONDS_PER_DAY },
    default: 5 * SECONDS_PER_MINUTE,
    unit: 'seconds',
    description: "How long a container caches a spot's credentials (a rejected key is re-read at once).",
  },
  upstreamRequestTimeoutMs: {
    env: 'UPSTREAM_REQUEST_TIMEOUT_MS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 100, max: 120_000 },
    // A call that must authenticate first spends 2 × (retry budget + request timeout) = 20 s, within API Gateway's 29 s.
    default: 8_000,
    unit: 'milliseconds',
    description: 'Timeout of one upstream HTTP request, its answer included.',
  },
  upstreamMaxAttempts: {
    env: 'UPSTREAM_MAX_ATTEMPTS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 1, max: 10 },
    default: 4,
    unit: 'attempts',
    description:
      'Attempts per upstream call on 429, 5xx and network errors (a create is never re-sent once it may have arrived).',
  },
  upstreamRetryBudgetMs: {
    env: 'UPSTREAM_RETRY_BUDGET_MS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: 600_000 },
    default: 2_000,
    unit: 'milliseconds',
    description:
      "Time one upstream call may spend waiting between attempts, so an API call stays within API Gateway's 29 s.",
  },
  upstreamMaxConcurrency: {
    env: 'UPSTREAM_MAX_CONCURRENCY',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 1, max: 1_000 },
    // Enough for a local runtime with hundreds of spots; a Lambda container sends one call at a time anyway.
    default: 16,
    unit: 'requests',
    description: 'Upstream requests in flight at once per process.',
  },
  upstreamMaxRequestsPerSecond: {
    env: 'UPSTREAM_MAX_REQUESTS_PER_SECOND',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'number', min: 0, minExclusive: true, max: MAX_UPSTREAM_REQUESTS_PER_SECOND },
    defaultText: 'no limit',
    unit: 'requests/s',
    description:
      'Upstream requests started per second per process, auth included; set it 10–20 % below a known upstream limit.',
  },
  upstreamAuthRequestsPerSecond: {
    path: 'upstreamAuthRequestsPerSecond',
    env: 'UPSTREAM_AUTH_REQUESTS_PER_SECOND',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'number', min: 0, minExclusive: true, max: MAX_UPSTREAM_REQUESTS_PER_SECOND },
    // OpenWeb documents one auth request per second per address.
    default: 1,
    unit: 'requests/s',
    description:
      'Auth requests per second across every function container of the deployment (or the local runtime), paced through the table.',
  },

  // The export lifecycle.
  exportDeadlineSeconds: {
    path: 'polling.exportDeadlineSeconds',
    env: 'EXPORT_DEADLINE_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 5 * SECONDS_PER_MINUTE, max: 7 * SECONDS_PER_DAY },
    default: 6 * SECONDS_PER_HOUR,
    unit: 'seconds',
    description:
      'Past this since its start, polling stops and the export is aborted upstream (ABORTED, "polling deadline passed"); the stack refuses a deadline whose workflow could outgrow Step Functions\' 25,000 history events.',
  },
  defaultFirstPollDelaySeconds: {
    path: 'polling.defaultFirstPollDelaySeconds',
    env: 'DEFAULT_FIRST_POLL_DELAY_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: SECONDS_PER_HOUR },
    default: 30,
    unit: 'seconds',
    description: 'First poll delay for a spot without export history; less than the deadline.',
  },
  statusPollIntervalSeconds: {
    path: 'polling.statusPollIntervalSeconds',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: SECONDS_PER_HOUR },
    default: 10,
    unit: 'seconds',
    description:
      "First interval of the workflow's poll backoff, which doubles up to the cap, with full jitter.",
  },
  statusPollMaxDelaySeconds: {
    path: 'polling.statusPollMaxDelaySeconds',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: SECONDS_PER_HOUR },
    default: 5 * SECONDS_PER_MINUTE,
    unit: 'seconds',
    description: "Cap of the workflow's poll backoff, at least the first interval.",
  },
  statusFreshnessSeconds: {
    path: 'polling.statusFreshnessSeconds',
    env: 'STATUS_FRESHNESS_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: 0, max: SECONDS_PER_HOUR },
    default: 10,
    unit: 'seconds',
    description: 'An API status read within this of the last poll is served from the table.',
  },
  reconcileStaleAfterSeconds: {
    path: 'polling.reconcileStaleAfterSeconds',
    env: 'RECONCILE_STALE_AFTER_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: SECONDS_PER_DAY },
    default: 15 * SECONDS_PER_MINUTE,
    unit: 'seconds',
    description: 'The reconciler repairs active exports not polled for this long.',
  },
  reconcileRate: {
    path: 'polling.reconcileRate',
    scope: 'deployment',
    kind: { type: 'schedule', forms: ['rate'] },
    default: 'rate(5 minutes)',
    description: 'How often the reconciler runs, a Scheduler `rate()` expression.',
  },
  // The coverage ledger.
  windowRetryAttempts: {
    path: 'coverage.windowRetryAttempts',
    env: 'WINDOW_RETRY_ATTEMPTS',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'integer', min: 0, max: 10 },
    default: 3,
    unit: 'attempts',
    description:
      'A window whose export failed for a reason that may pass (the deadline, the upstream, expired links) is exported again this many times before it is a gap.',
  },
  windowRetryCooldownSeconds: {
    path: 'coverage.windowRetryCooldownSeconds',
    env: 'WINDOW_RETRY_COOLDOWN_SECONDS',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: SECONDS_PER_DAY },
    default: 10 * SECONDS_PER_MINUTE,
    unit: 'seconds',
    description: 'The wait before a failed window is exported again; each further retry waits twice as long.',
  },
  idempotencyTtlSeconds: {
    env: 'IDEMPOTENCY_TTL_SECONDS',
    scope: 'deployment',
    readBy: 'lifecycle',
    kind: { type: 'integer', min: SECONDS_PER_MINUTE, max: 7 * SECONDS_PER_DAY },
    default: SECONDS_PER_DAY,
    unit: 'seconds',
    description: 'How long an `Idempotency-Key` keeps answering with the same export.',
  },

  // The HTTP API.
  apiThrottlingRateLimit: {
    path: 'api.throttlingRateLimit',
    scope: 'deployment',
    kind: { type: 'number', min: 0, minExclusive: true, max: 10_000 },
    default: 25,
    unit: 'requests/s',
    description: "The API stage's steady request rate.",
  },
  apiThrottlingBurstLimit: {
    path: 'api.throttlingBurstLimit',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 5_000 },
    default: 50,
    unit: 'requests',
    description: "The API stage's burst.",
  },
  authSpotClaim: {
    path: 'auth.spotClaim',
    env: 'AUTH_SPOT_CLAIM',
    scope: 'deployment',
    readBy: 'all',
    // `spots`, `custom:spots` (Cognito), `https://example.com/spots` (namespaced, as Auth0 requires).
    kind: {
      type: 'text',
      pattern: /^[\x21-\x7e]{1,256}$/,
      message: 'must be a JWT claim name (printable ASCII, no spaces)',
    },
    defaultText: 'none (any authorized caller may use any spot)',
    description:
      'JWT mode: the claim that must list the `x-spot-id` of a request, or it is refused with 403.',
  },
  authSpotsByPrincipal: {
    path: 'auth.spotsByPrincipal',
    env: 'AUTH_SPOTS_BY_PRINCIPAL',
    scope: 'deployment',
    readBy: 'all',
    kind: { type: 'spotsByPrincipal', maxJsonChars: MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS },
    defaultText: 'none (any signer allowed to invoke the API may use any spot)',
    description:
      'IAM mode: the spots each IAM role (through any of its sessions) or user may use, by ARN (`{"arn:aws:iam::<account>:role/<name>": ["sp_…"]}`, path optional); a request for any other `x-spot-id`, or from a signer not listed, is refused with 403.',
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
    description: 'Archived files move to S3 Standard-IA after this many days; `null` keeps them in Standard.',
  },
  archiveExpireAfterDays: {
    path: 'archive.expireAfterDays',
    env: 'ARCHIVE_EXPIRE_AFTER_DAYS',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'integer', min: 1, max: MAX_LIFECYCLE_DAYS },
    defaultText: 'kept',
    unit: 'days',
    description:
      'Archived files are deleted after this many days (more than `infrequentAccessAfterDays`); from then on `/files` answers `EXPIRED` for the archive and mints no URL.',
  },
  archiveNoncurrentVersionExpireAfterDays: {
    path: 'archive.noncurrentVersionExpireAfterDays',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: MAX_LIFECYCLE_DAYS },
    default: 30,
    unit: 'days',
    description: 'How long a version replaced by a re-archive is kept.',
  },
  archiveKmsKeyArn: {
    path: 'archive.kmsKeyArn',
    scope: 'deployment',
    kind: { type: 'text', pattern: KMS_KEY_ARN, message: KMS_KEY_ARN_MESSAGE },
    defaultText: 'S3-managed keys (SSE-S3)',
    description:
      'A customer-managed KMS key for the archive bucket; the archive function may encrypt and decrypt with it, the files function decrypt.',
  },
  archiveDownloadUrlExpirySeconds: {
    path: 'archive.downloadUrlExpirySeconds',
    env: 'ARCHIVE_URL_EXPIRY_SECONDS',
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
    description:
      'How long a `/files` download URL works; at most an hour, as a URL never outlives the session of the role that signed it.',
  },
  archiveCatalogDatabaseName: {
    path: 'archive.catalogDatabaseName',
    env: 'LAKE_DATABASE_NAME',
    scope: 'deployment',
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^[a-z0-9_]{1,255}$/,
      message: 'must be 1-255 of a-z, 0-9 and _ (the names Athena reads)',
    },
    default: 'openweb_exports',
    description:
      "The Glue database of the archive's query tables (`comment_rows`, the view `comments`); the archive registers each new partition in it.",
  },
  archiveWriteTable: {
    path: 'archive.writeTable',
    env: 'ARCHIVE_WRITE_TABLE',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'boolean' },
    default: true,
    description:
      'Whether the archive also writes each CSV as a Parquet file of the `comment_rows` table and registers its partition in the catalog; `false` writes only the raw `.csv.gz` files and the manifest, so nothing new reaches the query tables.',
  },
  archiveMaxScannedGigabytesPerQuery: {
    path: 'archive.maxScannedGigabytesPerQuery',
    scope: 'deployment',
    kind: { type: 'integer', min: 1, max: 1_000_000 },
    default: 10,
    unit: 'gigabytes',
    description:
      'The Athena workgroup cancels a query that would scan more than this (Athena bills by bytes scanned).',
  },
  archiveDownloadTimeoutSeconds: {
    env: 'ARCHIVE_DOWNLOAD_TIMEOUT_SECONDS',
    scope: 'deployment',
    readBy: 'archive',
    kind: { type: 'integer', min: 10, max: 15 * SECONDS_PER_MINUTE },
    // An export file is at most a few hundred MB.
    default: 10 * SECONDS_PER_MINUTE,
    unit: 'seconds',
    description: "Bound of one link's download by the archive task.",
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
    description: 'Retention of every log group of the deployment.',
  },
  logLevel: {
    path: 'logLevel',
    env: 'POWERTOOLS_LOG_LEVEL',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    kind: { type: 'enum', values: ['DEBUG', 'INFO', 'WARN', 'ERROR'] },
    default: 'INFO',
    description: "The functions' log level; API keys and tokens are never logged.",
  },
  workflowLogLevel: {
    path: 'workflowLogLevel',
    scope: 'deployment',
    kind: { type: 'enum', values: ['ERROR', 'ALL'] },
    // Every event is about three per poll, billed as vended logs; the alarms need only the errors.
    default: 'ERROR',
    description:
      'What the polling workflow logs: `ERROR` (failures, and the Fail states the alarms count) or `ALL` (every event, about three per poll).',
  },
  powertoolsServiceName: {
    env: 'POWERTOOLS_SERVICE_NAME',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    writtenAsDefault: true,
    kind: { type: 'text', pattern: /^\S{1,256}$/, message: 'must be a name without spaces' },
    default: 'openweb-exports',
    description: 'The service name every log line and metric carries.',
  },
  powertoolsMetricsNamespace: {
    env: 'POWERTOOLS_METRICS_NAMESPACE',
    scope: 'deployment',
    readBy: 'all',
    readByPowertools: true,
    writtenAsDefault: true,
    kind: { type: 'text', pattern: /^\S{1,256}$/, message: 'must be a name without spaces' },
    default: 'OpenWebExports',
    description: "The CloudWatch namespace of the functions' metrics.",
  },
  sourceMapStackTraces: {
    path: 'sourceMapStackTraces',
    scope: 'deployment',
    kind: { type: 'boolean' },
    // Node would parse each bundle's source map at every cold start.
    default: false,
    description:
      "Stack traces in the functions' logs point at the TypeScript source instead of the minified bundle (`NODE_OPTIONS=--enable-source-maps`), at the cost of about 15–20 ms more module init; the map ships beside every bundle either way.",
  },

  // A deployment after a deleted one.
  existingTableName: {
    path: 'existingTableName',
    scope: 'deployment',
    kind: { type: 'text', pattern: DYNAMODB_TABLE_NAME, message: DYNAMODB_TABLE_NAME_MESSAGE },
    defaultText: 'a new table',
    description:
      'A table this project created for an earlier deployment of this stack and left behind (the table is retained when the stack is deleted): the deployment uses it, records and all, instead of creating one.',
  },

  // The resources the stack creates.
  tableName: {
    env: 'TABLE_NAME',
    scope: 'resource',
    readBy: 'all',
    kind: { type: 'text', pattern: DYNAMODB_TABLE_NAME, message: DYNAMODB_TABLE_NAME_MESSAGE },
    description: 'The DynamoDB table of exports, locks, idempotency keys and tokens.',
  },
  stateMachineArn: {
    env: 'STATE_MACHINE_ARN',
    scope: 'resource',
    readBy: 'lifecycle',
    kind: {
      type: 'text',
      pattern: /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}$/,
      message: 'must be a Step Functions state machine ARN',
    },
    description: 'The polling workflow.',
  },
  eventBusName: {
    env: 'EVENT_BUS_NAME',
    scope: 'resource',
    readBy: 'all',
    kind: {
      type: 'text',
      pattern: /^[A-Za-z0-9/_.:-]{1,1600}$/,
      message: 'must be an EventBridge event bus name or ARN',
    },
    default: 'default',
    description: 'Where finished and archived exports are announced.',
  },
  archiveBucketName: {
    env: 'ARCHIVE_BUCKET_NAME',
    scope: 'resource',
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      message: 'must be an S3 bucket name (3-63 of a-z, 0-9, . and -)',
    },
    description: "The archive bucket of finished exports' files.",
  },
  archiveBucketUrl: {
    env: 'ARCHIVE_BUCKET_URL',
    scope: 'resource',
    readBy: 'archive',
    kind: {
      type: 'text',
      pattern: /^https?:\/\/[^\s/?#]+(\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9])?\/?$/,
      message:
        "must be the archive bucket's URL: https://<bucket>.s3.<region>.amazonaws.com, or path-style http(s)://<host>/<bucket>",
    },
    description:
      "The archive bucket's URL, which `/files` signs download URLs for: its regional domain name in AWS (set by the stack), path-style on a stand-in.",
  },

  // npm start.
  localSecretsFile: {
    env: 'LOCAL_SECRETS_FILE',
    scope: 'local',
    readBy: 'lifecycle',
    kind: { type: 'path' },
    // Simulator keys only, never real credentials.
    default: 'local/demo-spots.json',
    description:
      'Spot credentials from this JSON file (`{"sp_…": {"apiKey": "…"}}`) instead of Secrets Manager; the default holds the simulator\'s demo keys, so a real upstream needs one.',
  },
  localApiPort: {
    env: 'PORT',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_PORT },
    default: 3000,
    description: 'Port of the HTTP API on 127.0.0.1 (`0`: any free port).',
  },
  simulatorPort: {
    env: 'SIMULATOR_PORT',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_PORT },
    default: 4010,
    description: 'Port of the OpenWeb simulator (`0`: any free port).',
  },
  localTimeScale: {
    env: 'LOCAL_TIME_SCALE',
    scope: 'local',
    kind: { type: 'number', min: 0, minExclusive: true, max: REAL_TIME_SCALE },
    defaultText: `${SIMULATED_TIME_SCALE} with the simulator, ${REAL_TIME_SCALE} (real time) with a real upstream`,
    description:
      "Real seconds per simulated second for the simulator, the workflow's waits, retries and deadline, and `rate()` schedules; `cron()` schedules follow the wall clock.",
  },
  localDataDir: {
    env: 'LOCAL_DATA_DIR',
    scope: 'local',
    kind: { type: 'path' },
    default: '.local-data',
    description:
      "Where the table, the archive and the simulator's state are kept, relative to the project; `memory` keeps nothing.",
  },
  localStackConfig: {
    env: 'LOCAL_STACK_CONFIG',
    scope: 'local',
    kind: { type: 'json' },
    defaultText: '`context.openwebExports` of cdk.json',
    description: 'The stack configuration (spots, schedules, polling …) as JSON.',
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
    description:
      'Log level of the handlers under `npm start`; `POWERTOOLS_LOG_LEVEL` wins when both are set.',
  },
  simulatorAuthRequestsPerSecond: {
    env: 'SIMULATOR_AUTH_REQUESTS_PER_SECOND',
    scope: 'local',
    kind: { type: 'integer', min: 0, max: MAX_SIMULATOR_REQUESTS_PER_SECOND },
    // The upstream's documented auth limit, per client address.
    default: 1,
    unit: 'requests/s',
    description: "The simulator's auth limit per client address, as OpenWeb documents it (`0`: none).",
  },
  simulatorAuthRetryAfter: {
    env: 'SIMULATOR_AUTH_RETRY_AFTER',
    scope: 'local',
    kind: { type: 'boolean' },
    default: true,
    description:
      "Whether the simulator's auth 429s carry `Retry-After` (without it, the client waits at least one pacing interval).",
  },
  simulatorExportRequestsPerSecond: {
    env: 'SIMULATOR_EXPORT_REQUESTS_PER_SECOND',
    scope: 'local',
    kind: { type: 'integer', min: 1, max: MAX_SIMULATOR_REQUESTS_PER_SECOND },
    defaultText: 'no limit',
    unit: 'requests/s',
    description:
      'A limit on `/v4/export*` calls to the simulator, answered above it with 429 and `Retry-After`.',
  },
  simulatorExportRateLimitScope: {
    env: 'SIMULATOR_EXPORT_RATE_LIMIT_SCOPE',
    scope: 'local',
    kind: { type: 'enum', values: ['clientAddress', 'spot'] },
    default: 'clientAddress',
    description: "Whose calls the simulator's export limit counts together: per client address or per spot.",
  },
  simulatorRecordsPerExport: {
    env: 'SIMULATOR_RECORDS_PER_EXPORT',
    scope: 'local',
    // The simulator builds each file in memory: enough for several files of 100,000 records.
    kind: { type: 'integer', min: 0, max: 1_000_000 },
    default: 250,
    unit: 'records',
    description: 'Comment records in each simulated export, split into files by `maxRecordsInFile`.',
  },
  localArchive: {
    env: 'LOCAL_ARCHIVE',
    scope: 'local',
    kind: { type: 'boolean', words: ['on', 'off'] },
    default: true,
    description: 'Whether finished exports are archived, to an S3 stand-in in the data folder.',
  },
} as const satisfies Record<string, Setting>;

export type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
