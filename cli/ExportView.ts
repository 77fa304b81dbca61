import { z } from 'zod';
import { ExportStatus } from '../lib/exports/ExportStatus';

/**
 * Why a REQUESTED export has no upstream export yet: shown by the API only while
 * the create is being retried. `lastErrorKind`: `throttled`, `unavailable`,
 * `auth-paced` or `timeout` (kept as text so a new kind is still shown).
 */
export const upstreamWaitSchema = z.looseObject({
  attempts: z.number(),
  lastErrorKind: z.string(),
  lastErrorAt: z.string().optional(),
  nextAttemptAt: z.string().optional(),
});

export type UpstreamWait = z.infer<typeof upstreamWaitSchema>;

/**
 * An export as the API shows it. Unknown members are kept, so `--json` passes on whatever
 * the API adds; only what the CLI reads is required.
 */
export const exportViewSchema = z.looseObject({
  exportId: z.string(),
  spotId: z.string(),
  status: z.enum(ExportStatus),
  upstreamStatus: z.string().optional(),
  upstreamExportId: z.string().optional(),
  request: z.record(z.string(), z.unknown()).optional(),
  links: z.array(z.string()).default([]),
  requestedAt: z.string().optional(),
  startedAt: z.string().optional(),
  completedAt: z.string().optional(),
  lastPolledAt: z.string().optional(),
  pollCount: z.number().default(0),
  source: z.string().optional(),
  failureReason: z.string().optional(),
  upstreamWait: upstreamWaitSchema.optional(),
});

export type ExportView = z.infer<typeof exportViewSchema>;

/** One page of `GET /exports`. */
export const exportPageSchema = z.looseObject({
  items: z.array(exportViewSchema),
  nextToken: z.string().optional(),
});

export type ExportPage = z.infer<typeof exportPageSchema>;
