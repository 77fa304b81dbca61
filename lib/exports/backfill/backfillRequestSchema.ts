import * as z from 'zod/mini';
import { MAX_WINDOW_HOURS } from '../coverage/planWindows';
import { schemaOnFirstUse } from '../record/schemaOnFirstUse';
import { FUTURE_WINDOW_ALLOWANCE_SECONDS } from '../requests/exportRequestLimits';
import { rfc3339InstantSchema } from '../requests/exportRequestSchema';
import { DEFAULT_BACKFILL_WINDOW_HOURS } from './BackfillRecord';

const MS_PER_SECOND = 1000;

export interface BackfillRequest {
  from: string;
  until: string;
  windowHours: number;
  /** Also export again the hours the ledger covers (each covered window once, a new version of it). */
  refresh?: boolean;
}

/** A backfill's body's shape; the checks between its fields come on top, in `backfillRequestSchema`. */
export const backfillRequestShape = schemaOnFirstUse(() =>
  z.strictObject({
    from: rfc3339InstantSchema(),
    until: rfc3339InstantSchema(),
    windowHours: z.optional(
      z
        .number({ error: 'must be a number' })
        .check(
          z.int('must be an integer'),
          z.gte(1, 'must be at least 1'),
          z.lte(MAX_WINDOW_HOURS, `must be at most ${MAX_WINDOW_HOURS} (the upstream's longest range)`),
        ),
    ),
    refresh: z.optional(z.boolean({ error: 'must be true or false' })),
  }),
);

/**
 * The body of a backfill: `from` and `until` (RFC 3339 UTC, whole seconds; `until` not in the
 * future), `windowHours` (1 to 730, default 730) and `refresh` (default false: covered hours are
 * skipped). Unknown fields are refused.
 */
export function backfillRequestSchema(options: { nowMs: number }): z.ZodMiniType<BackfillRequest> {
  const shape = backfillRequestShape();
  return z.pipe(
    shape.check(
      z.superRefine((value: z.output<typeof shape>, context) => {
        const untilMs = Date.parse(value.until);
        if (untilMs > options.nowMs + FUTURE_WINDOW_ALLOWANCE_SECONDS * MS_PER_SECOND) {
          context.addIssue({
            code: 'custom',
            path: ['until'],
            message: 'must not be in the future: comments that are not written yet cannot be exported',
          });
        } else if (Date.parse(value.from) >= untilMs) {
          context.addIssue({ code: 'custom', path: ['until'], message: 'must be after from' });
        }
      }),
    ),
    z.transform(
      (value): BackfillRequest => ({
        from: value.from,
        until: value.until,
        windowHours: value.windowHours ?? DEFAULT_BACKFILL_WINDOW_HOURS,
        ...(value.refresh === true && { refresh: true }),
      }),
    ),
  ) as unknown as z.ZodMiniType<BackfillRequest>;
}
