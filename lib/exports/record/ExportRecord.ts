import type { UpstreamWaitKind } from '../../errors/ClassifiedError';
import type { ExportArchive } from './ExportArchive';
import type { ExportStatus } from './ExportStatus';

/** Optional CSV settings the upstream accepts with either kind of request. */
export interface ExportFileOptions {
  delimiter?: string;
  maxRecordsInFile?: number;
}

export interface DateRangeExportRequest extends ExportFileOptions {
  kind: 'dateRange';
  /** RFC 3339, `YYYY-MM-DDTHH:MM:SSZ`. */
  from: string;
  until: string;
}

export interface ConversationExportRequest extends ExportFileOptions {
  kind: 'conversation';
  /** `<spotId>_<postId>`. */
  conversationId: string;
}

export type ExportRequest = DateRangeExportRequest | ConversationExportRequest;

export type ExportSource = 'api' | 'schedule' | 'backfill';

/** Where a queued export waits: scheduled runs ahead of backfill windows, first in first out within each. */
export const QueuePriority = {
  /** API starts that chose to queue, and scheduled runs. */
  FIRST: 1,
  /**
   * Restatements (covered windows exported again at an age): behind what is due now, ahead of
   * history. Between the two others, so exports queued before it existed keep their places.
   */
  RESTATEMENT: 1.5,
  /** Backfill windows: history waits for what is due now. */
  BACKFILL: 2,
} as const;

export type QueuePriority = (typeof QueuePriority)[keyof typeof QueuePriority];

/** A queued export's place: its priority and when it joined the queue. */
export interface QueueEntry {
  priority: QueuePriority;
  enqueuedAt: string;
}

/** What an export covers beyond its request, for the coverage ledger: the schedule or backfill it belongs to. */
export interface ExportOrigin {
  /** The schedule whose run planned this export's window. */
  schedule?: string;
  /** The backfill this export is a window of. */
  backfillId?: string;
  /** A restatement: the window was covered, and is exported again at this age (`P1D`). */
  restatement?: { age: string };
}

/** The last transient reason the upstream create was put off. */
export interface UpstreamWait {
  kind: UpstreamWaitKind;
  at: string;
  message?: string;
}

/**
 * When the upstream is expected to finish an export, learned from the spot's recent exports:
 * its polls come often between these instants and back off outside them.
 */
export interface ExpectedEnd {
  from: string;
  until: string;
  /**
   * When most of them had ended (the median): where the first poll of an export nobody waits for
   * goes. Absent in records written before it was learned (`from` stands in).
   */
  typical?: string;
}

/** One export as we track it. Timestamps are ISO 8601 strings. */
export interface ExportRecord {
  spotId: string;
  /** Ours, from `newExportId`; the upstream's id is `upstreamExportId`. */
  exportId: string;
  upstreamExportId?: string;
  status: ExportStatus;
  /** The upstream's status string as received, for diagnosis. */
  upstreamStatus?: string;
  request: ExportRequest;
  links: string[];
  requestedAt: string;
  startedAt?: string;
  completedAt?: string;
  lastPolledAt?: string;
  /** While PROCESSING: when the upstream is expected to finish it (absent without history to learn from). */
  expectedEnd?: ExpectedEnd;
  /**
   * Once ended: the last time a poll still saw it processing. With `completedAt` it brackets when
   * the upstream finished, which is what the spot's next exports learn their expected end from.
   */
  processingSeenAt?: string;
  /**
   * A caller waits for it (`"urgent": true` on the start): its polls come close around its
   * expected end, as for an export with something queued behind it.
   */
  urgent?: boolean;
  /** Polls that were recorded; a poll that changed nothing and was not due for bookkeeping is not counted. */
  pollCount: number;
  source: ExportSource;
  /** The schedule or backfill this export is a window of. */
  origin?: ExportOrigin;
  /** While QUEUED (and kept after): its place in the spot's queue. */
  queue?: QueueEntry;
  /** When it left the queue and took the spot; its deadline counts from here. */
  dequeuedAt?: string;
  idempotencyKey?: string;
  workflowExecutionName?: string;
  failureReason?: string;
  /**
   * When the upstream create was (about to be) sent. Set before sending, so a record
   * still REQUESTED with this set may have an upstream export whose id we never
   * learned: it is recovered, never blindly re-created.
   */
  upstreamCreateAttemptedAt?: string;
  /**
   * The ids the upstream's list held, just before the create was sent, of entries that carry no
   * creation time: an id listed later that is neither among them nor owned by a record is one the
   * create made. Absent when the list could not be read (or held too many such entries): such an
   * entry then cannot be told apart, and the create is never sent again.
   */
  upstreamIdsBeforeCreate?: string[];
  /** Create attempts the workflow made (sent or put off); absent before the first. */
  createAttempts?: number;
  /** Why the last create attempt was put off, while the export waits for the upstream. */
  lastUpstreamWait?: UpstreamWait;
  /** Earliest time the next create attempt is expected, when the upstream said so. */
  nextCreateAttemptAt?: string;
  /** The archive of a COMPLETED export's files; absent until the archive step claims it. */
  archive?: ExportArchive;
  /** Incremented on every write; the guard of optimistic concurrency. */
  version: number;
}

/** What a new record needs; the store assigns the version. */
export type NewExportRecord = Omit<ExportRecord, 'version'>;

/** Fields a transition may change besides the status. Identity, request and history stay fixed. */
export type ExportChanges = Partial<
  Pick<
    ExportRecord,
    | 'upstreamExportId'
    | 'upstreamStatus'
    | 'links'
    | 'startedAt'
    | 'completedAt'
    | 'lastPolledAt'
    | 'pollCount'
    | 'workflowExecutionName'
    | 'failureReason'
    | 'upstreamCreateAttemptedAt'
    | 'upstreamIdsBeforeCreate'
    | 'createAttempts'
    | 'lastUpstreamWait'
    | 'nextCreateAttemptAt'
    | 'dequeuedAt'
    | 'expectedEnd'
    | 'processingSeenAt'
  >
>;

export const EXPORT_CHANGE_FIELDS = [
  'upstreamExportId',
  'upstreamStatus',
  'links',
  'startedAt',
  'completedAt',
  'lastPolledAt',
  'pollCount',
  'workflowExecutionName',
  'failureReason',
  'upstreamCreateAttemptedAt',
  'upstreamIdsBeforeCreate',
  'createAttempts',
  'lastUpstreamWait',
  'nextCreateAttemptAt',
  'dequeuedAt',
  'expectedEnd',
  'processingSeenAt',
] as const satisfies readonly (keyof ExportChanges)[];

export type ExportChangeField = (typeof EXPORT_CHANGE_FIELDS)[number];

/** The leading items whose JSON (plus a separator each) fits in `maxBytes`. */
export function itemsWithin<T>(items: readonly T[], maxBytes: number): T[] {
  let bytes = 0;
  const kept: T[] = [];
  for (const item of items) {
    bytes += Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (bytes > maxBytes) break;
    kept.push(item);
  }
  return kept;
}
