import * as z from 'zod/mini';
import { exportRequestSchema } from '../exports/exportRequestSchema';
import { spotIdSchema } from '../exports/spotId';
import type { StartExportCommand } from '../exports/startExport';
import { InvalidScheduledExportEventError } from './errors';
import { isoDurationSeconds } from './isoDurationSeconds';

/**
 * What an EventBridge Scheduler schedule sends to the start function. `scheduledTime`
 * is Scheduler's `<aws.scheduler.scheduled-time>`, so a redelivery carries the same value.
 */
export interface ScheduledExportEvent {
  source: 'schedule';
  spotId: string;
  /** ISO-8601 duration, e.g. `P1D`: the export covers this much time up to the scheduled time. */
  window: string;
  scheduledTime: string;
}

const MS_PER_SECOND = 1000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

const scheduledExportEventSchema = z.object({
  source: z.literal('schedule'),
  spotId: spotIdSchema,
  window: z
    .string({ error: 'must be a string' })
    .check(
      z.refine(
        (text: string) => (isoDurationSeconds(text) ?? 0) > 0,
        'must be an ISO-8601 duration like P1D or PT6H',
      ),
    ),
  scheduledTime: z.string({ error: 'must be a string' }).check(
    z.regex(ISO_INSTANT, 'must be an ISO-8601 instant'),
    z.refine((text: string) => Number.isFinite(Date.parse(text)), 'is not a real instant'),
  ),
});

export function isScheduledExportEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { source?: unknown }).source === 'schedule';
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the upstream's instant format. */
export function toWholeSecondInstant(ms: number): string {
  return new Date(Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The start a scheduled event asks for: the window ending at the scheduled time,
 * both ends on whole seconds. The idempotency key is derived from the window and its
 * end, so a redelivered event (same scheduled time) starts nothing new.
 * @throws InvalidScheduledExportEventError
 */
export function scheduledStartCommand(event: unknown): StartExportCommand {
  const parsed = scheduledExportEventSchema.safeParse(event);
  if (!parsed.success) throw new InvalidScheduledExportEventError(describe(parsed.error));
  const { spotId, window, scheduledTime } = parsed.data;
  const untilMs = Math.floor(Date.parse(scheduledTime) / MS_PER_SECOND) * MS_PER_SECOND;
  const fromMs = untilMs - (isoDurationSeconds(window) ?? 0) * MS_PER_SECOND;
  const until = toWholeSecondInstant(untilMs);
  const request = exportRequestSchema(spotId).safeParse({ from: toWholeSecondInstant(fromMs), until });
  if (!request.success) throw new InvalidScheduledExportEventError(describe(request.error));
  return { spotId, request: request.data, source: 'schedule', idempotencyKey: `schedule:${window}:${until}` };
}

function describe(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`);
}
