import { z } from 'zod';
import { ExportStatus } from '../lib/exports/record/ExportStatus';

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
  upstreamWait: z
    .looseObject({
      attempts: z.number(),
      lastErrorKind: z.string().optional(),
      lastErrorAt: z.string().optional(),
      nextAttemptAt: z.string().optional(),
    })
    .optional(),
  /** Its estimated AWS charges so far (absent from servers that do not estimate them). */
  cost: z
    .looseObject({
      totalUsd: z.number(),
      pricedFor: z.looseObject({ region: z.string(), asOf: z.string() }).optional(),
    })
    .optional(),
  usage: z.looseObject({ stateTransitions: z.number(), taskInvocations: z.number() }).optional(),
  /** The archive of the export's files: PENDING, ARCHIVED, FAILED, or NONE when there is nothing to archive. */
  archive: z
    .looseObject({
      status: z.string(),
      archivedAt: z.string().optional(),
      reason: z.string().optional(),
      files: z.number().optional(),
      rows: z.number().optional(),
    })
    .optional(),
});

export type ExportView = z.infer<typeof exportViewSchema>;

/** One page of `GET /exports`. */
export const exportPageSchema = z.looseObject({
  items: z.array(exportViewSchema),
  nextToken: z.string().optional(),
});

export type ExportPage = z.infer<typeof exportPageSchema>;

/** `GET /exports/{id}/files`. */
export const archivedFilesSchema = z.looseObject({
  archive: z.looseObject({
    status: z.string(),
    archivedAt: z.string().optional(),
    reason: z.string().optional(),
  }),
  items: z.array(
    z.looseObject({
      name: z.string(),
      key: z.string(),
      bytes: z.number(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      rows: z.number(),
      url: z.string(),
      urlExpiresAt: z.string(),
    }),
  ),
  /** Present when more files follow. */
  nextToken: z.string().optional(),
});

export type ArchivedFiles = z.infer<typeof archivedFilesSchema>;
