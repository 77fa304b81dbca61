import type { Readable } from 'node:stream';
import type { ExportArchive } from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import type { DownloadLinkPolicy } from '../openweb/downloadLinkPolicy';

export interface StoredObjectInfo {
  contentType: string;
}

/**
 * Where an archive run stores files (S3 in AWS, the in-process S3 stand-in locally). Writing
 * and reading are two ports: the archive function only writes, the files function only reads,
 * so neither bundles the other's code.
 */
export interface ArchiveWriter {
  /** Stores `body` under `key`, streamed (multipart for large bodies); writing a key again replaces it. */
  put(key: string, body: Readable, info: StoredObjectInfo): Promise<void>;
}

/** What `/files` reads from the archive. */
export interface ArchiveReader {
  /** The whole object's bytes (the manifest; never a data file). @throws ArchivedObjectMissingError */
  read(key: string): Promise<Uint8Array>;
  /** A URL that fetches the object with no credentials until `expiresInSeconds` have passed. */
  downloadUrl(key: string, expiresInSeconds: number): Promise<string>;
}

export interface ArchiveClaim {
  runId: string;
  /** ISO instant: a live claim of another run is one whose `claimedUntil` is after this. */
  now: string;
  claimedUntil: string;
  /** Also take an ARCHIVED or FAILED archive (an operator's re-run); otherwise those are left alone. */
  force?: boolean;
}

/** The archive state on the export records (the exports table in AWS and locally). */
export interface ArchiveRecords {
  /**
   * Marks the completed export's archive PENDING for this run. Re-entrant for the same run; takes
   * over a claim past its `claimedUntil`. @throws ArchiveClaimRefusedError with the current record
   */
  claim(spotId: string, exportId: string, claim: ArchiveClaim): Promise<ExportRecord>;
  /**
   * Records the outcome, only while this run still holds the claim, so two runs cannot leave a
   * mixed result. @throws ArchiveClaimRefusedError
   */
  finish(spotId: string, exportId: string, runId: string, archive: ExportArchive): Promise<ExportRecord>;
  /**
   * Ends a claim early, as if its lease had lapsed at `at`, while `runId` still holds it: its run is
   * known to be dead (the local runtime restarted). True when this call ended it.
   */
  lapseClaim(spotId: string, exportId: string, runId: string, at: string): Promise<boolean>;
  /** ARCHIVED exports whose partition the catalog has not taken yet (`archive.catalog` PENDING), oldest first. */
  findCatalogPending(limit: number): Promise<ExportRecord[]>;
  /**
   * Records that the catalog holds an ARCHIVED export's partition now. False when its catalog
   * was not PENDING (already recorded, or re-archived meanwhile).
   */
  recordCatalogRegistered(spotId: string, exportId: string): Promise<boolean>;
}

/** An archived export's record rewritten by an erasure (the exports table). */
export interface ArchiveRevisions {
  /**
   * Replaces an ARCHIVED export's archive state (its files rewritten without an erased user's rows);
   * refused unless the archive is ARCHIVED. @throws ArchiveClaimRefusedError
   */
  revise(spotId: string, exportId: string, archive: ExportArchive): Promise<ExportRecord>;
}

/** Where a finished archive is announced (the export bus), so consumers load the files without polling. */
export interface ArchiveEvents {
  publishArchived(record: ExportRecord): Promise<void>;
}

export interface ArchiveSettings {
  /** How long a run's claim lasts; longer than one archive task may run. */
  claimLeaseSeconds: number;
  /** Bound of one link's download. */
  downloadTimeoutMs: number;
  /** Which hosts a link may be downloaded from. */
  downloadPolicy: DownloadLinkPolicy;
  /** How long a `/files` download URL works. */
  urlExpirySeconds: number;
  /**
   * Whether each CSV is also written as a Parquet file of the `comment_rows` table, and the
   * table's partition registered; off, only the raw files and the manifest are written.
   */
  writeTable: boolean;
  /** Days after which the bucket's lifecycle rule deletes archived files; undefined: they are kept. */
  expireAfterDays?: number | undefined;
}

/**
 * The catalog's partitions of the comment rows table (Glue in AWS). A query engine that reads
 * partitions from the object keys (DuckDB, locally) needs none registered.
 */
export interface TablePartitions {
  /**
   * Makes the partition of one spot and day known to the catalog, so queries see its files.
   * Idempotent: a partition that exists already is success.
   */
  register(spotId: string, date: string): Promise<void>;
}

/**
 * What the repair asks the catalog (Glue in AWS) about the comment rows table: the partitions it
 * holds, and the missing ones to add.
 */
export interface PartitionCatalog {
  /** The days (`YYYY-MM-DD`) of `spotId` whose partition the catalog holds. @throws CatalogPartitionError */
  registeredDates(spotId: string): Promise<string[]>;
  /**
   * Registers the partitions of `spotId` for these days, described as the archive's own
   * registration describes them; one that exists already is success. Returns how many were new.
   * @throws CatalogPartitionError
   */
  registerDates(spotId: string, dates: readonly string[]): Promise<number>;
}

/** The comment rows table's partitions as the files are stored (the `spot=…/date=…/` key prefixes). */
export interface StoredPartitions {
  /** Every spot with a partition stored. */
  spots(): Promise<string[]>;
  /** The days (`YYYY-MM-DD`) of `spotId` with a partition stored. */
  dates(spotId: string): Promise<string[]>;
}

/** One stored version of an object (the bucket is versioned). */
export interface ObjectVersion {
  versionId: string;
  /** The current version; the others are noncurrent (kept by the bucket after an overwrite or delete). */
  isLatest: boolean;
}

/**
 * What an erasure does to the archive beyond writing: reads archived objects whole or streamed,
 * and removes versions of them for good (S3 ListObjectVersions and DeleteObject with a version id).
 */
export interface ArchiveObjects {
  /** The object's bytes as a stream. @throws ArchivedObjectMissingError */
  open(key: string): Promise<Readable>;
  /** The whole object (a manifest). @throws ArchivedObjectMissingError */
  read(key: string): Promise<Uint8Array>;
  /** Every version of exactly this key, delete markers included, current first. */
  versionsOf(key: string): Promise<ObjectVersion[]>;
  /** Deletes one version for good (no delete marker is left). */
  deleteVersion(key: string, versionId: string): Promise<void>;
}
