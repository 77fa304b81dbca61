import { z } from 'zod';
import { backfillViewSchema } from '../lib/http/backfillViewSchema';

/**
 * `GET /spots`, as the CLI reads it. Unknown members are kept, so `--json` passes on whatever the
 * API adds; only what the CLI reads is required.
 */
export const spotStatusViewSchema = z.looseObject({
  spotId: z.string(),
  configured: z.boolean(),
  coveredUntil: z.string().nullable(),
  hoursBehind: z.number().nullable(),
  freshnessTargetHours: z.number().nullable(),
  stale: z.boolean(),
  running: z
    .looseObject({ exportId: z.string(), status: z.string(), since: z.string(), ageSeconds: z.number() })
    .optional(),
  queued: z.number(),
  backfills: z.array(
    z.looseObject({
      backfillId: z.string(),
      from: z.string(),
      until: z.string(),
      windowsDone: z.number(),
      windowsTotal: z.number(),
      gaps: z.number(),
    }),
  ),
  gaps: z.looseObject({
    count: z.number(),
    hours: z.number(),
    newestReason: z.string().optional(),
    newestFrom: z.string().optional(),
  }),
  lastFailure: z.looseObject({ exportId: z.string(), at: z.string(), reason: z.string() }).optional(),
  // Absent from an API that restates nothing yet.
  restatements: z.looseObject({ provisionalHours: z.number(), waiting: z.number() }).optional(),
});

export type SpotStatusView = z.infer<typeof spotStatusViewSchema>;

export const fleetPageViewSchema = z.looseObject({
  items: z.array(spotStatusViewSchema),
  nextToken: z.string().optional(),
});

export type FleetPageView = z.infer<typeof fleetPageViewSchema>;

export const backfillListViewSchema = z.looseObject({
  items: z.array(backfillViewSchema),
  nextToken: z.string().optional(),
});

export type BackfillListView = z.infer<typeof backfillListViewSchema>;
