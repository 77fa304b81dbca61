import type { Construct } from 'constructs';
import { z } from 'zod';
import { spotIdSchema } from '../lib/exports/record/spotIdSchema';
import { MAX_EXPORT_RANGE_HOURS } from '../lib/exports/requests/exportRequestLimits';
import { restatementAgesProblem } from '../lib/exports/restatement/restatementAges';
import { isoDurationSeconds } from '../lib/exports/time/isoDurationSeconds';
import { SETTINGS } from '../lib/settings/settingsTable';
import { suggestName } from '../lib/text/suggestName';
import { canonicalTimeZone, checkScheduleExpression } from './scheduleExpression';
import {
  type StackSettings,
  type StackSettingsInput,
  stackSettingsShape,
  stackSettingValue,
} from './stackSettings';
import { STEP_FUNCTIONS_MAX_HISTORY_EVENTS, workflowHistoryBudget } from './workflowRetries';

/** The CDK context key holding the deployment's configuration (a JSON object, or its JSON text from `-c`). */
export const STACK_CONFIG_CONTEXT_KEY = 'openwebExports';

/** The longest a `/files` download URL may work: a URL never outlives the session of the role that signed it. */
export const MAX_DOWNLOAD_URL_EXPIRY_SECONDS = SETTINGS.archiveDownloadUrlExpirySeconds.kind.max;

/** EventBridge Scheduler's longest flexible time window. */
export const MAX_FLEXIBLE_WINDOW_MINUTES = 1_440;

// The scalar settings come from the settings table (lib/settings/settingsTable.ts); what follows is the
// configuration's structure around them: spots and their schedules, the API's authorization, alarm emails.

/** Schedule names: they key the schedule's watermark. */
const SCHEDULE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const scheduleShape = {
  expression: z.string({ error: 'must be a string' }).superRefine((text, context) => {
    const check = checkScheduleExpression(text);
    if (!check.ok) {
      context.addIssue({
        code: 'custom',
        message: `must be an EventBridge Scheduler expression, cron(<6 fields>) or rate(<n> <unit>): ${check.reason}`,
      });
    }
  }),
  // The schedule's name among the spot's: its watermark is kept under it (default `schedule-<n>`, by position).
  name: z
    .string({ error: 'must be a string' })
    .regex(SCHEDULE_NAME_PATTERN, 'must be 1-64 of letters, digits, _ and -')
    .optional(),
  // What the first run exports (later runs continue from where the last one planned up to).
  window: z
    .string({ error: 'must be a string' })
    .refine(
      (text) => isoDurationSeconds(text) !== undefined,
      'must be an ISO-8601 duration in weeks, days, hours, minutes or seconds, like P1D or PT12H',
    )
    .refine((text) => {
      const seconds = isoDurationSeconds(text);
      return seconds === undefined || seconds > 0;
    }, 'must be longer than zero'),
  // How long before the scheduled time a run's exports end, for comments written (or moderated) late.
  lag: z
    .string({ error: 'must be a string' })
    .refine(
      (text) => isoDurationSeconds(text) !== undefined,
      'must be an ISO-8601 duration in weeks, days, hours, minutes or seconds, like PT1H',
    )
    .optional(),
  // The ages at which each covered window is exported again, for comments moderated, edited or
  // deleted after the first export (checked against the lag below, in scheduleSchema).
  restate: z
    .array(z.string({ error: 'must be a string' }), { error: 'must be a list of ISO-8601 durations' })
    .optional(),
  // A run's range is cut into windows of at most this many hours (the upstream allows 730).
  maxWindowHours: z
    .number({ error: 'must be a number' })
    .int('must be a whole number of hours')
    .min(1, 'must be at least 1')
    .max(
      MAX_EXPORT_RANGE_HOURS,
      `must be at most ${MAX_EXPORT_RANGE_HOURS} (the upstream's longest export range)`,
    )
    .optional(),
  // Matched in any case, as Scheduler does; written with the zone's own name (`europe/paris` → `Europe/Paris`).
  timeZone: z
    .string({ error: 'must be a string' })
    .transform((name, context) => {
      const canonical = canonicalTimeZone(name);
      if (canonical === undefined) {
        context.addIssue({
          code: 'custom',
          message: 'must be an IANA time zone such as Europe/Paris or UTC',
        });
        return z.NEVER;
      }
      return canonical;
    })
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
};
const scheduleSchema = z.strictObject(scheduleShape).superRefine((schedule, context) => {
  if (schedule.restate === undefined) return;
  const lagSeconds = schedule.lag === undefined ? 0 : (isoDurationSeconds(schedule.lag) ?? 0);
  const problem = restatementAgesProblem(schedule.restate, lagSeconds);
  if (problem !== undefined) context.addIssue({ code: 'custom', path: ['restate'], message: problem });
});

const spotShape = {
  spotId: spotIdSchema(),
  // How far behind the clock the spot may fall before it is stale; default from its schedules.
  freshnessTargetSeconds: stackSettingValue(SETTINGS.freshnessTargetSeconds).optional(),
  schedules: z
    .array(scheduleSchema)
    .default([])
    .transform((schedules) =>
      schedules.map((schedule, index) => ({
        ...schedule,
        name: schedule.name ?? defaultScheduleName(index),
      })),
    )
    .superRefine((schedules, context) => {
      const seen = new Set<string>();
      schedules.forEach((schedule, index) => {
        if (seen.has(schedule.name))
          context.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `${schedule.name} is used twice`,
          });
        seen.add(schedule.name);
      });
    }),
};
const spotSchema = z.strictObject(spotShape);

/** A schedule's name when none is given: by its position among the spot's schedules. */
export function defaultScheduleName(index: number): string {
  return `schedule-${index}`;
}

const iamAuthShape = {
  mode: z.literal('iam'),
  // The spots each role (through any of its sessions) or user may use; unset: any signer, any spot.
  spotsByPrincipal: stackSettingValue(SETTINGS.authSpotsByPrincipal).optional(),
};
const jwtAuthShape = {
  mode: z.literal('jwt'),
  issuer: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  audience: z.array(z.string().min(1, 'must not be empty')).min(1, 'must list at least one audience'),
  scopes: z.array(z.string().min(1, 'must not be empty')).optional(),
  // The claim listing the spots a token may use; the functions then refuse any other x-spot-id.
  spotClaim: stackSettingValue(SETTINGS.authSpotClaim).optional(),
};
const authSchema = z.discriminatedUnion(
  'mode',
  [z.strictObject(iamAuthShape), z.strictObject(jwtAuthShape)],
  {
    error: "mode must be 'iam' or 'jwt'",
  },
);

const emailSchema = z.email({ error: 'must be an email address' });

const pollingShape = stackSettingsShape('polling');
const pollingSchema = z.strictObject(pollingShape).superRefine((value, context) => {
  const polling = value as StackSettings['polling'];
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

const apiShape = stackSettingsShape('api');
const apiSchema = z.strictObject(apiShape);

const coverageSchema = z.strictObject(stackSettingsShape('coverage'));

const archiveShape = stackSettingsShape('archive');
const archiveSchema = z.strictObject(archiveShape).superRefine((value, context) => {
  const archive = value as StackSettings['archive'];
  const ia = archive.infrequentAccessAfterDays;
  if (archive.expireAfterDays !== undefined && ia !== null && archive.expireAfterDays <= ia) {
    context.addIssue({
      code: 'custom',
      path: ['expireAfterDays'],
      message: `must be more than infrequentAccessAfterDays (${ia}), or set infrequentAccessAfterDays to null`,
    });
  }
});

const topShape = {
  ...stackSettingsShape(),
  spots: z.array(spotSchema).default([]),
  auth: authSchema.default({ mode: 'iam' }),
  polling: pollingSchema.prefault({}),
  api: apiSchema.prefault({}),
  coverage: coverageSchema.prefault({}),
  archive: archiveSchema.prefault({}),
  alarmEmail: z
    .union([emailSchema, z.array(emailSchema)], { error: 'must be an email address or a list of them' })
    .optional()
    .transform((value) => (value === undefined ? [] : [value].flat())),
};

const stackConfigSchema = z.strictObject(topShape).superRefine((config, context) => {
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
});

/** The keys each object of the configuration takes, by its path without list indexes. */
const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(topShape),
  spots: Object.keys(spotShape),
  'spots.schedules': Object.keys(scheduleShape),
  auth: [...new Set([...Object.keys(iamAuthShape), ...Object.keys(jwtAuthShape)])],
  polling: Object.keys(pollingShape),
  api: Object.keys(apiShape),
  archive: Object.keys(archiveShape),
};

export type SpotConfig = z.output<typeof spotSchema>;
export type SpotScheduleConfig = SpotConfig['schedules'][number];
export type AuthConfig = z.output<typeof authSchema>;

/** The configuration, validated, defaults filled in. */
export type StackConfig = StackSettings & {
  spots: SpotConfig[];
  auth: AuthConfig;
  /** Addresses the alarms notify; empty for none. */
  alarmEmail: string[];
};

/**
 * The configuration as written (cdk.json context, `LOCAL_STACK_CONFIG`, the construct's props),
 * before defaults: every key optional. docs/configuration.md describes each key.
 */
export type StackConfigInput = StackSettingsInput & {
  spots?: z.input<typeof spotSchema>[];
  auth?: z.input<typeof authSchema>;
  alarmEmail?: string | string[];
};

export type PollingConfig = StackConfig['polling'];
export type ArchiveStackConfig = StackConfig['archive'];
export type LogLevel = StackConfig['logLevel'];
export type WorkflowLogLevel = StackConfig['workflowLogLevel'];

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

/** `"spot" (did you mean "spots"?)`: the closest key the object at `path` takes, when one is close. */
function describeUnknownKey(key: string, path: readonly PropertyKey[]): string {
  const known = KNOWN_KEYS[path.filter((segment) => typeof segment === 'string').join('.')] ?? [];
  const suggestion = suggestName(key, known);
  return suggestion === undefined ? `"${key}"` : `"${key}" (did you mean "${suggestion}"?)`;
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
          ? `${describePath(source, issue.path)}: unknown key ${unknownKeys.map((key) => describeUnknownKey(key, issue.path)).join(', ')}`
          : `${describePath(source, issue.path)}: ${issue.message}`;
      }),
      source,
    );
  }
  return parsed.data as StackConfig;
}

/** The config from the app's context (`-c openwebExports='{...}'` or cdk.json `context.openwebExports`). */
export function readStackConfig(scope: Construct): StackConfig {
  return parseStackConfig(scope.node.tryGetContext(STACK_CONFIG_CONTEXT_KEY));
}
