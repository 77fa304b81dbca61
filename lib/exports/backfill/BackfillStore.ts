import type { BackfillRecord, NewBackfillRecord } from './BackfillRecord';

/** The backfills' store: one item per backfill, single-item conditional writes. */
export interface BackfillStore {
  /** @throws BackfillAlreadyExistsError carrying the record found */
  create(record: NewBackfillRecord): Promise<BackfillRecord>;
  get(spotId: string, backfillId: string): Promise<BackfillRecord | undefined>;
  /** Every window is recorded: the reconciler need not finish it. Answers the record as it is now. @throws BackfillNotFoundError */
  markRecorded(spotId: string, backfillId: string): Promise<BackfillRecord>;
  /** ACTIVE → ABORTED (an ABORTED one is answered as it is). @throws BackfillNotFoundError */
  markAborted(spotId: string, backfillId: string, abortedAt: string): Promise<BackfillRecord>;
  /**
   * The spot's backfills, newest first, a page at a time; pass `nextToken` back for the next.
   * @throws InvalidPaginationTokenError
   */
  listForSpot(
    spotId: string,
    options: { limit: number; nextToken?: string },
  ): Promise<{ items: BackfillRecord[]; nextToken?: string }>;
  /** Backfills still recording that were created before `beforeIso`, oldest first; eventually consistent. */
  findRecording(beforeIso: string, limit: number): Promise<BackfillRecord[]>;
}
