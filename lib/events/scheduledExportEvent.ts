import * as z from 'zod/mini';
import { schemaOnFirstUse } from '../exports/record/schemaOnFirstUse';
import { spotIdSchema } from '../exports/record/spotIdSchema';
import { MAX_EXPORT_RANGE_HOURS } from '../exports/requests/exportRequestLimits';
import { InvalidRestatementAgesError } from '../exports/restatement/errors';
import { checkedRestatementAges } from '../exports/restatement/restatementAges';
import { isoDurationSeconds } from '../exports/time/isoDurationSeconds';
import { InvalidScheduledExportEventError } from './errors';

/**
 * What an EventBridge Scheduler schedule sends to the start function. `scheduledTime` is
 * Scheduler's `<aws.scheduler.scheduled-time>`, so a redelivery carries the same value.
 */
export interface ScheduledExportEvent {
  source: 'schedule';
  spotId: string;
  /** The schedule's name among the spot's: its watermark is kept under it. */
  schedule: string;
  /** ISO-8601 duration, e.g. `P1D`: what the schedule's first run exports, up to its scheduled time. */
  window: string;
  /** ISO-8601 duration: each run's exports end this long before the scheduled time. */
  lag?: string;
  /** A run's range is cut into windows of at most this many hours. */
  maxWindowHours?: number;
  /** ISO-8601 durations: the ages at which each covered window is exported again (`["P1D", "P7D"]`). */
  restate?: string[];
  scheduledTime: string;
}

/** A scheduled run, read from its event. */
export interface ScheduledRun {
  spotId: string;
  schedule: string;
  /** Epoch ms, whole seconds. */
  scheduledTimeMs: number;
  firstWindowSeconds: number;
  lagSeconds: number;
  maxWindowHours: number;
  /** Shortest first; empty: never restated. */
  restate: string[];
}

const MS_PER_SECOND = 1000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

const duration = (positive: boolean) =>
  z.string({ error: 'must be a string' }).check(
    z.refine((text: string) => {
      const seconds = isoDurationSeconds(text);
      return seconds !== undefined && (positive ? seconds > 0 : seconds >= 0);
    }, 'must be an ISO-8601 duration like P1D or PT6H'),
  );

/** Built by the first scheduled run: an API start never parses one. */
const scheduledExportEventSchema = schemaOnFirstUse(() =>
  z.object({
    source: z.literal('schedule'),
    spotId: spotIdSchema(),
    schedule: z
      .string({ error: 'must be a string' })
      .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a schedule name')),
    window: duration(true),
    lag: z.optional(duration(false)),
    maxWindowHours: z.optional(
      z
        .number({ error: 'must be a number' })
        .check(
          z.int('must be an integer'),
          z.gte(1, 'must be at least 1'),
          z.lte(MAX_EXPORT_RANGE_HOURS, `must be at most ${MAX_EXPORT_RANGE_HOURS}`),
        ),
    ),
    restate: z.optional(
      z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of durations' }),
    ),
    scheduledTime: z.string({ error: 'must be a string' }).check(
      z.regex(ISO_INSTANT, 'must be an ISO-8601 instant'),
      z.refine((text: string) => Number.isFinite(Date.parse(text)), 'is not a real instant'),
    ),
  }),
);

export function isScheduledExportEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { source?: unknown }).source === 'schedule';
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the upstream's instant format. */
export function toWholeSecondInstant(ms: number): string {
  return new Date(Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The run a scheduled event asks for. @throws InvalidScheduledExportEventError */
export function scheduledRunOf(event: unknown): ScheduledRun {
  const parsed = scheduledExportEventSchema().safeParse(event);
  if (!parsed.success) throw new InvalidScheduledExportEventError(describe(parsed.error));
  const { spotId, schedule, window, lag, maxWindowHours, scheduledTime, restate = [] } = parsed.data;
  const lagSeconds = lag === undefined ? 0 : (isoDurationSeconds(lag) ?? 0);
  return {
    spotId,
    schedule,
    scheduledTimeMs: Math.floor(Date.parse(scheduledTime) / MS_PER_SECOND) * MS_PER_SECOND,
    firstWindowSeconds: isoDurationSeconds(window) ?? 0,
    lagSeconds,
    maxWindowHours: maxWindowHours ?? MAX_EXPORT_RANGE_HOURS,
    restate: restatementAgesOf(restate, lagSeconds),
  };
}

/** @throws InvalidScheduledExportEventError naming what is wrong with the ages */
function restatementAgesOf(ages: readonly string[], lagSeconds: number): string[] {
  try {
    return checkedRestatementAges(ages, lagSeconds);
  } catch (error) {
    if (error instanceof InvalidRestatementAgesError)
      throw new InvalidScheduledExportEventError([`restate: ${error.why}`]);
    throw error;
  }
}

function describe(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`);
}
