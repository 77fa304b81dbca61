import { createHash } from 'node:crypto';

/** Where an erasure stands: RUNNING until every archived file of the spot is without the user. */
export const ErasureStatus = {
  RUNNING: 'RUNNING',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
} as const;

export type ErasureStatus = (typeof ErasureStatus)[keyof typeof ErasureStatus];

/** Where one rewritten file of an export stands. */
export const ErasedFileState = {
  /** The file without the user is stored; the manifest may or may not name it yet. */
  REWRITTEN: 'REWRITTEN',
  /** The manifest names the new file, and every version of the old one is deleted. */
  CLEANED: 'CLEANED',
} as const;

export type ErasedFileState = (typeof ErasedFileState)[keyof typeof ErasedFileState];

/** One archived file the erasure rewrote without the user's rows. Keys only: never a row. */
export interface ErasedFile {
  exportId: string;
  /** The CSV's name in the upstream's zip. */
  name: string;
  /** The file before: its object (and its Parquet file's), every version deleted once CLEANED. */
  previousKey: string;
  previousParquetKey?: string;
  /** The file without the user. */
  key: string;
  parquetKey?: string;
  rowsRemoved: number;
  /** Rows left in it (0: a header-only file). */
  rows: number;
  sha256: string;
  state: ErasedFileState;
}

/** The check at the end: every archived file of the spot read again, and the table asked. */
export interface ErasureVerification {
  checkedAt: string;
  /** What was checked, in words a reader can repeat (the files read, the query run). */
  checks: string[];
  filesChecked: number;
  /** Rows of the user found in the archived files: 0 for a COMPLETED erasure. */
  rowsFound: number;
  /** The table's answer to the query (`select count(*) … where user_id = …`), when a table was asked. */
  tableRowsFound?: number;
  /** Noncurrent versions of rewritten objects still in the bucket: 0 for a COMPLETED erasure. */
  versionsLeft: number;
}

/**
 * One erasure of a user from a spot's archive: the user id (the suppression list needs it) and
 * what was done, never the user's rows or names. Two requests for the same user are one erasure
 * (the id is derived from the spot and the user).
 */
export interface ErasureRecord {
  spotId: string;
  erasureId: string;
  userId: string;
  status: ErasureStatus;
  requestedAt: string;
  updatedAt: string;
  completedAt?: string;
  /** Why it FAILED. */
  reason?: string;
  /** Exports whose files were all read and, where needed, rewritten and cleaned, in the order done. */
  exportsDone: string[];
  /** Files read so far (each export's CSV files). */
  filesRead: number;
  files: ErasedFile[];
  verification?: ErasureVerification;
  /** The run that holds it and until when; another run may take it over after `leaseUntil`. */
  runId?: string;
  leaseUntil?: string;
  /** Optimistic lock: every write checks and increments it. */
  version: number;
}

export type NewErasureRecord = Omit<ErasureRecord, 'version'>;

/** A user id as the API takes it: the upstream's ids, printable, no commas or quotes. */
export const USER_ID_PATTERN = /^[A-Za-z0-9_.:@+-]{1,128}$/;

/**
 * The erasure id of a user on a spot: the same user gets the same id, so a second request is the
 * first erasure. Hashed, so the id in URLs, logs and events does not carry the user id.
 */
export function erasureIdOf(spotId: string, userId: string): string {
  const digest = createHash('sha256').update(`${spotId}\n${userId}`).digest('hex');
  return `er_${digest.slice(0, 24)}`;
}

/** An erasure id: `er_` and 24 hex digits (`erasureIdOf`). */
export const ERASURE_ID_PATTERN = /^er_[0-9a-f]{24}$/;

export function isValidErasureId(value: unknown): value is string {
  return typeof value === 'string' && ERASURE_ID_PATTERN.test(value);
}

/** Rows removed by the erasure, over every file. */
export function rowsRemovedBy(record: ErasureRecord): number {
  return record.files.reduce((sum, file) => sum + file.rowsRemoved, 0);
}

/** Default and largest page of a spot's erasures. */
export const ERASURE_LIST_DEFAULT_LIMIT = 25;
export const ERASURE_LIST_MAX_LIMIT = 100;
