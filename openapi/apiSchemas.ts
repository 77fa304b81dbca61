import { z } from 'zod';
import * as zm from 'zod/mini';
import type { ArchivedFilesView } from '../lib/archive/archivedFiles';
import { UpstreamWaitKind } from '../lib/errors/ClassifiedError';
import type { FieldProblem } from '../lib/errors/problems';
import {
  BACKFILL_ID_PATTERN,
  DEFAULT_BACKFILL_WINDOW_HOURS,
  MAX_BACKFILL_WINDOWS,
} from '../lib/exports/backfill/BackfillRecord';
import { BackfillStatus, BackfillWindowState } from '../lib/exports/backfill/backfillProgress';
import { backfillRequestShape } from '../lib/exports/backfill/backfillRequestSchema';
import type { ExportsTotal } from '../lib/exports/cost/totalOfExports';
import type { WindowSource } from '../lib/exports/coverage/CoverageLedger';
import type {
  CoverageGapView,
  CoverageSummary,
  InstantInterval,
  WindowInFlightView,
} from '../lib/exports/coverage/coverageOfWindows';
import type { SpotCoverage, WatermarkView } from '../lib/exports/coverage/spotCoverage';
import type { SpotStatus } from '../lib/exports/fleet/fleetStatus';
import type { ExportRequest } from '../lib/exports/record/ExportRecord';
import { ExportStatus } from '../lib/exports/record/ExportStatus';
import { EXPORT_ID_PATTERN } from '../lib/exports/record/exportId';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { CSV_DELIMITERS, MAX_EXPORT_RANGE_HOURS } from '../lib/exports/requests/exportRequestLimits';
import { conversationRequestShape, dateRangeRequestShape } from '../lib/exports/requests/exportRequestSchema';
import type { BackfillProgressView } from '../lib/http/backfillView';
import {
  type ExportView,
  MAX_VIEW_LINK_BYTES,
  type QueueView,
  type UpstreamWaitView,
} from '../lib/http/exportView';

/**
 * The schemas of the OpenAPI document's bodies, in zod so they are turned into JSON Schema
 * by the same library the handlers validate with. Request bodies are the handlers' own
 * schemas; response bodies describe what the handlers build (`exportView`, `problemResponse`)
 * and are held to those types at compile time below. Nothing here is bundled into a function.
 */

/** A copy of a handler's schema (zod/mini, which has no `.meta()`) with the document's metadata. */
function described<S extends zm.ZodMiniType>(schema: S, meta: z.GlobalMeta): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

const exportId = z
  .string()
  .regex(EXPORT_ID_PATTERN)
  .meta({ description: 'Our id of the export: `ex_` and 26 characters that sort by creation time.' });
const spotId = z.string().regex(SPOT_ID_PATTERN).meta({ description: 'The OpenWeb spot.' });
const instant = z
  .string()
  .meta({ description: 'An ISO 8601 instant in UTC, like `2026-01-31T00:00:00.000Z`.' });

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

const exportRequestViewSchema = z
  .union([
    zm.extend(dateRangeRequestShape(), { kind: z.literal('dateRange') }),
    zm.extend(conversationRequestShape(), { kind: z.literal('conversation') }),
  ])
  .meta({ id: 'ExportRequest', description: 'The request as accepted, with its `kind`.' });

const upstreamWaitSchema = z
  .strictObject({
    attempts: z.number().int().min(0).meta({ description: 'Create attempts so far.' }),
    lastErrorKind: z
      .enum(UpstreamWaitKind)
      .optional()
      .meta({ description: 'Why the last attempt was put off.' }),
    lastErrorAt: instant.optional(),
    nextAttemptAt: instant.optional().meta({
      description: 'When the upstream (or the auth pacer) said the next attempt may go, if it said.',
    }),
  })
  .meta({
    id: 'UpstreamWait',
    description:
      'While `REQUESTED` after a create attempt was put off: why the export still waits for OpenWeb.',
  });

const originSchema = z
  .strictObject({
    schedule: z.string().optional().meta({ description: 'The schedule whose run planned the window.' }),
    backfillId: z.string().optional().meta({ description: 'The backfill the export is a window of.' }),
  })
  .meta({ id: 'ExportOrigin', description: 'What planned the export, for the coverage ledger.' });

const queueSchema = z
  .strictObject({
    position: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: '1 = the next to start once the spot frees.' }),
    priority: z.enum(['first', 'backfill']).meta({
      description: '`first`: API starts and scheduled runs; `backfill`: windows of a backfill, after them.',
    }),
    enqueuedAt: instant,
  })
  .meta({ id: 'QueuePlace', description: "While QUEUED: where the export waits in its spot's queue." });

const archiveStatus = z.enum(['PENDING', 'ARCHIVED', 'FAILED', 'NONE']).meta({
  description:
    'PENDING until the files are stored (a partial archive is never ARCHIVED); ARCHIVED; FAILED with ' +
    '`reason` (an expired or refused link, a corrupt zip); NONE for an export that did not complete.',
});

const archiveSummarySchema = z
  .strictObject({
    status: archiveStatus,
    archivedAt: instant.optional(),
    reason: z.string().optional(),
    files: z.number().int().min(0).meta({ description: 'Files archived.' }),
    rows: z.number().int().min(0).optional().meta({ description: 'CSV records archived, headers excluded.' }),
  })
  .meta({ id: 'ArchiveSummary', description: 'The archive of the export; `/files` lists the files.' });

const archiveFilesStatus = z.enum(['PENDING', 'ARCHIVED', 'FAILED', 'EXPIRED', 'NONE']).meta({
  description:
    "As the export view says, or EXPIRED (no files) once the bucket's lifecycle rule may have deleted " +
    'the files (from `expiredAt`), or when they are no longer in the bucket.',
});

const archiveStateSchema = z
  .strictObject({
    status: archiveFilesStatus,
    archivedAt: instant.optional(),
    expiredAt: instant.optional().meta({ description: 'EXPIRED by the lifecycle rule: from when.' }),
    reason: z.string().optional(),
  })
  .meta({ id: 'Archive' });

const archivedFileSchema = z
  .strictObject({
    name: z.string().meta({ description: "The CSV's name in the upstream's zip." }),
    key: z.string().meta({
      description: 'Object key: `exports/spot=<spotId>/date=<YYYY-MM-DD>/<exportId>/<n>.csv.gz`.',
    }),
    bytes: z.number().int().min(0).meta({ description: 'Size of the stored `.csv.gz`.' }),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'Hex SHA-256 of the stored `.csv.gz`.' }),
    rows: z.number().int().min(0).meta({ description: 'CSV records, header excluded.' }),
    url: z
      .string()
      .meta({ description: 'Fetches the stored `.csv.gz`, no header needed, until `urlExpiresAt`.' }),
    urlExpiresAt: instant,
  })
  .meta({ id: 'ArchivedFile' });

export const archivedFilesSchema = z
  .strictObject({
    archive: archiveStateSchema,
    items: z.array(archivedFileSchema),
    nextToken: z
      .string()
      .optional()
      .meta({ description: 'Present when more files follow: pass it as `?nextToken=` for the next page.' }),
  })
  .meta({
    id: 'ArchivedFiles',
    description: "An export's archive and a page of its files, each with a download URL.",
  });

const count = (description: string) => z.number().int().min(0).meta({ description });
const usd = (description: string) =>
  z
    .number()
    .min(0)
    .meta({ description: `US dollars: ${description}` });

const exportUsageSchema = z
  .strictObject({
    stateTransitions: count('Step Functions state transitions (what Standard workflows bill).'),
    taskInvocations: count('Lambda invocations: the start, each create attempt, each poll, the archive.'),
    billedGbSeconds: z.number().min(0).meta({
      description: "Their billed duration times memory (estimated from the price table's sizes).",
    }),
    upstreamCalls: count('Creates and status calls to OpenWeb.'),
    tableReads: count('DynamoDB read units, as the code path reads.'),
    tableWrites: count('DynamoDB write units, as the code path writes.'),
    archiveBytes: count('Bytes the archive stores for the export.'),
    archiveFiles: count('Objects the archive stored (gzip CSV and Parquet).'),
  })
  .meta({
    id: 'ExportUsage',
    description:
      'What the export used so far, counted from its record and the path it took through the workflow.',
  });

const exportCostSchema = z
  .strictObject({
    stepFunctionsUsd: usd('state transitions.'),
    lambdaUsd: usd('requests and GB-seconds.'),
    dynamoDbUsd: usd('on-demand request units.'),
    otherUsd: usd("the start's API request, the terminal event, credentials reads, the archive's PUTs."),
    totalUsd: usd('the sum of the above.'),
    archivePerMonthUsd: usd('storing its archive, per month kept (not in the total).'),
    pricedFor: z
      .strictObject({
        region: z.string().meta({ description: 'The AWS region of the prices.' }),
        asOf: z.string().meta({ description: 'When they were read from the pricing pages (`YYYY-MM`).' }),
      })
      .meta({ description: 'Where the prices are from.' }),
  })
  .meta({
    id: 'ExportCost',
    description: "Estimated AWS charges, before free tiers, at the deployment's price table.",
  });

export const exportViewSchema = z
  .strictObject({
    exportId,
    spotId,
    status: z.enum(ExportStatus).meta({
      description:
        "QUEUED (waiting in its spot's queue) → REQUESTED → PROCESSING → COMPLETED or FAILED; " +
        'ABORTING → ABORTED after an abort (a QUEUED export is ABORTED at once). ' +
        'COMPLETED, FAILED and ABORTED are final.',
    }),
    upstreamStatus: z.string().optional().meta({ description: "OpenWeb's own status string, as received." }),
    upstreamExportId: z.string().optional().meta({ description: "OpenWeb's id of the export." }),
    request: exportRequestViewSchema,
    links: z.array(z.string()).meta({
      description:
        'Download links of the CSV files once COMPLETED (signed, short-lived): the first ones, ' +
        `as many as fit in ${MAX_VIEW_LINK_BYTES / 1024} KiB. The archive holds every file.`,
    }),
    linkCount: z.number().int().min(0).meta({ description: 'How many download links the export has.' }),
    linksTruncated: z
      .literal(true)
      .optional()
      .meta({ description: 'Present (true) when `links` lists only the first of the `linkCount` links.' }),
    requestedAt: instant,
    startedAt: instant.optional(),
    completedAt: instant.optional(),
    lastPolledAt: instant.optional(),
    pollCount: z.number().int().min(0),
    urgent: z.literal(true).optional().meta({ description: 'The start asked for close polling.' }),
    source: z
      .enum(['api', 'schedule', 'backfill'])
      .meta({ description: 'Started through the API, by a schedule, or as a window of a backfill.' }),
    origin: originSchema.optional(),
    queue: queueSchema.optional(),
    dequeuedAt: instant.optional().meta({
      description: "When it left its spot's queue and took the spot; its deadline counts from here.",
    }),
    failureReason: z.string().optional(),
    upstreamWait: upstreamWaitSchema.optional(),
    archive: archiveSummarySchema,
    usage: exportUsageSchema,
    cost: exportCostSchema,
  })
  .meta({ id: 'Export', description: 'An export as the API shows it.' });

const exportsTotalSchema = z
  .strictObject({
    exports: count('Exports summed.'),
    from: instant.optional().meta({ description: 'The earliest `requestedAt` among them.' }),
    until: instant.optional().meta({ description: 'The latest `requestedAt` among them.' }),
    usage: exportUsageSchema,
    cost: exportCostSchema,
  })
  .meta({
    id: 'ExportsTotal',
    description: "The sums of the listed exports' `usage` and `cost`: the spot's, over the period they span.",
  });

export const exportListSchema = z
  .strictObject({
    items: z.array(exportViewSchema).meta({ description: 'Newest first.' }),
    total: exportsTotalSchema,
    nextToken: z
      .string()
      .optional()
      .meta({ description: 'Present when there are more: pass it back as `nextToken` for the next page.' }),
  })
  .meta({ id: 'ExportList' });

const fieldProblemSchema = z
  .strictObject({
    field: z.string().meta({ description: 'Where: `body.from`, `header.x-spot-id`, `query.limit`, …' }),
    message: z.string().meta({ description: 'The rule the field breaks; never the value sent.' }),
  })
  .meta({ id: 'FieldProblem' });

/** RFC 9457 problem details, with the extension members this API sets. */
export const problemSchema = z
  .strictObject({
    type: z.string().meta({
      description:
        'The kind of problem, `/problems/<kind>` (relative to the API), or `about:blank` for an ' +
        'unexpected failure. Branch on this, never on `title` or `detail`.',
    }),
    title: z.string(),
    status: z.number().int().min(400).max(599).meta({ description: 'The HTTP status, repeated.' }),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      .array(fieldProblemSchema)
      .optional()
      .meta({ description: 'With `invalid-request`: every invalid field.' }),
    activeExportId: exportId
      .optional()
      .meta({ description: 'With `spot-busy`: the export holding the spot.' }),
    exportId: exportId.optional().meta({ description: 'With `export-already-finished`.' }),
    exportStatus: z
      .enum(ExportStatus)
      .optional()
      .meta({ description: 'With `export-already-finished`: the final status.' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (`application/problem+json`).' });

const secondInstant = z
  .string()
  .meta({ description: 'An RFC 3339 instant in UTC to the second, like `2026-01-31T00:00:00Z`.' });

const instantIntervalSchema = z
  .strictObject({ from: secondInstant, until: secondInstant })
  .meta({ id: 'InstantInterval', description: 'The hours `[from, until)`.' });

const windowSourceSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('schedule'),
      schedule: z.string().meta({ description: "The schedule's name among the spot's." }),
    }),
    z.strictObject({ kind: z.literal('backfill'), backfillId: z.string() }),
    z.strictObject({ kind: z.literal('api') }),
  ])
  .meta({
    id: 'WindowSource',
    description: "Who planned the window: a schedule's run, a backfill, or an export started over the API.",
  });

const hours = (description: string) => z.number().min(0).meta({ description });

const coverageGapSchema = z
  .strictObject({
    from: secondInstant,
    until: secondInstant,
    reason: z.string().meta({ description: "Why the window's last attempt did not cover it." }),
    attempts: z.number().int().min(1).meta({ description: 'Exports started for the window.' }),
    exportIds: z
      .array(exportId)
      .meta({ description: 'Every export that attempted the window, oldest first.' }),
    source: windowSourceSchema,
    plannedAt: instant,
    openHours: hours(
      'Hours of the gap, within this page, that no covered or in-flight window accounts for (0 once another covers them).',
    ),
  })
  .meta({
    id: 'CoverageGap',
    description:
      'A window given up on (state GAP): every attempt failed, or OpenWeb refused the request. It is exported again only when someone fills it.',
  });

const windowInFlightSchema = z
  .strictObject({
    from: secondInstant,
    until: secondInstant,
    state: z.enum(['IN_FLIGHT', 'RETRYING']).meta({
      description:
        '`IN_FLIGHT`: its export is queued, running or archiving; `RETRYING`: it failed for a reason that may pass and is exported again at `nextAttemptAt`.',
    }),
    exportId: exportId.meta({ description: 'The export of the current (or, retrying, the last) attempt.' }),
    exportIds: z.array(exportId),
    attempts: z.number().int().min(1),
    source: windowSourceSchema,
    plannedAt: instant,
    nextAttemptAt: instant.optional().meta({ description: 'RETRYING: when the next attempt may start.' }),
    reason: z.string().optional().meta({ description: 'RETRYING: why the last attempt failed.' }),
  })
  .meta({ id: 'WindowInFlight' });

const watermarkSchema = z
  .strictObject({
    schedule: z.string().meta({ description: "The schedule's name among the spot's." }),
    until: secondInstant.meta({
      description:
        "Every hour before this is planned by the schedule's runs; the next run exports from here.",
    }),
    updatedAt: instant,
  })
  .meta({ id: 'ScheduleWatermark' });

const coverageSummarySchema = z
  .strictObject({
    hours: hours('Hours of the page.'),
    coveredHours: hours('Archived.'),
    inFlightHours: hours('Not covered, but an export of them is queued, running, archiving or due again.'),
    gapHours: hours('Neither, and given up on: a window of them is a gap.'),
    notPlannedHours: hours(
      'No window holds them: before a schedule began, after its watermark, never asked for.',
    ),
    overlapHours: hours('Exported by more than one window (counted once above).'),
  })
  .meta({
    id: 'CoverageSummary',
    description:
      'The hours of the page, to the thousandth, each counted once, in the first of: covered, in flight, gap, not planned.',
  });

export const spotCoverageSchema = z
  .strictObject({
    spotId,
    range: instantIntervalSchema.meta({ description: 'The range asked about, defaults filled in.' }),
    page: instantIntervalSchema.meta({
      description:
        'The part of the range this page is about: all of it unless `nextToken` is present. Pages do not overlap, so their summaries add up.',
    }),
    covered: z.array(instantIntervalSchema).meta({ description: 'Where the data is archived, merged.' }),
    overlaps: z
      .array(instantIntervalSchema)
      .meta({ description: 'Where more than one window covers (or is exporting) the same hours: allowed.' }),
    gaps: z.array(coverageGapSchema).meta({ description: 'Listed on the page their start falls in.' }),
    inFlight: z.array(windowInFlightSchema).meta({ description: 'Listed on the page their start falls in.' }),
    summary: coverageSummarySchema,
    watermarks: z.array(watermarkSchema).meta({ description: "Every schedule's watermark for the spot." }),
    nextToken: z.string().optional().meta({
      description:
        'Present when the range goes on after `page.until`: pass it back as `nextToken` for the next page.',
    }),
  })
  .meta({ id: 'SpotCoverage', description: "A spot's coverage over a range, a page at a time." });

/** What API Gateway itself answers before any function runs (authorizer refusals, throttling, timeouts). */
export const gatewayMessageSchema = z.strictObject({ message: z.string() }).meta({
  id: 'GatewayMessage',
  description: 'API Gateway\'s own answer, e.g. `{"message":"Unauthorized"}`.',
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

const backfillWindowSchema = z
  .strictObject({ from: z.string(), until: z.string() })
  .meta({ id: 'BackfillWindow', description: '`[from, until)`, RFC 3339 UTC instants to the second.' });

const backfillWindowProgressSchema = z
  .strictObject({
    from: z.string(),
    until: z.string(),
    state: z.enum(BackfillWindowState).meta({
      description:
        'PENDING (not recorded yet), QUEUED, RUNNING (exporting or archiving), RETRYING (failed, tried ' +
        'again after a cooldown), DONE (archived), GAP (given up, see `reason`), WITHDRAWN (by an abort).',
    }),
    exportId: exportId.optional().meta({ description: 'The export of its current (or last) attempt.' }),
    rows: z.number().int().min(0).optional().meta({ description: 'DONE: rows archived.' }),
    reason: z
      .string()
      .optional()
      .meta({ description: 'RETRYING, GAP: why the last attempt did not cover it.' }),
  })
  .meta({ id: 'BackfillWindowProgress' });

const backfillCountsSchema = z
  .strictObject({
    total: z.number().int().min(0),
    done: z.number().int().min(0),
    running: z.number().int().min(0),
    queued: z.number().int().min(0),
    retrying: z.number().int().min(0),
    gaps: z.number().int().min(0),
    pending: z.number().int().min(0),
    withdrawn: z.number().int().min(0),
  })
  .meta({ id: 'BackfillWindowCounts', description: 'Windows of the plan by state.' });

export const backfillViewSchema = z
  .strictObject({
    backfillId: z
      .string()
      .regex(BACKFILL_ID_PATTERN)
      .meta({ description: 'Our id of the backfill: `bf_` and 26 characters that sort by creation time.' }),
    spotId,
    from: z.string(),
    until: z.string(),
    windowHours: z.number().int().min(1).max(MAX_EXPORT_RANGE_HOURS),
    createdAt: instant,
    abortedAt: instant.optional(),
    recording: z.boolean().meta({
      description:
        'True while its windows are still being recorded (the reconciler records what a request could not).',
    }),
    plan: z
      .strictObject({
        windowCount: z.number().int().min(0),
        windows: z.array(backfillWindowSchema).meta({ description: 'The windows it exports, by start.' }),
        skipped: z.array(backfillWindowSchema).meta({
          description:
            'Stretches of the range the coverage ledger already held (covered, in flight, retrying).',
        }),
        skippedHours: z.number().min(0),
      })
      .meta({ description: 'What it planned. A gap of the ledger is exported again with its own bounds.' }),
    status: z.enum(BackfillStatus).meta({
      description:
        'RUNNING while windows are pending, queued, running or retrying; COMPLETED once each is DONE or a GAP; ABORTED.',
    }),
    progress: z.strictObject({
      windows: backfillCountsSchema,
      rowsArchived: z.number().int().min(0),
      elapsedSeconds: z.number().int().min(0),
      etaSeconds: z.number().int().min(0).optional().meta({
        description:
          "Seconds left, from the spot's recent export durations; absent with nothing to learn from.",
      }),
    }),
    windows: z.array(backfillWindowProgressSchema),
  })
  .meta({ id: 'Backfill', description: 'A backfill, its plan and where each of its windows stands.' });

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

/** The schemas the document lists under `components.schemas`, in this order. */
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
  watermarkSchema,
  coverageSummarySchema,
  backfillRequestSchema,
  backfillViewSchema,
  backfillWindowSchema,
  backfillWindowProgressSchema,
  backfillCountsSchema,
  backfillListSchema,
  spotStatusSchema,
  fleetPageSchema,
] as const;

// The response schemas describe the types the handlers answer with: each value they allow is one
// of the type's values, and each field of the type is in the schema (and, strict, none other).
type Describes<S, T> = [S] extends [T] ? ([Exclude<keyof T, keyof S>] extends [never] ? true : false) : false;
type RequestOf<K> = Extract<ExportRequest, { kind: K }>;
type RequestSchemaOf<K> = Extract<z.output<typeof exportRequestViewSchema>, { kind: K }>;
const describesExportView: Describes<z.output<typeof exportViewSchema>, ExportView> = true;
const describesExportsTotal: Describes<z.output<typeof exportsTotalSchema>, ExportsTotal> = true;
const describesUpstreamWait: Describes<z.output<typeof upstreamWaitSchema>, UpstreamWaitView> = true;
const describesQueue: Describes<z.output<typeof queueSchema>, QueueView> = true;
const describesDateRange: Describes<RequestSchemaOf<'dateRange'>, RequestOf<'dateRange'>> = true;
const describesConversation: Describes<RequestSchemaOf<'conversation'>, RequestOf<'conversation'>> = true;
const describesFieldProblem: Describes<z.output<typeof fieldProblemSchema>, FieldProblem> = true;
const describesArchivedFiles: Describes<z.output<typeof archivedFilesSchema>, ArchivedFilesView> = true;
const describesSpotCoverage: Describes<z.output<typeof spotCoverageSchema>, SpotCoverage> = true;
const describesInterval: Describes<z.output<typeof instantIntervalSchema>, InstantInterval> = true;
const describesWindowSource: Describes<z.output<typeof windowSourceSchema>, WindowSource> = true;
const describesGap: Describes<z.output<typeof coverageGapSchema>, CoverageGapView> = true;
const describesInFlight: Describes<z.output<typeof windowInFlightSchema>, WindowInFlightView> = true;
const describesWatermark: Describes<z.output<typeof watermarkSchema>, WatermarkView> = true;
const describesSummary: Describes<z.output<typeof coverageSummarySchema>, CoverageSummary> = true;
const describesBackfill: Describes<z.output<typeof backfillViewSchema>, BackfillProgressView> = true;
const describesSpotStatus: Describes<z.output<typeof spotStatusSchema>, SpotStatus> = true;
export const RESPONSE_SCHEMAS_DESCRIBE_TYPES =
  describesExportView &&
  describesExportsTotal &&
  describesUpstreamWait &&
  describesQueue &&
  describesDateRange &&
  describesConversation &&
  describesFieldProblem &&
  describesArchivedFiles &&
  describesSpotCoverage &&
  describesInterval &&
  describesWindowSource &&
  describesGap &&
  describesInFlight &&
  describesWatermark &&
  describesSummary &&
  describesBackfill &&
  describesSpotStatus;
