import { createSeededRandom, deriveSeed } from './seededRandom';
import {
  COMMENT_CONTENTS,
  type MessageStatus,
  MessageStatuses,
  oneBased,
  POSTS_PER_SPOT,
  type SimulatedComment,
  WRITTEN_COMMENT_DRAWS,
  writtenComment,
} from './simulatedComments';

export const MS_PER_HOUR = 60 * 60 * 1000;
const SECONDS_PER_HOUR = 60 * 60;
const MS_PER_SECOND = 1000;
/** The soonest a comment changes after it is written, in simulated seconds. */
export const MIN_CHANGE_DELAY_SECONDS = 60;
/** A pending comment a moderator decides on is approved this often, otherwise rejected. */
const PENDING_APPROVED_SHARE = 0.7;
const EDITED_MARK = ' (edited)';

// Each comment takes this many draws from its hour's stream, whatever the options, so that
// changing a share or the delays never changes which comments exist or what they say.
const WRITTEN_AT = 0;
const WRITTEN = 1;
const STATUS_ROLL = WRITTEN + WRITTEN_COMMENT_DRAWS;
const STATUS_DELAY = STATUS_ROLL + 1;
const STATUS_TARGET = STATUS_ROLL + 2;
const EDIT_ROLL = STATUS_ROLL + 3;
const EDIT_DELAY = STATUS_ROLL + 4;
const EDIT_CONTENT = STATUS_ROLL + 5;
const DELETE_ROLL = STATUS_ROLL + 6;
const DELETE_DELAY = STATUS_ROLL + 7;
const DRAWS_PER_COMMENT = DELETE_DELAY + 1;
// Where the written comment's post and content are among its draws (simulatedComments.ts).
const POST_DRAW = WRITTEN + 3;
const CONTENT_DRAW = WRITTEN + 5;

/** How comments change after they are written: each share is drawn for each comment alone. */
export interface CommentChangeOptions {
  /** Share of comments whose `message_status` changes once (pending → approved or rejected, approved → rejected, rejected → approved). */
  statusChangeShare: number;
  /** Share of comments whose content is edited once. */
  editShare: number;
  /** Share of comments deleted: absent from every export created after. */
  deleteShare: number;
  /**
   * Each change comes MIN_CHANGE_DELAY_SECONDS to this many simulated seconds after the comment
   * is written, spread evenly over the logarithm (as many within the first hour as between hours
   * 1 and 60 when the longest is 2.5 days).
   */
  maxChangeDelaySeconds: number;
}

export interface UpstreamCommentsOptions extends CommentChangeOptions {
  seed: number;
  /** Every hour of every spot holds exactly this many comments, written at instants spread over it. */
  commentsPerHour: number;
  /** Comments are written by `user-1` … `user-<usersPerSpot>`. */
  usersPerSpot: number;
  /** Real ms per simulated ms: a change `d` simulated seconds after the comment comes `d × timeScale` real seconds after it. */
  timeScale: number;
}

/** Which comments: those of a spot written in [fromMs, untilMs), of one post when `postId` is given. */
export interface CommentSelection {
  spotId: string;
  fromMs: number;
  untilMs: number;
  postId?: string;
}

export const CommentChangeKinds = {
  messageStatus: 'message_status',
  content: 'content',
  deleted: 'deleted',
} as const;

export type CommentChangeKind = (typeof CommentChangeKinds)[keyof typeof CommentChangeKinds];

export interface CommentChange {
  change: CommentChangeKind;
  /** When the change happens upstream, epoch ms (on the simulator's clock, scaled delays included). */
  atMs: number;
  /** The field's value before and after; absent for a deletion. */
  before?: string;
  after?: string;
}

/** A comment as written and everything that happens to it afterwards, oldest change first. */
export interface CommentHistory {
  written: SimulatedComment;
  writtenAtMs: number;
  changes: CommentChange[];
}

/** How many comments of a selection an hour holds as of one instant (an hour with none is left out). */
export interface HourCount {
  hourStartMs: number;
  count: number;
}

/** The comment as an export created at `asOfMs` holds it, or undefined when it is not written yet or deleted. */
export function commentAsOf(history: CommentHistory, asOfMs: number): SimulatedComment | undefined {
  if (history.writtenAtMs > asOfMs) return undefined;
  const comment = { ...history.written };
  for (const change of history.changes) {
    if (change.atMs > asOfMs) break;
    if (change.change === CommentChangeKinds.deleted) return undefined;
    comment[change.change] = change.after as string;
  }
  return comment;
}

/**
 * The upstream's comments: a deterministic function of the seed, the spot and the hour, so an
 * hour exported twice holds the same comments, and a window holds its hours' comments written
 * within it (a 33-second window a share of its hour's). Each comment may change after it is
 * written; an export holds every comment as it stands when the export is created.
 */
export class UpstreamComments {
  readonly #seed: number;

  constructor(private readonly options: UpstreamCommentsOptions) {
    this.#seed = deriveSeed(options.seed, 'comments');
  }

  /** Every comment of the selection, as written and with its changes, oldest first. */
  *histories(selection: CommentSelection): Generator<CommentHistory> {
    const postNumber = postNumberOf(selection.postId);
    if (postNumber === null) return;
    for (const hourStartMs of hoursOf(selection)) {
      const draws = this.#drawHour(selection.spotId, hourStartMs);
      for (let index = 0; index < this.options.commentsPerHour; index += 1) {
        const base = index * DRAWS_PER_COMMENT;
        const writtenAtMs = this.#writtenAtMs(hourStartMs, index, draws[base + WRITTEN_AT] as number);
        if (!within(selection, writtenAtMs) || !onPost(draws, base, postNumber)) continue;
        yield this.#history(selection.spotId, draws, base, writtenAtMs);
      }
    }
  }

  /** The selection's comments that exist at `asOfMs`, counted per hour, without building them. */
  hourCountsAsOf(selection: CommentSelection, asOfMs: number): HourCount[] {
    const postNumber = postNumberOf(selection.postId);
    if (postNumber === null) return [];
    const counts: HourCount[] = [];
    for (const hourStartMs of hoursOf(selection)) {
      if (hourStartMs > asOfMs) break;
      const draws = this.#drawHour(selection.spotId, hourStartMs);
      let count = 0;
      for (let index = 0; index < this.options.commentsPerHour; index += 1) {
        const base = index * DRAWS_PER_COMMENT;
        const writtenAtMs = this.#writtenAtMs(hourStartMs, index, draws[base + WRITTEN_AT] as number);
        if (this.#exists(selection, draws, base, writtenAtMs, postNumber, asOfMs)) count += 1;
      }
      if (count > 0) counts.push({ hourStartMs, count });
    }
    return counts;
  }

  /**
   * The selection's comments as they stand at `asOfMs`, oldest first, from the `offset`-th on and
   * at most `limit`; hours before the offset are skipped by their counts, without drawing them.
   */
  commentsAsOf(
    selection: CommentSelection,
    asOfMs: number,
    page: { offset: number; limit: number },
    hourCounts: readonly HourCount[] = this.hourCountsAsOf(selection, asOfMs),
  ): SimulatedComment[] {
    const postNumber = postNumberOf(selection.postId);
    const comments: SimulatedComment[] = [];
    if (postNumber === null) return comments;
    let skip = page.offset;
    for (const { hourStartMs, count } of hourCounts) {
      if (comments.length >= page.limit) break;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const draws = this.#drawHour(selection.spotId, hourStartMs);
      for (let index = 0; index < this.options.commentsPerHour && comments.length < page.limit; index += 1) {
        const base = index * DRAWS_PER_COMMENT;
        const writtenAtMs = this.#writtenAtMs(hourStartMs, index, draws[base + WRITTEN_AT] as number);
        if (!this.#exists(selection, draws, base, writtenAtMs, postNumber, asOfMs)) continue;
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        comments.push(this.#existingAsOf(selection.spotId, draws, base, writtenAtMs, asOfMs));
      }
    }
    return comments;
  }

  /** One hour's draws: DRAWS_PER_COMMENT for each of its comments, from the hour's own stream. */
  #drawHour(spotId: string, hourStartMs: number): Float64Array {
    const random = createSeededRandom(deriveSeed(this.#seed, `${spotId}@${hourStartMs}`));
    const draws = new Float64Array(this.options.commentsPerHour * DRAWS_PER_COMMENT);
    for (let index = 0; index < draws.length; index += 1) draws[index] = random();
    return draws;
  }

  /** Whole seconds, the `index`-th of the hour's equal slices: comments come oldest first. */
  #writtenAtMs(hourStartMs: number, index: number, draw: number): number {
    const second = Math.floor(((index + draw) * SECONDS_PER_HOUR) / this.options.commentsPerHour);
    return hourStartMs + second * MS_PER_SECOND;
  }

  #exists(
    selection: CommentSelection,
    draws: Float64Array,
    base: number,
    writtenAtMs: number,
    postNumber: number | undefined,
    asOfMs: number,
  ): boolean {
    if (writtenAtMs > asOfMs || !within(selection, writtenAtMs) || !onPost(draws, base, postNumber)) {
      return false;
    }
    const deleted = (draws[base + DELETE_ROLL] as number) < this.options.deleteShare;
    return !deleted || writtenAtMs + this.#delayMs(draws[base + DELETE_DELAY] as number) > asOfMs;
  }

  #history(spotId: string, draws: Float64Array, base: number, writtenAtMs: number): CommentHistory {
    const written = this.#written(spotId, draws, base, writtenAtMs);
    const changes: CommentChange[] = [];
    const at = (delayDraw: number) => writtenAtMs + this.#delayMs(draws[base + delayDraw] as number);
    if ((draws[base + STATUS_ROLL] as number) < this.options.statusChangeShare) {
      const before = written.message_status as MessageStatus;
      const after = statusAfter(before, draws[base + STATUS_TARGET] as number);
      changes.push({ change: CommentChangeKinds.messageStatus, atMs: at(STATUS_DELAY), before, after });
    }
    if ((draws[base + EDIT_ROLL] as number) < this.options.editShare) {
      const after = editedContent(draws[base + CONTENT_DRAW] as number, draws[base + EDIT_CONTENT] as number);
      changes.push({
        change: CommentChangeKinds.content,
        atMs: at(EDIT_DELAY),
        before: written.content,
        after,
      });
    }
    if ((draws[base + DELETE_ROLL] as number) < this.options.deleteShare) {
      changes.push({ change: CommentChangeKinds.deleted, atMs: at(DELETE_DELAY) });
    }
    // A change coming after the deletion never happens: nobody moderates a deleted comment.
    changes.sort((left, right) => left.atMs - right.atMs);
    const deletion = changes.findIndex((change) => change.change === CommentChangeKinds.deleted);
    return { written, writtenAtMs, changes: deletion < 0 ? changes : changes.slice(0, deletion + 1) };
  }

  #written(spotId: string, draws: Float64Array, base: number, writtenAtMs: number): SimulatedComment {
    return writtenComment({
      draws,
      offset: base + WRITTEN,
      spotId,
      writtenAt: formatWrittenAt(writtenAtMs),
      usersPerSpot: this.options.usersPerSpot,
    });
  }

  /** The comment as it stands at `asOfMs`, given that it exists then (so any deletion comes later). */
  #existingAsOf(
    spotId: string,
    draws: Float64Array,
    base: number,
    writtenAtMs: number,
    asOfMs: number,
  ): SimulatedComment {
    const comment = this.#written(spotId, draws, base, writtenAtMs);
    if (
      (draws[base + STATUS_ROLL] as number) < this.options.statusChangeShare &&
      writtenAtMs + this.#delayMs(draws[base + STATUS_DELAY] as number) <= asOfMs
    ) {
      comment.message_status = statusAfter(
        comment.message_status as MessageStatus,
        draws[base + STATUS_TARGET] as number,
      );
    }
    if (
      (draws[base + EDIT_ROLL] as number) < this.options.editShare &&
      writtenAtMs + this.#delayMs(draws[base + EDIT_DELAY] as number) <= asOfMs
    ) {
      comment.content = editedContent(
        draws[base + CONTENT_DRAW] as number,
        draws[base + EDIT_CONTENT] as number,
      );
    }
    return comment;
  }

  /** Real ms on the simulator's clock: MIN_CHANGE_DELAY_SECONDS × (max / min)^draw simulated seconds, scaled. */
  #delayMs(draw: number): number {
    const ratio = this.options.maxChangeDelaySeconds / MIN_CHANGE_DELAY_SECONDS;
    const seconds = MIN_CHANGE_DELAY_SECONDS * ratio ** draw;
    return Math.round(seconds * MS_PER_SECOND * this.options.timeScale);
  }
}

/** `YYYY-MM-DDTHH:MM:SSZ`: the hour's prefix formatted once per hour, the rest by hand (millions of rows). */
let formattedHourMs = Number.NaN;
let formattedHourPrefix = '';
function formatWrittenAt(writtenAtMs: number): string {
  const hourStartMs = Math.floor(writtenAtMs / MS_PER_HOUR) * MS_PER_HOUR;
  if (hourStartMs !== formattedHourMs) {
    formattedHourMs = hourStartMs;
    formattedHourPrefix = new Date(hourStartMs).toISOString().slice(0, '2026-01-01T00:'.length);
  }
  const secondOfHour = Math.floor((writtenAtMs - hourStartMs) / MS_PER_SECOND);
  const minutes = Math.floor(secondOfHour / 60);
  const seconds = secondOfHour % 60;
  return `${formattedHourPrefix}${minutes < 10 ? '0' : ''}${minutes}:${seconds < 10 ? '0' : ''}${seconds}Z`;
}

/** The first instant of each hour the selection touches. */
function* hoursOf(selection: CommentSelection): Generator<number> {
  const first = Math.floor(selection.fromMs / MS_PER_HOUR) * MS_PER_HOUR;
  for (let hourStartMs = first; hourStartMs < selection.untilMs; hourStartMs += MS_PER_HOUR) {
    yield hourStartMs;
  }
}

function within(selection: CommentSelection, writtenAtMs: number): boolean {
  return writtenAtMs >= selection.fromMs && writtenAtMs < selection.untilMs;
}

/** undefined: any post; null: a post the spot does not have, which holds no comment. */
function postNumberOf(postId: string | undefined): number | undefined | null {
  if (postId === undefined) return undefined;
  const match = /^post-([1-9]\d*)$/.exec(postId);
  const number = match ? Number(match[1]) : Number.NaN;
  return number <= POSTS_PER_SPOT ? number : null;
}

function onPost(draws: Float64Array, base: number, postNumber: number | undefined): boolean {
  return (
    postNumber === undefined || oneBased(draws[base + POST_DRAW] as number, POSTS_PER_SPOT) === postNumber
  );
}

function statusAfter(before: MessageStatus, draw: number): MessageStatus {
  switch (before) {
    case MessageStatuses.pending:
      return draw < PENDING_APPROVED_SHARE ? MessageStatuses.approved : MessageStatuses.rejected;
    case MessageStatuses.approved:
      return MessageStatuses.rejected;
    case MessageStatuses.rejected:
      return MessageStatuses.approved;
  }
}

/** Another of the contents, marked as edited, so an edit always changes the text. */
function editedContent(writtenDraw: number, editDraw: number): string {
  const written = Math.floor(writtenDraw * COMMENT_CONTENTS.length);
  const other =
    (written + 1 + Math.floor(editDraw * (COMMENT_CONTENTS.length - 1))) % COMMENT_CONTENTS.length;
  return `${COMMENT_CONTENTS[other]}${EDITED_MARK}`;
}
