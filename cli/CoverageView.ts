import { z } from 'zod';

const interval = z.looseObject({ from: z.string(), until: z.string() });
const source = z.looseObject({
  kind: z.string(),
  schedule: z.string().optional(),
  backfillId: z.string().optional(),
});

/**
 * `GET /spots/{spotId}/coverage`, as the CLI reads it. Unknown members are kept, so `--json`
 * passes on whatever the API adds; only what the CLI reads is required.
 */
export const spotCoverageViewSchema = z.looseObject({
  spotId: z.string(),
  range: interval,
  page: interval,
  covered: z.array(interval),
  overlaps: z.array(interval),
  gaps: z.array(
    z.looseObject({
      from: z.string(),
      until: z.string(),
      reason: z.string(),
      attempts: z.number(),
      exportIds: z.array(z.string()),
      source,
      openHours: z.number(),
    }),
  ),
  inFlight: z.array(
    z.looseObject({
      from: z.string(),
      until: z.string(),
      state: z.string(),
      exportId: z.string(),
      attempts: z.number(),
      source,
      nextAttemptAt: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
  summary: z.looseObject({
    hours: z.number(),
    coveredHours: z.number(),
    inFlightHours: z.number(),
    gapHours: z.number(),
    notPlannedHours: z.number(),
    overlapHours: z.number(),
  }),
  watermarks: z.array(z.looseObject({ schedule: z.string(), until: z.string(), updatedAt: z.string() })),
  nextToken: z.string().optional(),
});

export type SpotCoverageView = z.infer<typeof spotCoverageViewSchema>;

export interface CoverageQuery {
  from?: string;
  until?: string;
  limit?: number;
  nextToken?: string;
}
