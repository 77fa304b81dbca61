import { type SimulatedComment, userIdOf, userNameOf } from './simulatedComments';
import {
  type CommentHistory,
  type CommentSelection,
  commentAsOf,
  type UpstreamComments,
} from './UpstreamComments';

/** Comments a listing answers with at most, and unless asked for fewer. */
export const MAX_LISTED_COMMENTS = 10_000;
export const DEFAULT_LISTED_COMMENTS = 1_000;

export interface CommentListingQuery extends CommentSelection {
  /** Only this user's comments. */
  userId?: string;
  limit: number;
}

/** A comment as written, what happens to it afterwards, and how it stands now (null: deleted or not written yet). */
export type CommentHistoryView = SimulatedComment & {
  changes: { change: string; at: string; before?: string; after?: string }[];
  current: SimulatedComment | null;
};

export interface CommentListing {
  comments: CommentHistoryView[];
  /** Whether the selection holds more comments than the limit. */
  truncated: boolean;
}

/** The comments of a selection with their histories, oldest first, for tests and demos to pick one that changes. */
export function listCommentHistories(
  comments: UpstreamComments,
  query: CommentListingQuery,
  nowMs: number,
): CommentListing {
  const listed: CommentHistoryView[] = [];
  for (const history of comments.histories(query)) {
    if (query.userId !== undefined && history.written.user_id !== query.userId) continue;
    if (listed.length === query.limit) return { comments: listed, truncated: true };
    listed.push(viewOf(history, nowMs));
  }
  return { comments: listed, truncated: false };
}

function viewOf(history: CommentHistory, nowMs: number): CommentHistoryView {
  return {
    ...history.written,
    changes: history.changes.map(({ change, atMs, before, after }) => ({
      change,
      at: new Date(atMs).toISOString(),
      ...(before !== undefined && { before }),
      ...(after !== undefined && { after }),
    })),
    current: commentAsOf(history, nowMs) ?? null,
  };
}

/** Each spot's authors: `user-1` … `user-<usersPerSpot>`, each with the one name it always writes under. */
export function listUsers(usersPerSpot: number): { userId: string; userName: string }[] {
  return Array.from({ length: usersPerSpot }, (_, index) => ({
    userId: userIdOf(index + 1),
    userName: userNameOf(index + 1),
  }));
}
