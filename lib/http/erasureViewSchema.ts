import * as z from 'zod/mini';
import { ERASURE_ID_PATTERN, ErasureStatus } from '../exports/erasure/ErasureRecord';
import { exportIdField, instantField, spotIdField } from '../exports/record/viewFields';

/**
 * An erasure as the API shows it: ./erasureView.ts builds it, the OpenAPI document is generated
 * from these schemas and the CLI checks the API's answers with them. The functions import only
 * the types.
 */

const count = () => z.int().check(z.gte(0));

export const erasedFileViewSchema = z
  .object({
    exportId: exportIdField,
    name: z.string().check(z.describe("The CSV's name in the upstream's zip.")),
    key: z.string().check(z.describe('The object of the file without the user.')),
    previousKey: z.string().check(z.describe('The object it replaced; every version of it is deleted.')),
    rowsRemoved: count(),
    rows: count().check(z.describe('Rows left in the file (0: its header alone).')),
    sha256: z.string(),
    state: z
      .enum(['REWRITTEN', 'CLEANED'])
      .check(z.describe('`CLEANED` once the manifest names the new file and the old versions are gone.')),
  })
  .register(z.globalRegistry, {
    id: 'ErasedFile',
    description: 'An archived file rewritten without the user.',
  });

export const erasureVerificationSchema = z
  .object({
    checkedAt: instantField,
    checks: z.array(z.string()).check(z.describe('What was checked, with what it found (the query it ran).')),
    filesChecked: count(),
    rowsFound: count(),
    tableRowsFound: z.optional(count()),
    versionsLeft: count(),
  })
  .register(z.globalRegistry, {
    id: 'ErasureVerification',
    description: 'The check at the end: every archived file of the spot read again, and the table asked.',
  });

export const erasureViewSchema = z
  .object({
    erasureId: z
      .string()
      .check(
        z.regex(ERASURE_ID_PATTERN),
        z.describe('`er_` and 24 hex digits, derived from the spot and the user: one erasure per user.'),
      ),
    spotId: spotIdField,
    userId: z.string(),
    status: z.enum(ErasureStatus),
    reason: z.optional(z.string().check(z.describe('Why it `FAILED`.'))),
    requestedAt: instantField,
    updatedAt: instantField,
    completedAt: z.optional(instantField),
    exportsDone: count().check(z.describe('Archived exports swept so far.')),
    filesRead: count(),
    filesRewritten: count(),
    rowsRemoved: count().check(z.describe('Over every file.')),
    files: z.array(erasedFileViewSchema),
    verification: z.optional(erasureVerificationSchema),
  })
  .register(z.globalRegistry, {
    id: 'Erasure',
    description:
      "A user's erasure from the spot's archive: where it stands and what it removed, never a row.",
  });

export const erasureListSchema = z
  .object({
    items: z.array(erasureViewSchema).check(z.describe('Newest first.')),
    nextToken: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'ErasureList' });

export type ErasureView = z.infer<typeof erasureViewSchema>;
export type ErasureListView = z.infer<typeof erasureListSchema>;
