import type { ExportRecord } from '../record/ExportRecord';
import type { ErasedFile, ErasureRecord, NewErasureRecord } from './ErasureRecord';
import type { ErasureWorkflowInput } from './erasureWorkflowContract';

export interface ErasurePage {
  items: ErasureRecord[];
  nextToken?: string;
}

/** The erasure records (the exports table). Every write is conditional on the version read. */
export interface ErasureStore {
  /** @throws ErasureAlreadyExistsError with the existing record */
  create(record: NewErasureRecord): Promise<ErasureRecord>;
  get(spotId: string, erasureId: string): Promise<ErasureRecord | undefined>;
  /** Writes `next` only while the stored version is `next.version`; returns it with the version after. @throws ErasureChangedError */
  save(next: ErasureRecord): Promise<ErasureRecord>;
  /** Newest first. */
  listForSpot(spotId: string, options: { limit: number; nextToken?: string }): Promise<ErasurePage>;
  /** RUNNING erasures whose lease lapsed before `beforeIso` (or that have none), any spot. */
  findRunning(beforeIso: string, limit: number): Promise<ErasureRecord[]>;
}

/** A spot's suppressed users: the archive leaves their rows out of every export it stores. */
export interface SuppressionList {
  /** Idempotent. */
  suppress(spotId: string, userId: string, erasureId: string, at: string): Promise<void>;
  suppressedUsers(spotId: string): Promise<string[]>;
}

/** What erasing a user from one archived export did. */
export interface ExportErasure {
  /** CSV files read. */
  filesRead: number;
  /** Files rewritten without the user (REWRITTEN until the manifest names them and the old versions are gone). */
  rewritten: ErasedFile[];
}

/** What one archived export's files say about a user: the check at the end. */
export interface ExportCheck {
  filesChecked: number;
  rowsFound: number;
  /** Noncurrent versions of the given keys still in the bucket. */
  versionsLeft: number;
}

/** The archive's side of an erasure (lib/archive implements it on the bucket). */
export interface ArchivedUserEraser {
  /**
   * Rewrites every file of the export holding the user's rows without them, names the new files in
   * the manifest and the record, then deletes every version of the old objects; `onRewritten` is
   * called with the rewritten files before the manifest names them (so a crash knows what to
   * clean). Idempotent: a second call finds nothing and cleans what a first left.
   */
  eraseFromExport(
    record: ExportRecord,
    userId: string,
    known: readonly ErasedFile[],
    onRewritten: (files: ErasedFile[]) => Promise<void>,
  ): Promise<ExportErasure>;
  /** Reads every file of the export again: rows of the user, and versions left of `erasedKeys`. */
  checkExport(record: ExportRecord, userId: string, erasedKeys: readonly string[]): Promise<ExportCheck>;
}

/** Asks the table (`comment_rows`) how many rows of a user a spot still has; Athena in AWS, DuckDB locally. */
export interface UserRowsQuery {
  /** The SQL it runs, for the record. */
  describe(spotId: string, userId: string): string;
  count(spotId: string, userId: string): Promise<number>;
}

/** Where an erasure's end is announced (`Erasure Completed` on the export bus). */
export interface ErasureEvents {
  publishErasureCompleted(record: ErasureRecord): Promise<void>;
}

/** The erasure workflow's executions: Step Functions in AWS, the same definition run locally. */
export interface ErasureWorkflows {
  /** Idempotent per execution name: starting a known one again is not an error. */
  start(executionName: string, input: ErasureWorkflowInput): Promise<void>;
}
