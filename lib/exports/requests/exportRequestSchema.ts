import * as z from 'zod/mini';
import type { ExportRequest } from '../record/ExportRecord';
import { schemaOnFirstUse } from '../record/schemaOnFirstUse';
import { RFC3339_UTC_SECONDS } from '../time/instants';
import {
  CSV_DELIMITERS,
  FUTURE_WINDOW_ALLOWANCE_SECONDS,
  MAX_EXPORT_RANGE_HOURS,
  MAX_RECORDS_IN_FILE,
} from './exportRequestLimits';

const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 60 * 60 * MS_PER_SECOND;
const POST_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

// The schemas are built by the first start request (./schemaOnFirstUse.ts): a
// scheduled run of the same function parses none of them.

/** An RFC 3339 UTC instant to the second, `2026-01-31T00:00:00Z`, that names a real date; built on first use. */
export const rfc3339InstantSchema = schemaOnFirstUse(() =>
  z.string({ error: 'must be a string' }).check(
    z.regex(RFC3339_UTC_SECONDS, 'must be an RFC 3339 UTC instant like 2026-01-31T00:00:00Z'),
    z.refine(
      (value: string) =>
        !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value.slice(0, 19)),
      'is not a real date',
    ),
  ),
);

const fileOptions = schemaOnFirstUse(() => ({
  delimiter: z.optional(z.enum(CSV_DELIMITERS, { error: 'must be one of , ; | or a tab' })),
  maxRecordsInFile: z.optional(
    z
      .number({ error: 'must be a number' })
      .check(
        z.int('must be an integer'),
        z.gte(1, 'must be at least 1'),
        z.lte(MAX_RECORDS_IN_FILE, `must be at most ${MAX_RECORDS_IN_FILE}`),
      ),
  ),
}));

export interface ExportRequestSchemaOptions {
  /** Epoch ms; when given, a window that ends later than this (plus the allowance) is refused. */
  nowMs?: number;
}

/** A date range request's shape; the checks between its fields come on top, in `dateRangeSchema`. */
export const dateRangeRequestShape = schemaOnFirstUse(() =>
  z.strictObject({ from: rfc3339InstantSchema(), until: rfc3339InstantSchema(), ...fileOptions() }),
);

const dateRangeSchema = (options: ExportRequestSchemaOptions) =>
  dateRangeRequestShape().check(
    z.superRefine((value: z.output<ReturnType<typeof dateRangeRequestShape>>, context) => {
      const fromMs = Date.parse(value.from);
      const untilMs = Date.parse(value.until);
      if (
        options.nowMs !== undefined &&
        untilMs > options.nowMs + FUTURE_WINDOW_ALLOWANCE_SECONDS * MS_PER_SECOND
      ) {
        const now = new Date(Math.floor(options.nowMs / MS_PER_SECOND) * MS_PER_SECOND)
          .toISOString()
          .replace('.000Z', 'Z');
        context.addIssue({
          code: 'custom',
          path: ['until'],
          message:
            `must not be in the future (it is ${now} on the server, which allows ` +
            `${FUTURE_WINDOW_ALLOWANCE_SECONDS} s of clock skew): comments that are not written yet cannot be exported`,
        });
      } else if (fromMs >= untilMs) {
        context.addIssue({ code: 'custom', path: ['until'], message: 'must be after from' });
      } else if (untilMs - fromMs > MAX_EXPORT_RANGE_HOURS * MS_PER_HOUR) {
        context.addIssue({
          code: 'custom',
          path: ['until'],
          message: `the range may span at most ${MAX_EXPORT_RANGE_HOURS} hours`,
        });
      }
    }),
  );

/** A conversation request's shape; `exportRequestSchema` also checks the id names the caller's spot. */
export const conversationRequestShape = schemaOnFirstUse(() =>
  z.strictObject({
    conversationId: z
      .string({ error: 'must be a string' })
      .check(z.minLength(1, 'must not be empty'), z.maxLength(300)),
    ...fileOptions(),
  }),
);

/**
 * The body of a start request: `{from, until}` or `{conversationId}`, plus optional
 * `delimiter` and `maxRecordsInFile`. Unknown fields are refused, so a typo is not silently ignored.
 */
export function exportRequestSchema(
  spotId: string,
  options: ExportRequestSchemaOptions = {},
): z.ZodMiniType<ExportRequest> {
  const conversation = conversationRequestShape().check(
    z.refine(
      (value: z.output<ReturnType<typeof conversationRequestShape>>) =>
        value.conversationId.startsWith(`${spotId}_`) &&
        POST_ID.test(value.conversationId.slice(spotId.length + 1)),
      { path: ['conversationId'], message: `must be ${spotId}_<postId>` },
    ),
  );
  const body = z.unknown().check(
    z.superRefine((value: unknown, context) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        context.addIssue({ code: 'custom', message: 'the body must be a JSON object' });
      } else if ('conversationId' in value === ('from' in value || 'until' in value)) {
        context.addIssue({
          code: 'custom',
          message: 'give either from and until (a date range) or conversationId, not both or neither',
        });
      }
    }),
  );
  return z.pipe(
    z.pipe(body, z.union([dateRangeSchema(options), conversation])),
    z.transform(
      (value): ExportRequest =>
        'conversationId' in value ? { kind: 'conversation', ...value } : { kind: 'dateRange', ...value },
    ),
  ) as unknown as z.ZodMiniType<ExportRequest>;
}
