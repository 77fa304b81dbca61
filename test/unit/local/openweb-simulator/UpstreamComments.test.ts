import { describe, expect, it } from 'vitest';
import {
  type CommentHistory,
  type CommentSelection,
  commentAsOf,
  MIN_CHANGE_DELAY_SECONDS,
  MS_PER_HOUR,
  UpstreamComments,
  type UpstreamCommentsOptions,
} from '../../../../local/openweb-simulator/UpstreamComments';

const DAY_MS = 24 * MS_PER_HOUR;
const HOUR = Date.parse('2026-11-25T10:00:00Z');
const DAY = Date.parse('2026-11-25T00:00:00Z');
const LONG_AFTER = DAY + 60 * DAY_MS;
const UNCHANGING = { statusChangeShare: 0, editShare: 0, deleteShare: 0 };

function upstream(options: Partial<UpstreamCommentsOptions> = {}): UpstreamComments {
  return new UpstreamComments({
    seed: 7,
    commentsPerHour: 250,
    usersPerSpot: 40,
    statusChangeShare: 0.2,
    editShare: 0.05,
    deleteShare: 0.05,
    maxChangeDelaySeconds: 2 * 24 * 60 * 60,
    timeScale: 1,
    ...options,
  });
}

function window(fromMs: number, untilMs: number, spotId = 'sp_demo'): CommentSelection {
  return { spotId, fromMs, untilMs };
}

function idsOf(comments: UpstreamComments, selection: CommentSelection): string[] {
  return [...comments.histories(selection)].map((history) => history.written.id);
}

function countAsOf(comments: UpstreamComments, selection: CommentSelection, asOfMs: number): number {
  return comments.hourCountsAsOf(selection, asOfMs).reduce((sum, hour) => sum + hour.count, 0);
}

function everyRow(comments: UpstreamComments, selection: CommentSelection, asOfMs: number) {
  return comments.commentsAsOf(selection, asOfMs, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
}

describe('UpstreamComments', () => {
  describe('which comments an hour holds', () => {
    it('gives the same comments for the same seed, spot and hour, and others for another seed, spot or hour', () => {
      // Prepare
      const hour = window(HOUR, HOUR + MS_PER_HOUR);

      // Act
      const first = [...upstream().histories(hour)];
      const again = [...upstream().histories(hour)];
      const otherSeed = idsOf(upstream({ seed: 8 }), hour);
      const otherSpot = idsOf(upstream(), window(HOUR, HOUR + MS_PER_HOUR, 'sp_other'));
      const nextHour = idsOf(upstream(), window(HOUR + MS_PER_HOUR, HOUR + 2 * MS_PER_HOUR));

      // Assess
      expect(again).toEqual(first);
      const ids = new Set(first.map((history) => history.written.id));
      expect(ids.size).toBe(first.length);
      for (const others of [otherSeed, otherSpot, nextHour]) {
        expect(others.filter((id) => ids.has(id))).toEqual([]);
      }
    });

    it('holds exactly commentsPerHour comments in each hour, written inside it, oldest first', () => {
      // Prepare
      const comments = upstream({ commentsPerHour: 250 });

      // Act
      const day = [...comments.histories(window(DAY, DAY + DAY_MS))];

      // Assess
      expect(day).toHaveLength(24 * 250);
      for (let hour = 0; hour < 24; hour += 1) {
        const hourStart = DAY + hour * MS_PER_HOUR;
        const inHour = day.filter(
          (history) => history.writtenAtMs >= hourStart && history.writtenAtMs < hourStart + MS_PER_HOUR,
        );
        expect(inHour).toHaveLength(250);
      }
      const writtenAt = day.map((history) => history.writtenAtMs);
      expect(writtenAt).toEqual([...writtenAt].sort((left, right) => left - right));
      for (const history of day) {
        expect(Date.parse(history.written.written_at)).toBe(history.writtenAtMs);
        expect(history.written.written_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }
    });

    it('gives a window that cuts hours the comments of those hours written within it, whichever window asks', () => {
      // Prepare
      const comments = upstream();
      const from = HOUR + 30 * 60_000;
      const until = from + MS_PER_HOUR;
      const wholeHours = [...comments.histories(window(HOUR, HOUR + 2 * MS_PER_HOUR))];

      // Act
      const cut = idsOf(comments, window(from, until));

      // Assess
      expect(cut).toEqual(
        wholeHours
          .filter((history) => history.writtenAtMs >= from && history.writtenAtMs < until)
          .map((history) => history.written.id),
      );
    });

    it('gives a short window its share of the hour, possibly none: a day cut into 33-second windows holds the day', () => {
      // Prepare
      const comments = upstream({ commentsPerHour: 250, ...UNCHANGING });
      const windowMs = 33_000;
      // 250 comments an hour are one every 14.4 s: a 33-second window holds 2.3 on average.
      const mostPerWindow = Math.ceil((250 * windowMs) / MS_PER_HOUR) + 1;

      // Act
      const counts: number[] = [];
      for (let from = DAY; from < DAY + DAY_MS; from += windowMs) {
        counts.push(countAsOf(comments, window(from, Math.min(from + windowMs, DAY + DAY_MS)), LONG_AFTER));
      }
      const sparse = upstream({ commentsPerHour: 10, ...UNCHANGING });
      const sparseCounts = Array.from({ length: 100 }, (_, index) =>
        countAsOf(sparse, window(DAY + index * windowMs, DAY + (index + 1) * windowMs), LONG_AFTER),
      );

      // Assess
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(24 * 250);
      expect(Math.max(...counts)).toBeLessThanOrEqual(mostPerWindow);
      expect(sparseCounts).toContain(0);
      expect(Math.max(...sparseCounts)).toBe(1);
    });

    it('draws authors from user-1 … user-<usersPerSpot>, each always under one name and in many hours', () => {
      // Prepare
      const comments = upstream({ usersPerSpot: 5 });

      // Act
      const day = [...comments.histories(window(DAY, DAY + DAY_MS))];

      // Assess
      const names = new Map(day.map((history) => [history.written.user_id, history.written.user_name]));
      expect([...names.keys()].sort()).toEqual(['user-1', 'user-2', 'user-3', 'user-4', 'user-5']);
      expect(names.get('user-1')).toBe('Ada 1');
      expect(
        new Set(day.map((history) => `${history.written.user_id}|${history.written.user_name}`)).size,
      ).toBe(5);
      const hoursOfUser1 = new Set(
        day
          .filter((history) => history.written.user_id === 'user-1')
          .map((history) => Math.floor(history.writtenAtMs / MS_PER_HOUR)),
      );
      expect(hoursOfUser1.size).toBe(24);
    });

    it("keeps a conversation's comments to its post, and gives none to a post the spot does not have", () => {
      // Prepare
      const comments = upstream();
      const day = window(DAY, DAY + DAY_MS);

      // Act
      const onPost3 = [...comments.histories({ ...day, postId: 'post-3' })];
      const elsewhere = [...comments.histories({ ...day, postId: 'article-7' })];

      // Assess
      expect(onPost3.length).toBeGreaterThan(0);
      expect(new Set(onPost3.map((history) => history.written.post_id))).toEqual(new Set(['post-3']));
      expect(onPost3.map((history) => history.written.id)).toEqual(
        [...comments.histories(day)]
          .filter((history) => history.written.post_id === 'post-3')
          .map((history) => history.written.id),
      );
      expect(elsewhere).toEqual([]);
    });

    it('keeps the same comments, as written, whatever the shares of changes and their delays', () => {
      // Prepare
      const hour = window(HOUR, HOUR + MS_PER_HOUR);

      // Act
      const calm = [...upstream(UNCHANGING).histories(hour)].map((history) => history.written);
      const busy = [
        ...upstream({ statusChangeShare: 1, editShare: 1, deleteShare: 1, timeScale: 0.01 }).histories(hour),
      ].map((history) => history.written);

      // Assess
      expect(busy).toEqual(calm);
    });
  });

  describe('how comments change', () => {
    it('changes about the configured share of comments, each kind on its own', () => {
      // Prepare
      const comments = upstream({ statusChangeShare: 0.2, editShare: 0.05, deleteShare: 0.1 });

      // Act
      const day = [...comments.histories(window(DAY, DAY + DAY_MS))];
      const share = (kind: string) =>
        day.filter((history) => history.changes.some((change) => change.change === kind)).length / day.length;

      // Assess
      expect(share('message_status')).toBeCloseTo(0.2, 1);
      expect(share('content')).toBeCloseTo(0.05, 1);
      expect(share('deleted')).toBeCloseTo(0.1, 1);
    });

    it('moves a status to another, edits to other text, and changes nothing after a deletion', () => {
      // Prepare
      const comments = upstream({ statusChangeShare: 1, editShare: 1, deleteShare: 0.5 });

      // Act
      const day = [...comments.histories(window(DAY, DAY + DAY_MS))];

      // Assess
      const moves = new Set<string>();
      for (const history of day) {
        for (const change of history.changes) {
          if (change.change === 'message_status') moves.add(`${change.before}→${change.after}`);
          if (change.change === 'content') {
            expect(change.before).toBe(history.written.content);
            expect(change.after).not.toBe(change.before);
            expect(change.after).toMatch(/ \(edited\)$/);
          }
        }
        const deletion = history.changes.findIndex((change) => change.change === 'deleted');
        if (deletion >= 0) expect(deletion).toBe(history.changes.length - 1);
        const at = history.changes.map((change) => change.atMs);
        expect(at).toEqual([...at].sort((left, right) => left - right));
      }
      expect([...moves].sort()).toEqual([
        'approved→rejected',
        'pending→approved',
        'pending→rejected',
        'rejected→approved',
      ]);
    });

    it('makes each change 60 s to maxChangeDelaySeconds after the comment is written, times the time scale', () => {
      // Prepare
      const maxChangeDelaySeconds = 6 * 60 * 60;
      const everyChange = { statusChangeShare: 1, editShare: 1, deleteShare: 0, maxChangeDelaySeconds };
      const hour = window(HOUR, HOUR + MS_PER_HOUR);
      const delaysOf = (histories: CommentHistory[]) =>
        histories.map((history) => history.changes.map((change) => change.atMs - history.writtenAtMs));

      // Act
      const realTime = delaysOf([...upstream(everyChange).histories(hour)]);
      const scaled = delaysOf([...upstream({ ...everyChange, timeScale: 0.01 }).histories(hour)]);

      // Assess
      const delays = realTime.flat();
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(MIN_CHANGE_DELAY_SECONDS * 1000);
      expect(Math.max(...delays)).toBeLessThanOrEqual(maxChangeDelaySeconds * 1000);
      // Spread over the logarithm: half come before the geometric mean of the shortest and longest.
      const middleMs = Math.sqrt(MIN_CHANGE_DELAY_SECONDS * maxChangeDelaySeconds) * 1000;
      expect(delays.filter((delay) => delay < middleMs).length / delays.length).toBeCloseTo(0.5, 1);
      scaled.forEach((comment, index) => {
        comment.forEach((delay, change) => {
          expect(Math.abs(delay - (realTime[index]?.[change] as number) * 0.01)).toBeLessThanOrEqual(1);
        });
      });
    });

    it('answers each comment as it stands at the given instant: as written, then changed, then gone', () => {
      // Prepare
      const comments = upstream({ statusChangeShare: 1, editShare: 1, deleteShare: 1 });
      const hour = window(HOUR, HOUR + MS_PER_HOUR);
      const history = [...comments.histories(hour)].find((candidate) => candidate.changes.length === 3);
      if (history === undefined) throw new Error('no comment with three changes');
      const [first, second, deletion] = history.changes as [
        (typeof history.changes)[number],
        (typeof history.changes)[number],
        (typeof history.changes)[number],
      ];
      const rowAt = (asOfMs: number) =>
        everyRow(comments, hour, asOfMs).find((comment) => comment.id === history.written.id);

      // Act
      const beforeWritten = rowAt(history.writtenAtMs - 1000);
      const asWritten = rowAt(first.atMs - 1);
      const afterFirst = rowAt(first.atMs);
      const afterSecond = rowAt(second.atMs);
      const afterDeletion = rowAt(deletion.atMs);

      // Assess
      expect(beforeWritten).toBeUndefined();
      expect(asWritten).toEqual(history.written);
      expect(afterFirst).toEqual({ ...history.written, [first.change]: first.after });
      expect(afterSecond).toEqual({
        ...history.written,
        [first.change]: first.after,
        [second.change]: second.after,
      });
      expect(afterDeletion).toBeUndefined();
      for (const instant of [first.atMs - 1, first.atMs, second.atMs, deletion.atMs]) {
        expect(rowAt(instant)).toEqual(commentAsOf(history, instant));
      }
    });

    it('counts per hour what the rows hold at each instant, so a later export of a window has fewer rows once comments are deleted', () => {
      // Prepare
      const comments = upstream({ deleteShare: 0.3 });
      const day = window(DAY, DAY + DAY_MS);
      const atTheEnd = DAY + DAY_MS;

      // Act
      const soon = countAsOf(comments, day, atTheEnd);
      const later = countAsOf(comments, day, LONG_AFTER);
      const rowsSoon = everyRow(comments, day, atTheEnd);
      const rowsLater = everyRow(comments, day, LONG_AFTER);

      // Assess
      expect(rowsSoon).toHaveLength(soon);
      expect(rowsLater).toHaveLength(later);
      const deleted = [...comments.histories(day)].filter((history) =>
        history.changes.some((change) => change.change === 'deleted'),
      );
      expect(later).toBe(24 * 250 - deleted.length);
      expect(soon).toBeGreaterThan(later);
      const laterIds = new Set(rowsLater.map((comment) => comment.id));
      expect(rowsSoon.filter((comment) => !laterIds.has(comment.id)).length).toBe(soon - later);
    });

    it('holds no comment written after the instant', () => {
      // Prepare
      const comments = upstream(UNCHANGING);
      const halfPast = HOUR + 30 * 60_000;

      // Act
      const rows = everyRow(comments, window(HOUR, HOUR + MS_PER_HOUR), halfPast);

      // Assess
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBe(countAsOf(comments, window(HOUR, HOUR + MS_PER_HOUR), halfPast));
      expect(rows.every((comment) => Date.parse(comment.written_at) <= halfPast)).toBe(true);
      expect(rows.length).toBe(countAsOf(comments, window(HOUR, halfPast + 1), LONG_AFTER));
    });
  });

  describe('pages', () => {
    it('serves any page of a selection as the same slice of its whole, skipping the hours before it', () => {
      // Prepare
      const comments = upstream();
      const day = window(DAY, DAY + DAY_MS);
      const asOf = DAY + DAY_MS + 10 * 60_000;
      const whole = everyRow(comments, day, asOf);

      // Act
      const pages = [0, 1, 2, 3, 4, 5, 6].map((page) =>
        comments.commentsAsOf(day, asOf, { offset: page * 1_000, limit: 1_000 }),
      );

      // Assess
      expect(pages.flat()).toEqual(whole);
      expect(pages.map((page) => page.length)).toEqual([
        1000,
        1000,
        1000,
        1000,
        1000,
        whole.length - 5000,
        0,
      ]);
    });
  });
});
