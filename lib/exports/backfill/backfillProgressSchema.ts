import * as z from 'zod/mini';
import { exportIdField } from '../record/viewFields';
import { BackfillWindowState } from './backfillProgress';

/**
 * Where a backfill's windows stand, as its answer shows them (lib/http/backfillViewSchema.ts): the
 * types the progress is computed as are inferred from these schemas. The functions import only the types.
 */

export const backfillWindowProgressSchema = z
  .object({
    from: z.string(),
    until: z.string(),
    state: z
      .enum(BackfillWindowState)
      .check(
        z.describe(
          'PENDING (not recorded yet), QUEUED, RUNNING (exporting or archiving), RETRYING (failed, tried ' +
            'again after a cooldown), DONE (archived), GAP (given up, see `reason`), WITHDRAWN (by an abort).',
        ),
      ),
    exportId: z.optional(exportIdField).check(z.describe('The export of its current (or last) attempt.')),
    rows: z.optional(z.int().check(z.gte(0))).check(z.describe('DONE: rows archived.')),
    reason: z.optional(z.string()).check(z.describe('RETRYING, GAP: why the last attempt did not cover it.')),
  })
  .register(z.globalRegistry, { id: 'BackfillWindowProgress' });

export type BackfillWindowProgress = z.infer<typeof backfillWindowProgressSchema>;

const windowCount = () => z.int().check(z.gte(0));

export const backfillWindowCountsSchema = z
  .object({
    total: windowCount(),
    done: windowCount(),
    running: windowCount(),
    queued: windowCount(),
    retrying: windowCount(),
    gaps: windowCount(),
    pending: windowCount(),
    withdrawn: windowCount(),
  })
  .register(z.globalRegistry, { id: 'BackfillWindowCounts', description: 'Windows of the plan by state.' });

export type BackfillWindowCounts = z.infer<typeof backfillWindowCountsSchema>;
