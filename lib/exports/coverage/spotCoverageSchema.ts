import * as z from 'zod/mini';
import { exportIdField, instantField, secondInstantField, spotIdField } from '../record/viewFields';
import { RestatementState, WindowState } from './CoverageLedger';

/**
 * The coverage answer (`GET /spots/{spotId}/coverage`), one zod/mini schema per part: the types
 * the use case builds are inferred from them, the OpenAPI document is generated from them and the
 * CLI checks the answer with them. The functions import only the types.
 */

export const instantIntervalSchema = z
  .object({ from: secondInstantField, until: secondInstantField })
  .register(z.globalRegistry, { id: 'InstantInterval', description: 'The hours `[from, until)`.' });

/** `[from, until)`, RFC 3339 UTC instants to the second. */
export type InstantInterval = z.infer<typeof instantIntervalSchema>;

export const windowSourceSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('schedule'),
      schedule: z.string().check(z.describe("The schedule's name among the spot's.")),
    }),
    z.object({ kind: z.literal('backfill'), backfillId: z.string() }),
    z.object({ kind: z.literal('api') }),
  ])
  .register(z.globalRegistry, {
    id: 'WindowSource',
    description: "Who planned the window: a schedule's run, a backfill, or an export started over the API.",
  });

/** Who planned a window: a schedule's run, a backfill, or an export started over the API. */
export type WindowSource = z.infer<typeof windowSourceSchema>;

const hours = (description: string) => z.number().check(z.gte(0), z.describe(description));

export const coverageGapSchema = z
  .object({
    from: secondInstantField,
    until: secondInstantField,
    reason: z.string().check(z.describe("Why the window's last attempt did not cover it.")),
    attempts: z.int().check(z.gte(1), z.describe('Exports started for the window.')),
    exportIds: z
      .array(exportIdField)
      .check(z.describe('Every export that attempted the window, oldest first.')),
    source: windowSourceSchema,
    plannedAt: instantField,
    openHours: hours(
      'Hours of the gap, within this page, that no covered or in-flight window accounts for (0 once another covers them).',
    ),
  })
  .register(z.globalRegistry, {
    id: 'CoverageGap',
    description:
      'A window given up on (state GAP): every attempt failed, or OpenWeb refused the request. It is exported again only when someone fills it.',
  });

/** A window given up on: every attempt failed, or the upstream refused the request itself. */
export type CoverageGapView = z.infer<typeof coverageGapSchema>;

export const windowInFlightSchema = z
  .object({
    from: secondInstantField,
    until: secondInstantField,
    state: z
      .enum([WindowState.IN_FLIGHT, WindowState.RETRYING])
      .check(
        z.describe(
          '`IN_FLIGHT`: its export is queued, running or archiving; `RETRYING`: it failed for a reason that may pass and is exported again at `nextAttemptAt`.',
        ),
      ),
    exportId: exportIdField.check(z.describe('The export of the current (or, retrying, the last) attempt.')),
    exportIds: z.array(exportIdField),
    attempts: z.int().check(z.gte(1)),
    source: windowSourceSchema,
    plannedAt: instantField,
    nextAttemptAt: z.optional(instantField).check(z.describe('RETRYING: when the next attempt may start.')),
    reason: z.optional(z.string()).check(z.describe('RETRYING: why the last attempt failed.')),
  })
  .register(z.globalRegistry, { id: 'WindowInFlight' });

/** A window whose export is queued, running or archiving (`IN_FLIGHT`), or failed and waits to be tried again (`RETRYING`). */
export type WindowInFlightView = z.infer<typeof windowInFlightSchema>;

export const windowVersionSchema = z
  .object({
    exportId: exportIdField,
    exportedAt: instantField.check(
      z.describe(
        "When the upstream read the data: the export's upstream start (its request when not known).",
      ),
    ),
    age: z
      .optional(z.string())
      .check(
        z.describe(
          "The restatement age it answered (`P1D`), or `refresh` for a backfill's re-export; absent for the first export.",
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'WindowVersion',
    description: 'One archived export of a window: the newest is what `comments` reads.',
  });

export const windowRestatementSchema = z
  .object({
    age: z
      .string()
      .check(z.describe("The restatement age (`P7D`), or `refresh` for a backfill's re-export.")),
    state: z
      .enum(Object.values(RestatementState) as [RestatementState, ...RestatementState[]])
      .check(
        z.describe(
          "`WAITING`: due, but the spot's restatements of the day are taken (`nextAttemptAt`); `IN_FLIGHT`: its export is queued, running or archiving; `RETRYING`: it failed and is tried again at `nextAttemptAt`; `ARCHIVED`: a version of its own; `GIVEN_UP`: every attempt failed, the window stays covered by its older version.",
        ),
      ),
    exportIds: z.array(exportIdField),
    attempts: z.int().check(z.gte(0)),
    dueSince: instantField,
    nextAttemptAt: z.optional(instantField),
    reason: z.optional(z.string()),
  })
  .register(z.globalRegistry, {
    id: 'WindowRestatement',
    description: "A covered window's current (or last) restatement: the window stays covered throughout.",
  });

export const coveredWindowSchema = z
  .object({
    from: secondInstantField,
    until: secondInstantField,
    source: windowSourceSchema,
    currency: z
      .enum(['settled', 'provisional'])
      .check(
        z.describe(
          '`settled`: every restatement age is answered by an archived version (or the window has none); `provisional`: a restatement is to come, waiting, running, or was given up.',
        ),
      ),
    versions: z
      .array(windowVersionSchema)
      .check(z.describe('Every archived export of the window, oldest first; the last is the newest.')),
    restate: z.optional(z.array(z.string())).check(z.describe('The ages at which it is exported again.')),
    nextRestatementAt: z
      .optional(instantField)
      .check(z.describe('Provisional: when its next restatement is due (or may start).')),
    restatement: z.optional(windowRestatementSchema),
  })
  .register(z.globalRegistry, {
    id: 'CoveredWindow',
    description: 'A covered window, with its versions and how current its data is.',
  });

/** A covered window with its versions and whether it is settled. */
export type CoveredWindowView = z.infer<typeof coveredWindowSchema>;

export const watermarkSchema = z
  .object({
    schedule: z.string().check(z.describe("The schedule's name among the spot's.")),
    until: secondInstantField.check(
      z.describe("Every hour before this is planned by the schedule's runs; the next run exports from here."),
    ),
    updatedAt: instantField,
  })
  .register(z.globalRegistry, { id: 'ScheduleWatermark' });

/** A schedule's watermark, as the coverage answer shows it. */
export type WatermarkView = z.infer<typeof watermarkSchema>;

export const coverageSummarySchema = z
  .object({
    hours: hours('Hours of the page.'),
    coveredHours: hours('Archived.'),
    inFlightHours: hours('Not covered, but an export of them is queued, running, archiving or due again.'),
    gapHours: hours('Neither, and given up on: a window of them is a gap.'),
    notPlannedHours: hours(
      'No window holds them: before a schedule began, after its watermark, never asked for.',
    ),
    overlapHours: hours('Exported by more than one window (counted once above).'),
    provisionalHours: hours(
      'Of the covered hours, those no settled window covers: a restatement of them is still to come (or was given up).',
    ),
    restatementsWaiting: z
      .int()
      .check(
        z.gte(0),
        z.describe(
          "Covered windows listed on the page whose restatement is due but waits for the spot's daily budget.",
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'CoverageSummary',
    description:
      'The hours of the page, to the thousandth, each counted once, in the first of: covered, in flight, gap, not planned.',
  });

/** Hours of the page by what holds them; the four add up to `hours`, overlaps counted apart. */
export type CoverageSummary = z.infer<typeof coverageSummarySchema>;

export const spotCoverageSchema = z
  .object({
    spotId: spotIdField,
    range: instantIntervalSchema.check(z.describe('The range asked about, defaults filled in.')),
    page: instantIntervalSchema.check(
      z.describe(
        'The part of the range this page is about: all of it unless `nextToken` is present. Pages do not overlap, so their summaries add up.',
      ),
    ),
    covered: z.array(instantIntervalSchema).check(z.describe('Where the data is archived, merged.')),
    provisional: z
      .array(instantIntervalSchema)
      .check(z.describe('Of the covered hours, those no settled window covers, merged.')),
    coveredWindows: z
      .array(coveredWindowSchema)
      .check(
        z.describe('The covered windows, with their versions; listed on the page their start falls in.'),
      ),
    overlaps: z
      .array(instantIntervalSchema)
      .check(z.describe('Where more than one window covers (or is exporting) the same hours: allowed.')),
    gaps: z.array(coverageGapSchema).check(z.describe('Listed on the page their start falls in.')),
    inFlight: z.array(windowInFlightSchema).check(z.describe('Listed on the page their start falls in.')),
    summary: coverageSummarySchema,
    watermarks: z.array(watermarkSchema).check(z.describe("Every schedule's watermark for the spot.")),
    nextToken: z
      .optional(z.string())
      .check(
        z.describe(
          'Present when the range goes on after `page.until`: pass it back as `nextToken` for the next page.',
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'SpotCoverage',
    description: "A spot's coverage over a range, a page at a time.",
  });

/** What the coverage ledger says about a spot's hours in a range, a page at a time. */
export type SpotCoverage = z.infer<typeof spotCoverageSchema>;

/** What a spot's windows say about one stretch of time: the parts of a page the windows make. */
export type CoverageOfWindows = Pick<
  SpotCoverage,
  'covered' | 'provisional' | 'coveredWindows' | 'overlaps' | 'gaps' | 'inFlight' | 'summary'
>;
