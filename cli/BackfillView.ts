import { z } from 'zod';

const windowSchema = z.looseObject({ from: z.string(), until: z.string() });

/**
 * A backfill as the API shows it. Unknown members are kept, so `--json` passes on whatever the
 * API adds; only what the CLI reads is required.
 */
export const backfillViewSchema = z.looseObject({
  backfillId: z.string(),
  spotId: z.string(),
  from: z.string(),
  until: z.string(),
  windowHours: z.number(),
  createdAt: z.string(),
  recording: z.boolean().default(false),
  status: z.enum(['RUNNING', 'COMPLETED', 'ABORTED']),
  plan: z.looseObject({
    windowCount: z.number(),
    windows: z.array(windowSchema),
    skipped: z.array(windowSchema).default([]),
    skippedHours: z.number().default(0),
  }),
  progress: z.looseObject({
    windows: z.looseObject({
      total: z.number(),
      done: z.number(),
      running: z.number(),
      queued: z.number(),
      retrying: z.number(),
      gaps: z.number(),
      pending: z.number().default(0),
      withdrawn: z.number().default(0),
    }),
    rowsArchived: z.number(),
    elapsedSeconds: z.number(),
    etaSeconds: z.number().optional(),
  }),
  windows: z
    .array(
      z.looseObject({
        from: z.string(),
        until: z.string(),
        state: z.string(),
        exportId: z.string().optional(),
        rows: z.number().optional(),
        reason: z.string().optional(),
      }),
    )
    .default([]),
});

export type BackfillView = z.infer<typeof backfillViewSchema>;

/** The body of `POST /spots/{spotId}/backfills`. */
export interface StartBackfillBody {
  from: string;
  until: string;
  windowHours: number;
}
