import { z } from 'zod';
import * as zm from 'zod/mini';
import {
  archivedFileSchema,
  archivedFilesSchema,
  archiveStateSchema,
  archiveSummarySchema,
} from '../lib/archive/archivedFilesSchema';
import { fieldProblemSchema } from '../lib/errors/fieldProblemSchema';
import {
  BACKFILL_ID_PATTERN,
  DEFAULT_BACKFILL_WINDOW_HOURS,
  MAX_BACKFILL_WINDOWS,
} from '../lib/exports/backfill/BackfillRecord';
import { BackfillStatus } from '../lib/exports/backfill/backfillProgress';
import {
  backfillWindowCountsSchema,
  backfillWindowProgressSchema,
} from '../lib/exports/backfill/backfillProgressSchema';
import { backfillRequestShape } from '../lib/exports/backfill/backfillRequestSchema';
import {
  exportCostSchema,
  exportsTotalSchema,
  exportUsageSchema,
} from '../lib/exports/cost/exportCostSchema';
import {
  coverageGapSchema,
  coverageSummarySchema,
  coveredWindowSchema,
  instantIntervalSchema,
  spotCoverageSchema,
  watermarkSchema,
  windowInFlightSchema,
  windowRestatementSchema,
  windowSourceSchema,
  windowVersionSchema,
} from '../lib/exports/coverage/spotCoverageSchema';
import { USER_ID_PATTERN } from '../lib/exports/erasure/ErasureRecord';
import type { SpotStatus } from '../lib/exports/fleet/fleetStatus';
import { ExportStatus } from '../lib/exports/record/ExportStatus';
import { EXPORT_ID_PATTERN } from '../lib/exports/record/exportId';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { CSV_DELIMITERS, MAX_EXPORT_RANGE_HOURS } from '../lib/exports/requests/exportRequestLimits';
import { conversationRequestShape, dateRangeRequestShape } from '../lib/exports/requests/exportRequestSchema';
import { backfillViewSchema, backfillWindowSchema } from '../lib/http/backfillViewSchema';
import {
  erasedFileViewSchema,
  erasureListSchema,
  erasureVerificationSchema,
  erasureViewSchema,
} from '../lib/http/erasureViewSchema';
import {
  exportListSchema,
  exportRequestViewSchema,
  exportViewSchema,
  originSchema,
  queueSchema,
  upstreamWaitSchema,
} from '../lib/http/exportViewSchema';
import { gatewayMessageSchema, problemSchema } from '../lib/http/problemSchema';

/**
 * The schemas of the OpenAPI document's bodies. Every answer's schema is the one its type is
 * inferred from, beside the code that builds it (lib/http/*Schema.ts,
 * lib/archive/archivedFilesSchema.ts, lib/exports/coverage/spotCoverageSchema.ts,
 * lib/exports/backfill/backfillProgressSchema.ts); request bodies are the handlers' own schemas,
 * copied here with the document's metadata.
 */

/** A copy of a handler's schema (built for parsing, without metadata) with the document's metadata. */
function described<S extends zm.ZodMiniType>(schema: S, meta: z.GlobalMeta): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

const whenBusy = z
  .enum(['reject', 'queue'])
  .optional()
  .meta({
    description:
      'What happens while the spot runs another export: `reject` (the default) answers 409 `spot-busy`; ' +
      "`queue` records the export `QUEUED` in the spot's queue, started as soon as the spot frees " +
      '(scheduled runs and API starts first in, first out; backfill windows after them).',
  });

const urgent = z
  .boolean()
  .optional()
  .meta({
    description:
      'true: someone waits for this export, so its polls come every few seconds around its expected end ' +
      "(as for an export with something queued behind it). Otherwise, with nothing in the spot's queue, the " +
      'first poll comes when most of its recent exports had ended, and polls back off after it.',
  });

export const dateRangeRequestSchema = described(zm.extend(dateRangeRequestShape(), { whenBusy, urgent }), {
  id: 'DateRangeExportRequest',
  title: 'Date range export request',
  description:
    `Every comment of the spot in \`[from, until)\`: both RFC 3339 UTC instants to the second, ` +
    `\`until\` after \`from\`, at most ${MAX_EXPORT_RANGE_HOURS} hours apart.`,
});

export const conversationRequestSchema = described(
  zm.extend(conversationRequestShape(), { whenBusy, urgent }),
  {
    id: 'ConversationExportRequest',
    title: 'Conversation export request',
    description:
      "Every comment of one conversation: `conversationId` is `<spotId>_<postId>` of the caller's spot.",
  },
);

export const startExportBodySchema = z.union([dateRangeRequestSchema, conversationRequestSchema]).meta({
  id: 'StartExportRequest',
  description:
    'Either `from` and `until` or `conversationId`, with the optional CSV settings `delimiter` ' +
    `(one of ${CSV_DELIMITERS.map((delimiter) => JSON.stringify(delimiter)).join(', ')}) and ` +
    '`maxRecordsInFile`, `whenBusy` and `urgent`. Unknown fields are refused.',
});

export const backfillRequestSchema = described(backfillRequestShape(), {
  id: 'BackfillRequest',
  title: 'Backfill request',
  description:
    '`[from, until)` of the spot to export: both RFC 3339 UTC instants to the second, `until` after `from` and ' +
    `not in the future. \`windowHours\` (1 to ${MAX_EXPORT_RANGE_HOURS}, default ${DEFAULT_BACKFILL_WINDOW_HOURS}) ` +
    `is the longest window one export covers; the range may need at most ${MAX_BACKFILL_WINDOWS} windows. ` +
    'Unknown fields are refused.',
});

export const erasureRequestSchema = z
  .strictObject({
    userId: z.string().regex(USER_ID_PATTERN).meta({
      description: "The upstream's id of the user to erase: 1 to 128 letters, digits or `_ . : @ + -`.",
    }),
  })
  .meta({
    id: 'ErasureRequest',
    title: 'Erasure request',
    description: 'The user to erase from every archived file of the spot. Unknown fields are refused.',
  });

/** The schemas the document lists under `components.schemas`, in this order. */

// The fleet's answers (GET /spots) and the backfill listing are still described here, held to
// the types the handlers build at compile time below.
const exportId = z
  .string()
  .regex(EXPORT_ID_PATTERN)
  .meta({ description: 'Our id of the export: `ex_` and 26 characters that sort by creation time.' });
const spotId = z.string().regex(SPOT_ID_PATTERN).meta({ description: 'The OpenWeb spot.' });
const instant = z
  .string()
  .meta({ description: 'An ISO 8601 instant in UTC, like `2026-01-31T00:00:00.000Z`.' });

const secondInstant = z
  .string()
  .meta({ description: 'An RFC 3339 instant in UTC to the second, like `2026-01-31T00:00:00Z`.' });

export const backfillListSchema = z
  .strictObject({
    items: z.array(backfillViewSchema).meta({ description: 'Newest first.' }),
    nextToken: z
      .string()
      .optional()
      .meta({ description: 'Present when there are more: pass it back as `nextToken` for the next page.' }),
  })
  .meta({ id: 'BackfillList' });

const nullableInstant = secondInstant.nullable();

const spotStatusSchema = z
  .strictObject({
    spotId,
    configured: z.boolean().meta({
      description:
        "In the deployment's configuration; false for a spot known by its running or queued exports only.",
    }),
    coveredUntil: nullableInstant.meta({
      description:
        "Every hour the spot's schedules planned before this is covered (archived); for a spot without schedules, the end of its newest covered window; null when nothing is.",
    }),
    hoursBehind: z.number().min(0).nullable().meta({ description: 'Now − `coveredUntil`, in hours.' }),
    freshnessTargetHours: z.number().min(0).nullable().meta({
      description:
        'How far behind the spot may fall (configuration, else twice its schedule period plus its lag); null: none.',
    }),
    stale: z.boolean().meta({
      description: 'Behind by more than its target. A spot without a target is never stale.',
    }),
    running: z
      .strictObject({
        exportId,
        status: z.enum(ExportStatus),
        since: instant.meta({ description: 'When it took the spot.' }),
        ageSeconds: z.number().int().min(0),
      })
      .optional()
      .meta({ description: 'The export holding the spot, if any.' }),
    queued: z.number().int().min(0).meta({ description: "Exports waiting in the spot's queue." }),
    backfills: z
      .array(
        z.strictObject({
          backfillId: z.string().regex(BACKFILL_ID_PATTERN),
          from: z.string(),
          until: z.string(),
          status: z.enum(BackfillStatus),
          windowsDone: z.number().int().min(0),
          windowsTotal: z.number().int().min(0),
          gaps: z.number().int().min(0),
        }),
      )
      .meta({ description: 'Open backfills (up to 5), with their progress.' }),
    gaps: z
      .strictObject({
        count: z.number().int().min(0),
        hours: z.number().min(0).meta({ description: 'Hours of those gaps no other window covers.' }),
        newestReason: z.string().optional(),
        newestFrom: secondInstant.optional(),
      })
      .meta({ description: 'Windows given up on in the last 30 days.' }),
    restatements: z
      .strictObject({
        provisionalHours: z.number().min(0).meta({
          description:
            'Covered hours of the last 30 days no settled window holds: a restatement of them is to come.',
        }),
        waiting: z.number().int().min(0).meta({
          description: "Covered windows whose restatement is due but waits for the spot's daily budget.",
        }),
      })
      .meta({ description: 'How current the covered hours are (schedules with `restate`).' }),
    lastFailure: z
      .strictObject({ exportId, at: instant, reason: z.string() })
      .optional()
      .meta({ description: "The spot's newest FAILED export." }),
  })
  .meta({ id: 'SpotStatus', description: 'A spot at a glance.' });

export const fleetPageSchema = z
  .strictObject({
    items: z.array(spotStatusSchema).meta({ description: 'By spot id.' }),
    nextToken: z
      .string()
      .optional()
      .meta({ description: 'Present when there are more: pass it back as `nextToken` for the next page.' }),
  })
  .meta({ id: 'FleetPage' });

export const COMPONENT_SCHEMAS = [
  startExportBodySchema,
  dateRangeRequestSchema,
  conversationRequestSchema,
  exportViewSchema,
  exportRequestViewSchema,
  upstreamWaitSchema,
  originSchema,
  queueSchema,
  exportListSchema,
  exportUsageSchema,
  exportCostSchema,
  exportsTotalSchema,
  archiveSummarySchema,
  archiveStateSchema,
  archivedFileSchema,
  archivedFilesSchema,
  problemSchema,
  fieldProblemSchema,
  gatewayMessageSchema,
  spotCoverageSchema,
  instantIntervalSchema,
  windowSourceSchema,
  coverageGapSchema,
  windowInFlightSchema,
  coveredWindowSchema,
  windowVersionSchema,
  windowRestatementSchema,
  watermarkSchema,
  coverageSummarySchema,
  backfillRequestSchema,
  backfillViewSchema,
  backfillWindowSchema,
  backfillWindowProgressSchema,
  backfillWindowCountsSchema,
  backfillListSchema,
  spotStatusSchema,
  fleetPageSchema,
  erasureRequestSchema,
  erasureViewSchema,
  erasedFileViewSchema,
  erasureVerificationSchema,
  erasureListSchema,
] as const;

// The schemas of the answers described here allow only values of the handlers' types, and have
// each field of them.
type Describes<S, T> = [S] extends [T] ? ([Exclude<keyof T, keyof S>] extends [never] ? true : false) : false;
export const RESPONSE_SCHEMAS_DESCRIBE_TYPES: Describes<z.output<typeof spotStatusSchema>, SpotStatus> = true;
