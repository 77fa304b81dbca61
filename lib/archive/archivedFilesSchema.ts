import * as z from 'zod/mini';
import { ArchiveStatus, CatalogStatus } from '../exports/record/ExportArchive';
import { instantField } from '../exports/record/viewFields';
import { ARCHIVE_EXPIRED } from './archivedFiles';

/**
 * The archive as the API shows it: in the export view (its summary) and at
 * `GET /exports/{exportId}/files`. The types ./archivedFiles.ts builds are inferred from these
 * schemas; the functions import only the types.
 */

const ARCHIVE_NONE = 'NONE';

export const archiveSummarySchema = z
  .object({
    status: z
      .enum([ArchiveStatus.PENDING, ArchiveStatus.ARCHIVED, ArchiveStatus.FAILED, ARCHIVE_NONE])
      .check(
        z.describe(
          'PENDING until the files are stored (a partial archive is never ARCHIVED); ARCHIVED; FAILED with ' +
            '`reason` (an expired or refused link, a corrupt zip); NONE for an export that did not complete.',
        ),
      ),
    archivedAt: z.optional(instantField),
    reason: z.optional(z.string()),
    files: z.int().check(z.gte(0), z.describe('Files archived.')),
    rows: z.optional(z.int().check(z.gte(0))).check(z.describe('CSV records archived, headers excluded.')),
    catalog: z
      .optional(z.enum([CatalogStatus.REGISTERED, CatalogStatus.PENDING]))
      .check(
        z.describe(
          "ARCHIVED with Parquet files: whether the query table's catalog holds the export's partition " +
            '(REGISTERED), or did not take it yet (PENDING, with `catalogReason`; a later archive run ' +
            'registers it). The files are ARCHIVED either way.',
        ),
      ),
    catalogReason: z.optional(z.string()),
    rowsSuppressed: z
      .optional(z.int().check(z.gte(0)))
      .check(
        z.describe(
          "Records of the spot's erased users left out before the files were written; present when the spot had any.",
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'ArchiveSummary',
    description: 'The archive of the export; `/files` lists the files.',
  });

/** The archive's state and what it holds, without download URLs. */
export type ArchiveSummaryView = z.infer<typeof archiveSummarySchema>;

/** An export's archive as the API shows it: PENDING, ARCHIVED, FAILED, or NONE with nothing to archive. */
export type ArchiveView = Omit<
  ArchiveSummaryView,
  'files' | 'rows' | 'rowsSuppressed' | 'catalog' | 'catalogReason'
>;

export const archiveStateSchema = z
  .object({
    status: z
      .enum([
        ArchiveStatus.PENDING,
        ArchiveStatus.ARCHIVED,
        ArchiveStatus.FAILED,
        ARCHIVE_EXPIRED,
        ARCHIVE_NONE,
      ])
      .check(
        z.describe(
          "As the export view says, or EXPIRED (no files) once the bucket's lifecycle rule may have deleted " +
            'the files (from `expiredAt`), or when they are no longer in the bucket.',
        ),
      ),
    archivedAt: z.optional(instantField),
    expiredAt: z.optional(instantField).check(z.describe('EXPIRED by the lifecycle rule: from when.')),
    reason: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'Archive' });

/** The archive as `/files` shows it: also EXPIRED once its files may be gone. */
export type ArchiveFilesState = z.infer<typeof archiveStateSchema>;

export const archivedFileSchema = z
  .object({
    name: z.string().check(z.describe("The CSV's name in the upstream's zip.")),
    key: z
      .string()
      .check(z.describe('Object key: `exports/spot=<spotId>/date=<YYYY-MM-DD>/<exportId>/<n>.csv.gz`.')),
    bytes: z.int().check(z.gte(0), z.describe('Size of the stored `.csv.gz`.')),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/), z.describe('Hex SHA-256 of the stored `.csv.gz`.')),
    rows: z.int().check(z.gte(0), z.describe('CSV records, header excluded.')),
    rowsSuppressed: z
      .optional(z.int().check(z.gte(0)))
      .check(z.describe("Records of the spot's erased users left out before the file was written.")),
    url: z
      .string()
      .check(z.describe('Fetches the stored `.csv.gz`, no header needed, until `urlExpiresAt`.')),
    urlExpiresAt: instantField,
  })
  .register(z.globalRegistry, { id: 'ArchivedFile' });

export type ArchivedFileView = z.infer<typeof archivedFileSchema>;

export const archivedFilesSchema = z
  .object({
    archive: archiveStateSchema,
    items: z.array(archivedFileSchema),
    nextToken: z
      .optional(z.string())
      .check(z.describe('Present when more files follow: pass it as `?nextToken=` for the next page.')),
  })
  .register(z.globalRegistry, {
    id: 'ArchivedFiles',
    description: "An export's archive and a page of its files, each with a download URL.",
  });

/** `GET /exports/{exportId}/files`: the archive and a page of its files. */
export type ArchivedFilesView = z.infer<typeof archivedFilesSchema>;
