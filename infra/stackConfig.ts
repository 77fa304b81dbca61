import type { Construct } from 'constructs';
import { z } from 'zod';
import {
  ConfigError,
  DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS,
  DEFAULT_OPENWEB_AUTH_BASE_URL,
  DEFAULT_OPENWEB_EXPORT_BASE_URL,
  DEFAULT_SECRET_NAME_PREFIX,
  DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND,
  loadConfig,
} from '../lib/config';
import { isoDurationSeconds } from '../lib/events/isoDurationSeconds';
import { DEFAULT_EXPORT_SETTINGS } from '../lib/exports/ExportSettings';
import { MAX_EXPORT_RANGE_HOURS } from '../lib/exports/exportRequestSchema';
import { spotIdSchema } from '../lib/exports/spotId';
import { isIamPrincipalArn } from '../lib/http/iamPrincipal';
import { JWT_CLAIM_NAME_PATTERN } from '../lib/http/jwtClaimValues';
import { isDownloadHostEntry } from '../lib/openweb/downloadLinkPolicy';
import { STEP_FUNCTIONS_MAX_HISTORY_EVENTS, workflowHistoryBudget } from './workflowRetries';

/** The CDK context key holding the deployment's configuration (a JSON object, or its JSON text from `-c`). */
export const STACK_CONFIG_CONTEXT_KEY = 'openwebExports';

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;

export const DEFAULT_STATUS_POLL_INTERVAL_SECONDS = 10;
export const DEFAULT_STATUS_POLL_MAX_DELAY_SECONDS = 300;
export const DEFAULT_RECONCILE_RATE = 'rate(5 minutes)';
export const DEFAULT_API_THROTTLING_RATE_LIMIT_PER_SECOND = 25;
export const DEFAULT_API_THROTTLING_BURST_LIMIT = 50;
export const DEFAULT_LOG_RETENTION_DAYS = 90;

/** The retention periods CloudWatch Logs accepts. */
const LOG_RETENTION_DAYS_VALUES = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
const WORKFLOW_LOG_LEVELS = ['ERROR', 'ALL'] as const;

const CRON_FIELD_COUNT = 6;
const RATE_EXPRESSION = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;

function integer(min: number, max: number) {
  return z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
}

/** `rate(5 minutes)`: singular unit for 1, plural otherwise, as EventBridge Scheduler requires. */
function isRateExpression(text: string): boolean {
  const match = RATE_EXPRESSION.exec(text);
  if (match === null) return false;
  const value = Number(match[1]);
  const plural = (match[2] as string).endsWith('s');
  return value >= 1 && plural === value > 1;
}

function isCronExpression(text: string): boolean {
  const match = /^cron\((.+)\)$/.exec(text);
  return match !== null && (match[1] as string).trim().split(/\s+/).length === CRON_FIELD_COUNT;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** EventBridge Scheduler's longest flexible time window. */
export const MAX_FLEXIBLE_WINDOW_MINUTES = 1_440;

const scheduleSchema = z.strictObject({
  expression: z
    .string({ error: 'must be a string' })
    .refine(
      (text) => isCronExpression(text) || isRateExpression(text),
      'must be an EventBridge Scheduler cron(<6 fields>) or rate(<n> <unit>) expression',
    ),
  window: z
    .string({ error: 'must be a string' })
    .refine(
      (text) => isoDurationSeconds(text) !== undefined,
      'must be an ISO-8601 duration in weeks, days, hours, minutes or seconds, like P1D or PT12H',
    )
    .refine((text) => {
      const seconds = isoDurationSeconds(text);
      return seconds === undefined || (seconds > 0 && seconds <= MAX_EXPORT_RANGE_HOURS * SECONDS_PER_HOUR);
    }, `must be longer than zero and at most ${MAX_EXPORT_RANGE_HOURS} hours (the upstream's longest export range)`),
  timeZone: z
    .string({ error: 'must be a string' })
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris or UTC')
    .optional(),
  // Scheduler fires each run at a random moment within this many minutes of its time (the export
  // window still ends at the scheduled time): many spots on one expression then do not all start at once.
  flexibleWindowMinutes: z
    .number({ error: 'must be a number' })
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1 (leave it out for none)')
    .max(
      MAX_FLEXIBLE_WINDOW_MINUTES,
      `must be at most ${MAX_FLEXIBLE_WINDOW_MINUTES} (EventBridge Scheduler's limit)`,
    )
    .optional(),
});

const spotSchema = z.strictObject({
  spotId: spotIdSchema,
  schedules: z.array(scheduleSchema).default([]),
});

/**
 * Lambda allows 4 KB of environment per function, all variables together: the map travels in one
 * (`AUTH_SPOTS_BY_PRINCIPAL`) beside a dozen others.
 */
export const MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS = 2048;

const spotsByPrincipalSchema = z
  .record(
    z.string().refine(isIamPrincipalArn, {
      error: 'keys must be IAM role or user ARNs (arn:aws:iam::<account>:role/<name>), no wildcard',
      abort: true,
    }),
    z.array(spotIdSchema, { error: 'must be a list of spot ids' }).min(1, 'must list at least one spot'),
    { error: 'must be an object of IAM role or user ARNs to lists of spot ids' },
  )
  .superRefine((map, context) => {
    const chars = JSON.stringify(map).length;
    if (chars > MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS) {
      context.addIssue({
        code: 'custom',
        message:
          `is ${chars} characters as JSON, more than ${MAX_SPOTS_BY_PRINCIPAL_JSON_CHARS} (it travels in the ` +
          "functions' environment, 4 KB in all): map fewer roles, or give callers with the same spots one role",
      });
    }
  });

const authSchema = z.discriminatedUnion(
  'mode',
  [
    z.strictObject({
      mode: z.literal('iam'),
      // The spots each role (through any of its sessions) or user may use; unset: any signer, any spot.
      spotsByPrincipal: spotsByPrincipalSchema.optional(),
    }),
    z.strictObject({
      mode: z.literal('jwt'),
      issuer: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
      audience: z.array(z.string().min(1, 'must not be empty')).min(1, 'must list at least one audience'),
      scopes: z.array(z.string().min(1, 'must not be empty')).optional(),
      // The claim listing the spots a token may use; the functions then refuse any other x-spot-id.
      spotClaim: z
        .string({ error: 'must be a string' })
        .regex(JWT_CLAIM_NAME_PATTERN, 'must be a JWT claim name (printable ASCII, no spaces)')
        .optional(),
    }),
  ],
  { error: "mode must be 'iam' or 'jwt'" },
);

const pollingSchema = z
  .strictObject({
    exportDeadlineSeconds: integer(300, 7 * SECONDS_PER_DAY).default(
      DEFAULT_EXPORT_SETTINGS.exportDeadlineSeconds,
    ),
    defaultFirstPollDelaySeconds: integer(0, SECONDS_PER_HOUR).default(
      DEFAULT_EXPORT_SETTINGS.defaultFirstPollDelaySeconds,
    ),
    statusPollIntervalSeconds: integer(1, SECONDS_PER_HOUR).default(DEFAULT_STATUS_POLL_INTERVAL_SECONDS),
    statusPollMaxDelaySeconds: integer(1, SECONDS_PER_HOUR).default(DEFAULT_STATUS_POLL_MAX_DELAY_SECONDS),
    statusFreshnessSeconds: integer(0, SECONDS_PER_HOUR).default(
      DEFAULT_EXPORT_SETTINGS.statusFreshnessSeconds,
    ),
    reconcileStaleAfterSeconds: integer(60, SECONDS_PER_DAY).default(
      DEFAULT_EXPORT_SETTINGS.reconcileStaleAfterSeconds,
    ),
    reconcileRate: z
      .string({ error: 'must be a string' })
      .refine(isRateExpression, 'must be a rate expression such as rate(5 minutes) or rate(1 hour)')
      .default(DEFAULT_RECONCILE_RATE),
  })
  .superRefine((polling, context) => {
    if (polling.statusPollMaxDelaySeconds < polling.statusPollIntervalSeconds) {
      context.addIssue({
        code: 'custom',
        path: ['statusPollMaxDelaySeconds'],
        message: `must be at least statusPollIntervalSeconds (${polling.statusPollIntervalSeconds})`,
      });
    }
    const history = workflowHistoryBudget(polling);
    if (history.worstCaseEvents >= STEP_FUNCTIONS_MAX_HISTORY_EVENTS) {
      context.addIssue({
        code: 'custom',
        path: ['exportDeadlineSeconds'],
        message:
          `one export's workflow could write ${history.arithmetic} history events, past Step Functions' ` +
          `${STEP_FUNCTIONS_MAX_HISTORY_EVENTS}: lower exportDeadlineSeconds or raise statusPollMaxDelaySeconds`,
      });
    }
    if (polling.defaultFirstPollDelaySeconds >= polling.exportDeadlineSeconds) {
      context.addIssue({
        code: 'custom',
        path: ['defaultFirstPollDelaySeconds'],
        message: `must be less than exportDeadlineSeconds (${polling.exportDeadlineSeconds})`,
      });
    }
  });

const apiSchema = z.strictObject({
  throttlingRateLimit: z
    .number({ error: 'must be a number' })
    .positive('must be greater than 0')
    .max(10_000, 'must be at most 10000')
    .default(DEFAULT_API_THROTTLING_RATE_LIMIT_PER_SECOND),
  throttlingBurstLimit: integer(1, 5_000).default(DEFAULT_API_THROTTLING_BURST_LIMIT),
});

const emailSchema = z.email({ error: 'must be an email address' });

/** S3 moves objects to Standard-IA no sooner than 30 days after creation. */
const MIN_INFREQUENT_ACCESS_DAYS = 30;
const MAX_LIFECYCLE_DAYS = 36_500;
export const DEFAULT_ARCHIVE_INFREQUENT_ACCESS_DAYS = 90;
export const DEFAULT_ARCHIVE_NONCURRENT_VERSION_DAYS = 30;
/**
 * A presigned URL stops working when the credentials that signed it expire, whatever its own
 * expiry: the files function signs with its role's temporary credentials, whose lifetime Lambda
 * neither documents nor lets anyone set. An hour is what AWS gives a role session by default.
 */
export const MAX_DOWNLOAD_URL_EXPIRY_SECONDS = SECONDS_PER_HOUR;
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]{1,128}$/;

const archiveSchema = z
  .strictObject({
    /** Days after which archived files move to Standard-IA; null keeps them in Standard. */
    infrequentAccessAfterDays: integer(MIN_INFREQUENT_ACCESS_DAYS, MAX_LIFECYCLE_DAYS)
      .nullable()
      .default(DEFAULT_ARCHIVE_INFREQUENT_ACCESS_DAYS),
    /** Days after which archived files are deleted; unset keeps them. */
    expireAfterDays: integer(1, MAX_LIFECYCLE_DAYS).optional(),
    /** Days an overwritten (re-archived) version is kept. */
    noncurrentVersionExpireAfterDays: integer(1, MAX_LIFECYCLE_DAYS).default(
      DEFAULT_ARCHIVE_NONCURRENT_VERSION_DAYS,
    ),
    /** A customer-managed KMS key for the bucket; unset: S3-managed keys (SSE-S3). */
    kmsKeyArn: z
      .string({ error: 'must be a string' })
      .regex(KMS_KEY_ARN, 'must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)')
      .optional(),
    /** How long a `/files` download URL works. */
    downloadUrlExpirySeconds: z
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(60, 'must be at least 60')
      .max(
        MAX_DOWNLOAD_URL_EXPIRY_SECONDS,
        `must be at most ${MAX_DOWNLOAD_URL_EXPIRY_SECONDS} (a URL never outlives the session of the role that signed it, and Lambda does not say how long the functions' sessions last)`,
      )
      .default(DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS),
  })
  .superRefine((archive, context) => {
    const ia = archive.infrequentAccessAfterDays;
    if (archive.expireAfterDays !== undefined && ia !== null && archive.expireAfterDays <= ia) {
      context.addIssue({
        code: 'custom',
        path: ['expireAfterDays'],
        message: `must be more than infrequentAccessAfterDays (${ia}), or set infrequentAccessAfterDays to null`,
      });
    }
  });

const stackConfigSchema = z
  .strictObject({
    spots: z.array(spotSchema).default([]),
    // A table left behind by a deleted deployment (tables are retained), used instead of a new one.
    existingTableName: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name (3-255 of letters, digits, _ . -)')
      .optional(),
    // An empty prefix would widen the functions' secrets grant to every secret in the account.
    secretNamePrefix: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .default(DEFAULT_SECRET_NAME_PREFIX),
    // A customer-managed key the spots' secrets are encrypted with; the functions that read them
    // may decrypt with it, through Secrets Manager only. Unset: the AWS-managed key, no grant.
    secretsKmsKeyArn: z
      .string({ error: 'must be a string' })
      .regex(KMS_KEY_ARN, 'must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)')
      .optional(),
    auth: authSchema.default({ mode: 'iam' }),
    openWebAuthBaseUrl: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .default(DEFAULT_OPENWEB_AUTH_BASE_URL),
    openWebExportBaseUrl: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .default(DEFAULT_OPENWEB_EXPORT_BASE_URL),
    openWebDownloadHosts: z
      .array(
        z
          .string({ error: 'must be a string' })
          .refine(isDownloadHostEntry, 'must be host, host:port or *.domain.tld, in lower case'),
      )
      .min(1, 'must list at least one host')
      .optional(),
    // Auth requests per second for the whole deployment (every function container shares it).
    upstreamAuthRequestsPerSecond: z
      .number({ error: 'must be a number' })
      .positive('must be greater than 0')
      .default(DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND),
    polling: pollingSchema.prefault({}),
    api: apiSchema.prefault({}),
    archive: archiveSchema.prefault({}),
    logRetentionDays: z
      .number({ error: 'must be a number' })
      .refine(
        (days) => (LOG_RETENTION_DAYS_VALUES as readonly number[]).includes(days),
        `must be one of ${LOG_RETENTION_DAYS_VALUES.join(', ')}`,
      )
      .default(DEFAULT_LOG_RETENTION_DAYS),
    logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('INFO'),
    // The workflow's log: errors only, or every event (about three per poll, billed as vended logs).
    workflowLogLevel: z
      .enum(WORKFLOW_LOG_LEVELS, { error: `must be one of ${WORKFLOW_LOG_LEVELS.join(', ')}` })
      .default('ERROR'),
    // Off by default: Node then parses each bundle's source map at every cold start.
    sourceMapStackTraces: z.boolean({ error: 'must be true or false' }).default(false),
    alarmEmail: z
      .union([emailSchema, z.array(emailSchema)], { error: 'must be an email address or a list of them' })
      .optional()
      .transform((value) => (value === undefined ? [] : [value].flat())),
  })
  .superRefine((config, context) => {
    const seen = new Set<string>();
    config.spots.forEach((spot, index) => {
      if (seen.has(spot.spotId)) {
        context.addIssue({
          code: 'custom',
          path: ['spots', index, 'spotId'],
          message: `${spot.spotId} is listed more than once`,
        });
      }
      seen.add(spot.spotId);
    });
    addFunctionEnvironmentIssues(config, context);
  });

export type StackConfig = z.output<typeof stackConfigSchema>;
/** The configuration as written (context or construct props), before defaults. */
export type StackConfigInput = z.input<typeof stackConfigSchema>;
export type SpotConfig = StackConfig['spots'][number];
export type SpotScheduleConfig = SpotConfig['schedules'][number];
export type AuthConfig = StackConfig['auth'];
export type PollingConfig = StackConfig['polling'];
export type ArchiveStackConfig = StackConfig['archive'];
export type LogLevel = StackConfig['logLevel'];
export type WorkflowLogLevel = StackConfig['workflowLogLevel'];

/** Which stack config value (by path) feeds which function environment variable. */
const ENVIRONMENT_SOURCES: Record<
  string,
  readonly [keyof StackConfig] | readonly ['polling', keyof PollingConfig]
> = {
  OPENWEB_AUTH_BASE_URL: ['openWebAuthBaseUrl'],
  OPENWEB_EXPORT_BASE_URL: ['openWebExportBaseUrl'],
  SECRET_NAME_PREFIX: ['secretNamePrefix'],
  UPSTREAM_AUTH_REQUESTS_PER_SECOND: ['upstreamAuthRequestsPerSecond'],
  EXPORT_DEADLINE_SECONDS: ['polling', 'exportDeadlineSeconds'],
  DEFAULT_FIRST_POLL_DELAY_SECONDS: ['polling', 'defaultFirstPollDelaySeconds'],
  STATUS_FRESHNESS_SECONDS: ['polling', 'statusFreshnessSeconds'],
  RECONCILE_STALE_AFTER_SECONDS: ['polling', 'reconcileStaleAfterSeconds'],
};

function valueAt(config: StackConfig, path: readonly string[]): string {
  const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);
  return String(value);
}

/**
 * The functions validate their environment again at cold start with the shared config loader;
 * running the same loader here turns a deploy that could only fail at run time into a synth error.
 */
function addFunctionEnvironmentIssues(config: StackConfig, context: z.RefinementCtx): void {
  const environment = Object.fromEntries(
    Object.entries(ENVIRONMENT_SOURCES).map(([variable, path]) => [variable, valueAt(config, path)]),
  );
  try {
    loadConfig(environment);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) {
      const [variable = '', ...message] = problem.split(' ');
      context.addIssue({
        code: 'custom',
        path: [...(ENVIRONMENT_SOURCES[variable] ?? [])],
        message: message.join(' ') || problem,
      });
    }
  }
}

/** A configuration that cannot be deployed; `problems` name each bad key with its full path. */
export class StackConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[], source: string = STACK_CONFIG_CONTEXT_KEY) {
    super(`Invalid ${source} configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'StackConfigError';
    this.problems = problems;
  }
}

function describePath(source: string, path: readonly PropertyKey[]): string {
  return [source, ...path.map(String)].join('.');
}

/**
 * Raw context value (object, JSON text or undefined) → validated config with defaults. Throws
 * StackConfigError, naming each bad key under `source` (the context key, or the construct's props).
 */
export function parseStackConfig(raw: unknown, source: string = STACK_CONFIG_CONTEXT_KEY): StackConfig {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new StackConfigError([`${source}: is not valid JSON`], source);
    }
  }
  const parsed = stackConfigSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new StackConfigError(
      parsed.error.issues.map((issue) => {
        const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        return unknownKeys.length > 0
          ? `${describePath(source, issue.path)}: unknown key ${unknownKeys.map((key) => `"${key}"`).join(', ')}`
          : `${describePath(source, issue.path)}: ${issue.message}`;
      }),
      source,
    );
  }
  return parsed.data;
}

/** The config from the app's context (`-c openwebExports='{...}'` or cdk.json `context.openwebExports`). */
export function readStackConfig(scope: Construct): StackConfig {
  return parseStackConfig(scope.node.tryGetContext(STACK_CONFIG_CONTEXT_KEY));
}
