import { describe, expect, it } from 'vitest';
import { listCommentHistories, listUsers } from '../../../../local/openweb-simulator/commentHistoryView';
import { UpstreamComments } from '../../../../local/openweb-simulator/UpstreamComments';

const HOUR_MS = 60 * 60 * 1000;
const FROM = Date.parse('2026-11-25T00:00:00Z');
const DAY = { spotId: 'sp_demo', fromMs: FROM, untilMs: FROM + 24 * HOUR_MS };

const comments = new UpstreamComments({
  seed: 5,
  commentsPerHour: 30,
  usersPerSpot: 6,
  statusChangeShare: 0.5,
  editShare: 0.2,
  deleteShare: 0.2,
  maxChangeDelaySeconds: 3_600,
  timeScale: 1,
});

describe('commentHistoryView', () => {
  it('lists each comment as written with its changes and how it stands now, null once deleted', () => {
    // Act
    const listing = listCommentHistories(comments, { ...DAY, limit: 1_000 }, FROM + 48 * HOUR_MS);

    // Assess
    expect(listing.truncated).toBe(false);
    expect(listing.comments).toHaveLength(24 * 30);
    const deleted = listing.comments.filter((comment) =>
      comment.changes.some((change) => change.change === 'deleted'),
    );
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((comment) => comment.current === null)).toBe(true);
    const statusChanged = listing.comments.find(
      (comment) =>
        comment.current !== null && comment.changes.some((change) => change.change === 'message_status'),
    );
    const change = statusChanged?.changes.find((candidate) => candidate.change === 'message_status');
    expect(statusChanged?.message_status).toBe(change?.before);
    expect(statusChanged?.current?.message_status).toBe(change?.after);
    expect(Date.parse(change?.at ?? '')).toBeGreaterThan(Date.parse(statusChanged?.written_at ?? ''));
  });

  it("keeps to one user's comments when asked, and says when the limit cut the list", () => {
    // Act
    const user3 = listCommentHistories(comments, { ...DAY, userId: 'user-3', limit: 1_000 }, FROM);
    const cut = listCommentHistories(comments, { ...DAY, limit: 10 }, FROM);

    // Assess
    expect(user3.comments.length).toBeGreaterThan(0);
    expect(new Set(user3.comments.map((comment) => comment.user_id))).toEqual(new Set(['user-3']));
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.comments).toHaveLength(10);
  });

  it('names each spot’s users user-1 … user-n, each with its one name', () => {
    // Act
    const users = listUsers(3);

    // Assess
    expect(users).toEqual([
      { userId: 'user-1', userName: 'Ada 1' },
      { userId: 'user-2', userName: 'Grace 2' },
      { userId: 'user-3', userName: 'Linus 3' },
    ]);
  });
});
