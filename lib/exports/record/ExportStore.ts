import type { ExportChangeField, ExportChanges, ExportRecord, NewExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';

export interface GetExportOptions {
  /** Default true: a status read right after a write must see it. */
  consistentRead?: boolean;
}

export interface TransitionRequest {
  to: ExportStatus;
  /** Status(es) the caller expects the record to be in; omitted = any status from which `to` is legal. */
  from?: ExportStatus | readonly ExportStatus[];
  /** Version the caller read, for read-modify-write. */
  expectedVersion?: number;
  changes?: ExportChanges;
  /** Fields to delete, e.g. a create claim given back because nothing was sent. */
  remove?: readonly ExportChangeField[];
}

/**
 * A status write as the store carries it out: the statuses it may start from are spelled
 * out (the domain's `transitionExport` works them out and checks the move is legal).
 */
export interface ConditionalTransition extends Omit<TransitionRequest, 'from'> {
  from: readonly ExportStatus[];
}

export interface ListExportsOptions {
  limit: number;
  /** Opaque, from a previous page of the same listing. */
  nextToken?: string;
  status?: ExportStatus;
}

export interface ExportPage {
  items: ExportRecord[];
  /** Absent on the last page. */
  nextToken?: string;
}

/**
 * Durable state of exports (the records; the spot locks and idempotency keys beside them are
 * ports of their own, ./SpotLock.ts and ./IdempotencyRecord.ts). Every write of a record is a
 * conditional write; a refused write is a typed error carrying the current state. The store
 * decides nothing: which moves are legal and what a poll writes are the domain's
 * (`transitionExport`, `recordPoll`).
 */
export interface ExportStore {
  /** @throws ExportAlreadyExistsError */
  createExport(record: NewExportRecord): Promise<ExportRecord>;
  getExport(spotId: string, exportId: string, options?: GetExportOptions): Promise<ExportRecord | undefined>;
  /**
   * Writes `to` and the changes only while the record's status is one of `from` (and its
   * version `expectedVersion`, when given). Use the domain's `transitionExport`, which checks
   * the move is legal first.
   * @throws ExportNotFoundError; TransitionConflictError carrying the current record when refused
   */
  transition(spotId: string, exportId: string, request: ConditionalTransition): Promise<ExportRecord>;
  /**
   * Newest first; a spot's QUEUED exports in queue order (scheduled runs ahead of backfill
   * windows, first in first out). @throws InvalidPaginationTokenError
   */
  listExports(spotId: string, options: ListExportsOptions): Promise<ExportPage>;
  /** Active exports whose lastPolledAt (else when they took the spot) is before `beforeIso`, oldest first; eventually consistent. */
  findActiveNotPolledSince(beforeIso: string, limit: number): Promise<ExportRecord[]>;
  /** Queued exports of every spot, first queued first; eventually consistent. */
  findQueued(limit: number): Promise<ExportRecord[]>;
  /** Up to `limit` spots that have had an export (configured or not), in id order. */
  listSpots(limit: number): Promise<string[]>;
  /** COMPLETED exports whose archive is absent or PENDING under a claim that lapsed before `beforeIso`; eventually consistent. */
  findArchivePending(beforeIso: string, limit: number): Promise<ExportRecord[]>;
  /** A QUEUED export's place in its spot's queue, from 1. */
  queuePosition(record: ExportRecord): Promise<number>;
  /**
   * Puts COMPLETED exports written before archives were indexed (archive absent or PENDING) into
   * the index `findArchivePending` reads, a batch per call, resuming where the last call stopped;
   * answers how many it indexed (0 once every record was looked at).
   */
  indexLegacyArchives(): Promise<number>;
}
