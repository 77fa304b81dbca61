import * as z from 'zod/mini';
import { BACKFILL_ID_PATTERN } from '../exports/backfill/BackfillRecord';
import { BackfillStatus } from '../exports/backfill/backfillProgress';
import {
  backfillWindowCountsSchema,
  backfillWindowProgressSchema,
} from '../exports/backfill/backfillProgressSchema';
import { instantField, spotIdField } from '../exports/record/viewFields';
import { MAX_EXPORT_RANGE_HOURS } from '../exports/requests/exportRequestLimits';

/**
 * A backfill as the API shows it: the types ./backfillView.ts builds are inferred from these
 * schemas, the OpenAPI document is generated from them and the CLI checks the API's answers with
 * them. The functions import only the types.
 */

export const backfillWindowSchema = z
  .object({ from: z.string(), until: z.string() })
  .register(z.globalRegistry, {
    id: 'BackfillWindow',
    description: '`[from, until)`, RFC 3339 UTC instants to the second.',
  });

const windowCount = () => z.int().check(z.gte(0));

const backfillPlanSchema = z
  .object({
    windowCount: windowCount(),
    windows: z.array(backfillWindowSchema).check(z.describe('The windows it exports, by start.')),
    skipped: z
      .array(backfillWindowSchema)
      .check(
        z.describe('Stretches of the range the coverage ledger already held (covered, in flight, retrying).'),
      ),
    skippedHours: z.number().check(z.gte(0)),
  })
  .check(z.describe('What it planned. A gap of the ledger is exported again with its own bounds.'));

export const backfillViewSchema = z
  .object({
    backfillId: z
      .string()
      .check(
        z.regex(BACKFILL_ID_PATTERN),
        z.describe('Our id of the backfill: `bf_` and 26 characters that sort by creation time.'),
      ),
    spotId: spotIdField,
    from: z.string(),
    until: z.string(),
    windowHours: z.int().check(z.gte(1), z.lte(MAX_EXPORT_RANGE_HOURS)),
    createdAt: instantField,
    abortedAt: z.optional(instantField),
    recording: z
      .boolean()
      .check(
        z.describe(
          'True while its windows are still being recorded (the reconciler records what a request could not).',
        ),
      ),
    plan: backfillPlanSchema,
    status: z
      .enum(BackfillStatus)
      .check(
        z.describe(
          'RUNNING while windows are pending, queued, running or retrying; COMPLETED once each is DONE or a GAP; ABORTED.',
        ),
      ),
    progress: z.object({
      windows: backfillWindowCountsSchema,
      rowsArchived: z.int().check(z.gte(0)),
      elapsedSeconds: z.int().check(z.gte(0)),
      etaSeconds: z
        .optional(z.int().check(z.gte(0)))
        .check(
          z.describe(
            "Seconds left, from the spot's recent export durations; absent with nothing to learn from.",
          ),
        ),
    }),
    windows: z.array(backfillWindowProgressSchema),
  })
  .register(z.globalRegistry, {
    id: 'Backfill',
    description: 'A backfill, its plan and where each of its windows stands.',
  });

/** A backfill with where it stands: what every backfill route answers. */
export type BackfillView = z.infer<typeof backfillViewSchema>;
