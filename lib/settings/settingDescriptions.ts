import { REAL_TIME_SCALE, type SettingName, SIMULATED_TIME_SCALE } from './settingsTable';

/** What the documentation says of a setting. */
export interface SettingDescription {
  /** One sentence. */
  description: string;
  /** What the default is, for a setting without one (what unset means) or whose default depends on something else. */
  defaultText?: string;
}

/**
 * The prose of every setting of the table (lib/settings/settingsTable.ts), for
 * docs/configuration.md and the stack's documentation only: the functions carry the settings'
 * names, defaults and checks, never this (test/integration/infra/lambdaBundles.test.ts).
 */
export const SETTING_DESCRIPTIONS: { readonly [N in SettingName]: SettingDescription } = {
  openWebAuthBaseUrl: {
    description:
      "Base URL of OpenWeb's auth API (`POST /v1/publisher/auth`); set for `npm start`, it replaces the simulator by the real upstream.",
  },
  openWebExportBaseUrl: {
    description:
      "Base URL of OpenWeb's export API (`/v4/export*`); set for `npm start`, it replaces the simulator by the real upstream.",
  },
  openWebDownloadHosts: {
    description:
      'Hosts a download link may point to besides the export host (`host`, `host:port` or `*.domain.tld`; comma-separated in the environment); other links are dropped.',
  },
  secretNamePrefix: {
    description:
      'The secret of spot `sp_abc` is `<prefix>sp_abc`; the functions may read only secrets under this prefix (so it may not be empty).',
  },
  secretsKmsKeyArn: {
    defaultText: 'the AWS-managed key `aws/secretsmanager`, which needs no grant',
    description:
      "The customer-managed KMS key the spots' secrets are encrypted with, in the stack's region, whose policy lets the account's IAM policies grant it (the default key policy does); the functions that read secrets may decrypt with it through Secrets Manager only (`kms:ViaService`).",
  },
  secretsCacheMaxAgeSeconds: {
    description: "How long a container caches a spot's credentials (a rejected key is re-read at once).",
  },
  upstreamRequestTimeoutMs: {
    description: 'Timeout of one upstream HTTP request, its answer included.',
  },
  upstreamMaxAttempts: {
    description:
      'Attempts per upstream call on 429, 5xx and network errors (a create is never re-sent once it may have arrived).',
  },
  upstreamRetryBudgetMs: {
    description:
      "Time one upstream call may spend waiting between attempts, so an API call stays within API Gateway's 29 s.",
  },
  upstreamMaxConcurrency: {
    description: 'Upstream requests in flight at once per process.',
  },
  upstreamMaxRequestsPerSecond: {
    defaultText: 'no limit',
    description:
      'Upstream requests started per second per process, auth included; set it 10–20 % below a known upstream limit.',
  },
  upstreamAuthRequestsPerSecond: {
    description:
      'Auth requests per second across every function container of the deployment (or the local runtime), paced through the table.',
  },
  exportDeadlineSeconds: {
    description:
      'Past this since its start, polling stops and the export is aborted upstream (ABORTED, "polling deadline passed"); the stack refuses a deadline whose workflow could outgrow Step Functions\' 25,000 history events.',
  },
  defaultFirstPollDelaySeconds: {
    description: 'First poll delay for a spot without export history; less than the deadline.',
  },
  statusPollIntervalSeconds: {
    description:
      "First interval of the workflow's poll backoff, which doubles up to the cap, with full jitter.",
  },
  statusPollMaxDelaySeconds: {
    description: "Cap of the workflow's poll backoff, at least the first interval.",
  },
  statusFreshnessSeconds: {
    description: 'An API status read within this of the last poll is served from the table.',
  },
  reconcileStaleAfterSeconds: {
    description: 'The reconciler repairs active exports not polled for this long.',
  },
  reconcileRate: {
    description: 'How often the reconciler runs, a Scheduler `rate()` expression.',
  },
  windowRetryAttempts: {
    description:
      'A window whose export failed for a reason that may pass (the deadline, the upstream, expired links) is exported again this many times before it is a gap.',
  },
  windowRetryCooldownSeconds: {
    description: 'The wait before a failed window is exported again; each further retry waits twice as long.',
  },
  restatementsPerSpotPerDay: {
    description:
      "The most restatements (a covered window exported again at one of its schedule's `restate` ages, retries included) started per spot per UTC day; the rest wait for the next day and are shown as waiting. 48 lets an hourly schedule restate at two ages; 0 turns restatement off.",
  },
  freshnessTargetSeconds: {
    defaultText:
      "derived from each spot's schedules: twice the longest schedule's period plus its lag; a spot without a schedule has none and is never stale",
    description:
      "How far behind the clock a spot's covered hours may fall before it is stale (`Coverage Stale` event, the freshness alarm, `GET /spots`); a spot's own `freshnessTargetSeconds` wins.",
  },
  freshnessAlarmStaleSpots: {
    description: 'The freshness alarm goes off when at least this many spots are stale at once.',
  },
  fleetFreshnessTargets: {
    defaultText: 'no configured spot',
    description:
      "The configured spots and each one's freshness target in seconds (`null`: none), as JSON; the stack writes it from `spots` and their schedules.",
  },
  idempotencyTtlSeconds: {
    description: 'How long an `Idempotency-Key` keeps answering with the same export.',
  },
  apiThrottlingRateLimit: {
    description: "The API stage's steady request rate.",
  },
  apiThrottlingBurstLimit: {
    description: "The API stage's burst.",
  },
  authSpotClaim: {
    defaultText: 'none (any authorized caller may use any spot)',
    description:
      'JWT mode: the claim that must list the `x-spot-id` of a request, or it is refused with 403.',
  },
  authSpotsByPrincipal: {
    defaultText: 'none (any signer allowed to invoke the API may use any spot)',
    description:
      'IAM mode: the spots each IAM role (through any of its sessions) or user may use, by ARN (`{"arn:aws:iam::<account>:role/<name>": ["sp_…"]}`, path optional); a request for any other `x-spot-id`, or from a signer not listed, is refused with 403.',
  },
  archiveInfrequentAccessAfterDays: {
    description: 'Archived files move to S3 Standard-IA after this many days; `null` keeps them in Standard.',
  },
  archiveExpireAfterDays: {
    defaultText: 'kept',
    description:
      'Archived files are deleted after this many days (more than `infrequentAccessAfterDays`); from then on `/files` answers `EXPIRED` for the archive and mints no URL.',
  },
  archiveNoncurrentVersionExpireAfterDays: {
    description: 'How long a version replaced by a re-archive is kept.',
  },
  archiveKmsKeyArn: {
    defaultText: 'S3-managed keys (SSE-S3)',
    description:
      'A customer-managed KMS key for the archive bucket; the archive function may encrypt and decrypt with it, the files function decrypt.',
  },
  archiveDownloadUrlExpirySeconds: {
    description:
      'How long a `/files` download URL works; at most an hour, as a URL never outlives the session of the role that signed it.',
  },
  archiveCatalogDatabaseName: {
    description:
      "The Glue database of the archive's query tables (`comment_rows`, the view `comments`), which the stack names after itself when unset (its name in lower case, each run of other characters `_`: `OpenWebExports-staging` → `openwebexports_staging`) so that two stacks in one account and region never share one, and which the local runtime calls `openweb_exports`.",
  },
  archiveWriteTable: {
    description:
      'Whether the archive also writes each CSV as a Parquet file of the `comment_rows` table and registers its partition in the catalog; `false` writes only the raw `.csv.gz` files and the manifest, so nothing new reaches the query tables.',
  },
  archiveMaxScannedGigabytesPerQuery: {
    description:
      'The Athena workgroup cancels a query that would scan more than this (Athena bills by bytes scanned).',
  },
  archiveQueryResultsExpireAfterDays: {
    description:
      "Days after which the bucket's lifecycle rule deletes Athena's query result files (and one day later their old versions): a result that selected an erased user's rows is gone by then.",
  },
  archiveDownloadTimeoutSeconds: {
    description: "Bound of one link's download by the archive task.",
  },
  logRetentionDays: {
    description: 'Retention of every log group of the deployment.',
  },
  logLevel: {
    description: "The functions' log level; API keys and tokens are never logged.",
  },
  workflowLogLevel: {
    description:
      'What the polling workflow logs: `ERROR` (failures, and the Fail states the alarms count) or `ALL` (every event, about three per poll).',
  },
  powertoolsServiceName: {
    description: 'The service name every log line and metric carries.',
  },
  powertoolsMetricsNamespace: {
    description: "The CloudWatch namespace of the functions' metrics.",
  },
  sourceMapStackTraces: {
    description:
      "Stack traces in the functions' logs point at the TypeScript source instead of the minified bundle (`NODE_OPTIONS=--enable-source-maps`), at the cost of about 15–20 ms more module init; the map ships beside every bundle either way.",
  },
  existingTableName: {
    defaultText: 'a new table',
    description:
      'A table this project created for an earlier deployment of this stack and left behind (the table is retained when the stack is deleted): the deployment uses it, records and all, instead of creating one.',
  },
  tableName: {
    description: 'The DynamoDB table of exports, locks, idempotency keys and tokens.',
  },
  stateMachineArn: {
    description: 'The polling workflow.',
  },
  erasureStateMachineArn: {
    description: 'The erasure workflow, which rewrites the archive without an erased user.',
  },
  eventBusName: {
    description: 'Where finished and archived exports are announced.',
  },
  archiveBucketName: {
    description: "The archive bucket of finished exports' files.",
  },
  archiveBucketUrl: {
    description:
      "The archive bucket's URL, which `/files` signs download URLs for: its regional domain name in AWS (set by the stack), path-style on a stand-in.",
  },
  lakeWorkGroupName: {
    description:
      "The Athena workgroup an erasure's end asks the table in (`select count(*)` of the erased user's rows); unset when the archive writes no table, and locally (DuckDB asks it).",
  },
  localSecretsFile: {
    description:
      'Spot credentials from this JSON file (`{"sp_…": {"apiKey": "…"}}`) instead of Secrets Manager; the default holds the simulator\'s demo keys, so a real upstream needs one.',
  },
  localApiPort: {
    description: 'Port of the HTTP API on 127.0.0.1 (`0`: any free port).',
  },
  simulatorPort: {
    description: 'Port of the OpenWeb simulator (`0`: any free port).',
  },
  localTimeScale: {
    defaultText: `${SIMULATED_TIME_SCALE} with the simulator, ${REAL_TIME_SCALE} (real time) with a real upstream`,
    description:
      "Real seconds per simulated second for the simulator, the workflow's waits, retries and deadline, a failed window's cooldown, when the reconciler takes an export for silent (`RECONCILE_STALE_AFTER_SECONDS`), and `rate()` schedules; `cron()` schedules follow the wall clock.",
  },
  localDataDir: {
    description:
      "Where the table, the archive and the simulator's state are kept, relative to the project; `memory` keeps nothing.",
  },
  localStackConfig: {
    defaultText: '`context.openwebExports` of cdk.json',
    description: 'The stack configuration (spots, schedules, polling …) as JSON.',
  },
  localLogLevel: {
    description:
      'Log level of the handlers under `npm start`; `POWERTOOLS_LOG_LEVEL` wins when both are set.',
  },
  simulatorAuthRequestsPerSecond: {
    description: "The simulator's auth limit per client address, as OpenWeb documents it (`0`: none).",
  },
  simulatorAuthRetryAfter: {
    description:
      "Whether the simulator's auth 429s carry `Retry-After` (without it, the client waits at least one pacing interval).",
  },
  simulatorExportRequestsPerSecond: {
    defaultText: 'no limit',
    description:
      'A limit on `/v4/export*` calls to the simulator, answered above it with 429 and `Retry-After`.',
  },
  simulatorExportRateLimitScope: {
    description: "Whose calls the simulator's export limit counts together: per client address or per spot.",
  },
  simulatorCommentsPerHour: {
    description:
      'Comments the simulator holds for each hour of each spot (the same ones whichever window exports them); an export holds those of its window, split into files by `maxRecordsInFile`.',
  },
  simulatorStatusChangeShare: {
    description:
      "Share of the simulator's comments whose `message_status` changes once after they are written.",
  },
  simulatorEditShare: {
    description: "Share of the simulator's comments whose content is edited once after they are written.",
  },
  simulatorDeleteShare: {
    description:
      "Share of the simulator's comments deleted after they are written, absent from the exports created after.",
  },
  simulatorMaxChangeDelaySeconds: {
    description:
      "The simulator's changes come 60 s to this long after the comment is written (simulated time: `LOCAL_TIME_SCALE` shortens it).",
  },
  localArchive: {
    description: 'Whether finished exports are archived, to an S3 stand-in in the data folder.',
  },
};
