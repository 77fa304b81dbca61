/** Where a finished export's files stand in the archive. */
export const ArchiveStatus = {
  /** The export completed; its files are being (or are about to be) archived. */
  PENDING: 'PENDING',
  /** Every file of every link is stored and recorded. A partial archive is never ARCHIVED. */
  ARCHIVED: 'ARCHIVED',
  /** The files could not be archived (an expired or refused link, a corrupt zip); `reason` says why. */
  FAILED: 'FAILED',
} as const;

export type ArchiveStatus = (typeof ArchiveStatus)[keyof typeof ArchiveStatus];

/**
 * Where an ARCHIVED export's partition of the query table stands in the catalog (Glue). The
 * catalog never holds the archive back: files stored are ARCHIVED whatever it answers.
 */
export const CatalogStatus = {
  /** The catalog holds the export's partition: Athena reads its files. */
  REGISTERED: 'REGISTERED',
  /** The catalog did not take it (`catalogReason` says why); a later archive run registers it. */
  PENDING: 'PENDING',
} as const;

export type CatalogStatus = (typeof CatalogStatus)[keyof typeof CatalogStatus];

/** One CSV of an export, stored gzip-compressed. */
export interface ArchivedFile {
  /** The CSV's name inside the upstream's zip. */
  name: string;
  /** Object key in the archive bucket. */
  key: string;
  /** Size of the stored (compressed) object. */
  bytes: number;
  /** Hex SHA-256 of the stored object. */
  sha256: string;
  /** CSV records, header excluded. */
  rows: number;
  /** 1-based position of the upstream link the file came from. */
  sourceLink: number;
  /**
   * Records of the spot's suppressed users (erased, kept out of later exports) left out before the
   * file was written; present when the spot had any suppressed user at archive time.
   */
  rowsSuppressed?: number;
  /** The same rows as a Parquet file of the `comment_rows` table; absent in archives made before it existed. */
  parquet?: ArchivedParquetFile;
}

/** The Parquet file of one archived CSV. */
export interface ArchivedParquetFile {
  /** Object key in the archive bucket. */
  key: string;
  bytes: number;
  /** Hex SHA-256 of the stored object. */
  sha256: string;
  /** Rows in the file: always the CSV's `rows`. */
  rows: number;
}

/** The archive state kept with the export record. */
export interface ExportArchive {
  status: ArchiveStatus;
  /**
   * The first files, as many as fit in INLINE_FILES_MAX_BYTES, so the record stays far below
   * DynamoDB's item limit however many files there are; the manifest lists every one. A record
   * written before manifests existed has every file here and no `manifestKey`.
   */
  files: ArchivedFile[];
  /** Every file, when ARCHIVED. */
  fileCount?: number;
  /** CSV records of every file, headers excluded. */
  rows?: number;
  /** Stored bytes of every file. */
  bytes?: number;
  /** Records of suppressed users left out of every file; present when the spot had any. */
  rowsSuppressed?: number;
  /**
   * Object key of the manifest: JSON `{"files": ArchivedFile[], "parquetSchema": …}` of every
   * file, in order (ArchiveManifest).
   */
  manifestKey?: string;
  archivedAt?: string;
  reason?: string;
  /** The export's partition in the catalog, once ARCHIVED with Parquet files; absent when no Parquet file was written. */
  catalog?: CatalogStatus;
  /** Why the catalog did not take the partition, while `catalog` is PENDING. */
  catalogReason?: string;
  /** The run that holds the archive while PENDING: only it may record the result. */
  runId?: string;
  /** When that run claimed it. */
  claimedAt?: string;
  /** A PENDING claim older than this belongs to a run that died; another run may take it over. */
  claimedUntil?: string;
}

/** Budget of the files kept in the record itself (the rest are only in the manifest). */
export const INLINE_FILES_MAX_BYTES = 64 * 1024;

/** How many files the archive holds (records from before manifests carry them all inline). */
export function archiveFileCount(archive: ExportArchive | undefined): number {
  return archive?.fileCount ?? archive?.files.length ?? 0;
}

/** Whether `files` holds every file, so the manifest need not be read. */
export function archiveFilesInline(archive: ExportArchive): boolean {
  return archive.files.length === archiveFileCount(archive);
}
