import { createSeededRandom, type SeededRandom } from './seededRandom';

/** Columns of an upstream comments CSV, in file order. */
export const COMMENT_FIELDS = [
  'id',
  'user_id',
  'user_name',
  'spot_id',
  'post_id',
  'message_status',
  'content',
  'rank',
  'written_at',
] as const;

export type CommentField = (typeof COMMENT_FIELDS)[number];

export type SimulatedComment = Record<CommentField, string>;

/** The statuses a comment moves between; a deleted comment is not exported at all. */
export const MessageStatuses = {
  approved: 'approved',
  pending: 'pending',
  rejected: 'rejected',
} as const;

export type MessageStatus = (typeof MessageStatuses)[keyof typeof MessageStatuses];

/** Each spot's comments are written by `user-1` … `user-<n>`; this many unless configured. */
export const DEFAULT_USERS_PER_SPOT = 40;
/** Each spot's comments are on `post-1` … `post-12`. */
export const POSTS_PER_SPOT = 12;

const USER_NAMES = ['Ada', 'Grace', 'Linus', 'Zoë', 'Émile', 'Søren', '李雷', 'Nadia', "O'Brien", 'Kofi'];
// Most comments are published at once, some wait for a moderator, a few are refused by the filters.
const WRITTEN_STATUSES: readonly MessageStatus[] = [
  'approved',
  'approved',
  'approved',
  'approved',
  'approved',
  'approved',
  'approved',
  'pending',
  'pending',
  'rejected',
];
// Contents exercise CSV quoting: every delimiter, quotes, line breaks, non-ASCII and empty text.
export const COMMENT_CONTENTS = [
  'Great article, thanks for writing it.',
  "I disagree; the numbers don't add up.",
  'She said "never again" and meant it.',
  'Option A | option B | neither',
  'First line\nsecond line',
  'Windows line\r\nbreak',
  'Tabs\tinside\ttext',
  'Loved it 👍 — très bien',
  'Comma, semicolon; pipe | and "quotes" all at once',
  '   leading and trailing spaces   ',
  '',
  'Plain comment without anything special',
];
const MIN_RANK = -5;
const RANK_VALUES = 60;

export function userIdOf(userNumber: number): string {
  return `user-${userNumber}`;
}

/** A user keeps one name: `Ada 1`, `Grace 2`, … (the names exercise quoting and non-ASCII text). */
export function userNameOf(userNumber: number): string {
  return `${USER_NAMES[(userNumber - 1) % USER_NAMES.length]} ${userNumber}`;
}

export function postIdOf(postNumber: number): string {
  return `post-${postNumber}`;
}

/** A number in [1, count] from a draw in [0, 1). */
export function oneBased(draw: number, count: number): number {
  return Math.floor(draw * count) + 1;
}

export function formatRfc3339Utc(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The draws that make one comment as written, in this order: two for its id, then its author,
 * post, status, content and rank. Whoever draws comments from a stream takes exactly these seven.
 */
export const WRITTEN_COMMENT_DRAWS = 7;

export interface WrittenCommentDraws {
  /** WRITTEN_COMMENT_DRAWS numbers in [0, 1). */
  draws: ArrayLike<number>;
  /** Where this comment's draws start in `draws`. */
  offset: number;
  spotId: string;
  /** RFC 3339, whole seconds. */
  writtenAt: string;
  usersPerSpot: number;
  /** Every comment belongs to this post; otherwise its post is drawn. */
  postId?: string;
}

/** One comment as written, made from its draws. */
export function writtenComment(input: WrittenCommentDraws): SimulatedComment {
  const { draws, offset: at } = input;
  const userNumber = oneBased(draws[at + 2] as number, input.usersPerSpot);
  return {
    id: `msg_${hex8(draws[at] as number)}${hex8(draws[at + 1] as number)}`,
    user_id: userIdOf(userNumber),
    user_name: userNameOf(userNumber),
    spot_id: input.spotId,
    post_id: input.postId ?? postIdOf(oneBased(draws[at + 3] as number, POSTS_PER_SPOT)),
    message_status: pickFrom(WRITTEN_STATUSES, draws[at + 4] as number),
    content: pickFrom(COMMENT_CONTENTS, draws[at + 5] as number),
    rank: String(Math.floor((draws[at + 6] as number) * RANK_VALUES) + MIN_RANK),
    written_at: input.writtenAt,
  };
}

export function pickFrom<T>(items: readonly T[], draw: number): T {
  return items[Math.floor(draw * items.length)] as T;
}

function hex8(draw: number): string {
  return Math.floor(draw * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
}

export interface CommentGenerationOptions {
  seed: number;
  count: number;
  spotId: string;
  /** Every comment belongs to this post (a conversation export); otherwise posts come from the spot's. */
  postId?: string;
  /** Comments are written within [fromMs, untilMs). */
  fromMs: number;
  untilMs: number;
}

/**
 * `count` comments spread over a range, as written and never changed, oldest first; the same
 * options always give the same comments. For fixtures and benchmarks that need rows shaped like
 * the simulator's without its hours: the simulator itself serves UpstreamComments.
 */
export function generateComments(options: CommentGenerationOptions): SimulatedComment[] {
  const random = createSeededRandom(options.seed);
  const spanMs = Math.max(options.untilMs - options.fromMs, 1);
  const stepMs = spanMs / Math.max(options.count, 1);
  const draws = new Float64Array(WRITTEN_COMMENT_DRAWS);
  const comments: SimulatedComment[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const writtenAtMs = options.fromMs + Math.floor(index * stepMs + random() * stepMs);
    fillDraws(random, draws);
    comments.push(
      writtenComment({
        draws,
        offset: 0,
        spotId: options.spotId,
        writtenAt: formatRfc3339Utc(Math.min(writtenAtMs, options.untilMs - 1)),
        usersPerSpot: DEFAULT_USERS_PER_SPOT,
        ...(options.postId !== undefined && { postId: options.postId }),
      }),
    );
  }
  return comments;
}

function fillDraws(random: SeededRandom, draws: Float64Array): void {
  for (let index = 0; index < draws.length; index += 1) draws[index] = random();
}
