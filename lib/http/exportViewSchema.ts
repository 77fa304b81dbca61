import * as z from 'zod/mini';
import { archiveSummarySchema } from '../archive/archivedFilesSchema';
import { UpstreamWaitKind } from '../errors/ClassifiedError';
import { exportCostSchema, exportsTotalSchema, exportUsageSchema } from '../exports/cost/exportCostSchema';
import { ExportStatus } from '../exports/record/ExportStatus';
import { exportIdField, instantField, spotIdField } from '../exports/record/viewFields';
import { conversationRequestShape, dateRangeRequestShape } from '../exports/requests/exportRequestSchema';
import { MAX_VIEW_LINK_BYTES } from './exportView';

/**
 * An export as the API shows it, one zod/mini schema per part: the types ./exportView.ts builds
 * are inferred from them, the OpenAPI document is generated from them and the CLI checks the
 * API's answers with them. The functions import only the types, so none of this is bundled.
 */

export const exportRequestViewSchema = z
  .union([
    z.extend(dateRangeRequestShape(), { kind: z.literal('dateRange') }),
    z.extend(conversationRequestShape(), { kind: z.literal('conversation') }),
  ])
  .register(z.globalRegistry, {
    id: 'ExportRequest',
    description: 'The request as accepted, with its `kind`.',
  });

export const upstreamWaitSchema = z
  .object({
    attempts: z.int().check(z.gte(0), z.describe('Create attempts so far.')),
    lastErrorKind: z
      .optional(z.enum(UpstreamWaitKind))
      .check(z.describe('Why the last attempt was put off.')),
    lastErrorAt: z.optional(instantField),
    nextAttemptAt: z
      .optional(instantField)
      .check(z.describe('When the upstream (or the auth pacer) said the next attempt may go, if it said.')),
  })
  .register(z.globalRegistry, {
    id: 'UpstreamWait',
    description:
      'While `REQUESTED` after a create attempt was put off: why the export still waits for OpenWeb.',
  });

/** While REQUESTED after a create attempt was put off: why the export still waits for the upstream. */
export type UpstreamWaitView = z.infer<typeof upstreamWaitSchema>;

export const originSchema = z
  .object({
    schedule: z.optional(z.string()).check(z.describe('The schedule whose run planned the window.')),
    backfillId: z.optional(z.string()).check(z.describe('The backfill the export is a window of.')),
    restatement: z
      .optional(z.object({ age: z.string() }))
      .check(
        z.describe(
          'A restatement: the window was covered already and is exported again at this age (an ISO 8601 duration).',
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'ExportOrigin',
    description: 'What planned the export, for the coverage ledger.',
  });

export const queueSchema = z
  .object({
    position: z
      .optional(z.int().check(z.gte(1)))
      .check(z.describe('1 = the next to start once the spot frees.')),
    priority: z
      .enum(['first', 'restatement', 'backfill'])
      .check(
        z.describe(
          '`first`: API starts and scheduled runs; `restatement`: covered windows exported again, after them; `backfill`: windows of a backfill, last.',
        ),
      ),
    enqueuedAt: instantField,
  })
  .register(z.globalRegistry, {
    id: 'QueuePlace',
    description: "While QUEUED: where the export waits in its spot's queue.",
  });

/** A queued export's place: scheduled runs and API starts ahead of backfill windows, first in first out within each. */
export type QueueView = z.infer<typeof queueSchema>;

export const exportViewSchema = z
  .object({
    exportId: exportIdField,
    spotId: spotIdField,
    status: z
      .enum(ExportStatus)
      .check(
        z.describe(
          "QUEUED (waiting in its spot's queue) → REQUESTED → PROCESSING → COMPLETED or FAILED; " +
            'ABORTING → ABORTED after an abort (a QUEUED export is ABORTED at once). ' +
            'COMPLETED, FAILED and ABORTED are final.',
        ),
      ),
    upstreamStatus: z.optional(z.string()).check(z.describe("OpenWeb's own status string, as received.")),
    upstreamExportId: z.optional(z.string()).check(z.describe("OpenWeb's id of the export.")),
    request: exportRequestViewSchema,
    links: z
      .array(z.string())
      .check(
        z.describe(
          'Download links of the CSV files once COMPLETED (signed, short-lived): the first ones, ' +
            `as many as fit in ${MAX_VIEW_LINK_BYTES / 1024} KiB. The archive holds every file.`,
        ),
      ),
    linkCount: z.int().check(z.gte(0), z.describe('How many download links the export has.')),
    linksTruncated: z
      .optional(z.literal(true))
      .check(z.describe('Present (true) when `links` lists only the first of the `linkCount` links.')),
    requestedAt: instantField,
    startedAt: z.optional(instantField),
    completedAt: z.optional(instantField),
    lastPolledAt: z.optional(instantField),
    pollCount: z.int().check(z.gte(0)),
    urgent: z.optional(z.literal(true)).check(z.describe('The start asked for close polling.')),
    source: z
      .enum(['api', 'schedule', 'backfill'])
      .check(z.describe('Started through the API, by a schedule, or as a window of a backfill.')),
    origin: z.optional(originSchema),
    queue: z.optional(queueSchema),
    dequeuedAt: z
      .optional(instantField)
      .check(z.describe("When it left its spot's queue and took the spot; its deadline counts from here.")),
    failureReason: z.optional(z.string()),
    upstreamWait: z.optional(upstreamWaitSchema),
    archive: archiveSummarySchema,
    usage: exportUsageSchema,
    cost: exportCostSchema,
  })
  .register(z.globalRegistry, { id: 'Export', description: 'An export as the API shows it.' });

/** An export as the API shows it: no storage bookkeeping (version) and no idempotency key. */
export type ExportView = z.infer<typeof exportViewSchema>;

export const exportListSchema = z
  .object({
    items: z.array(exportViewSchema).check(z.describe('Newest first.')),
    total: exportsTotalSchema,
    nextToken: z
      .optional(z.string())
      .check(z.describe('Present when there are more: pass it back as `nextToken` for the next page.')),
  })
  .register(z.globalRegistry, { id: 'ExportList' });

/** A page of `GET /exports`. */
export type ExportList = z.infer<typeof exportListSchema>;
