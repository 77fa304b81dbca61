import { createSeededRandom, randomHex, type SeededRandom } from './seededRandom';

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

export interface CommentGenerationOptions {
  seed: number;
  count: number;
  spotId: string;
  /** Every comment belongs to this post (a conversation export); otherwise posts come from a small pool. */
  postId?: string;
  /** Comments are written within [fromMs, untilMs). */
  fromMs: number;
  untilMs: number;
}

const USER_POOL_SIZE = 40;
const POST_POOL_SIZE = 12;
const USER_NAMES = ['Ada', 'Grace', 'Linus', 'Zoë', 'Émile', 'Søren', '李雷', 'Nadia', "O'Brien", 'Kofi'];
const MESSAGE_STATUSES = ['approved', 'approved', 'approved', 'approved', 'pending', 'rejected', 'deleted'];
// Contents exercise CSV quoting: every delimiter, quotes, line breaks, non-ASCII and empty text.
const CONTENTS = [
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

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function formatRfc3339Utc(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Comments for one export, oldest first; the same options always give the same comments. */
export function generateComments(options: CommentGenerationOptions): SimulatedComment[] {
  const random = createSeededRandom(options.seed);
  const spanMs = Math.max(options.untilMs - options.fromMs, 1);
  const stepMs = spanMs / Math.max(options.count, 1);
  const comments: SimulatedComment[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const userNumber = Math.floor(random() * USER_POOL_SIZE);
    const writtenAtMs = options.fromMs + Math.floor(index * stepMs + random() * stepMs);
    comments.push({
      id: `msg_${randomHex(random, 16)}`,
      user_id: `u_${userNumber.toString(16).padStart(6, '0')}`,
      user_name: `${pick(random, USER_NAMES)} ${userNumber}`,
      spot_id: options.spotId,
      post_id: options.postId ?? `post-${Math.floor(random() * POST_POOL_SIZE) + 1}`,
      message_status: pick(random, MESSAGE_STATUSES),
      content: pick(random, CONTENTS),
      rank: String(Math.floor(random() * 60) - 5),
      written_at: formatRfc3339Utc(Math.min(writtenAtMs, options.untilMs - 1)),
    });
  }
  return comments;
}
