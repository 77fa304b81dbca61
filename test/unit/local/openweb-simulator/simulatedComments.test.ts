import { describe, expect, it } from 'vitest';
import {
  COMMENT_CONTENTS,
  generateComments,
  userIdOf,
  userNameOf,
} from '../../../../local/openweb-simulator/simulatedComments';

const FROM = Date.parse('2026-01-01T00:00:00Z');
const UNTIL = FROM + 24 * 60 * 60 * 1000;

describe('simulatedComments', () => {
  it('generates the same comments for the same options, spread over the range, oldest first', () => {
    // Act
    const first = generateComments({ seed: 4, count: 500, spotId: 'sp_bench', fromMs: FROM, untilMs: UNTIL });
    const again = generateComments({ seed: 4, count: 500, spotId: 'sp_bench', fromMs: FROM, untilMs: UNTIL });
    const other = generateComments({ seed: 5, count: 500, spotId: 'sp_bench', fromMs: FROM, untilMs: UNTIL });

    // Assess
    expect(again).toEqual(first);
    expect(other.map((comment) => comment.id)).not.toEqual(first.map((comment) => comment.id));
    const writtenAt = first.map((comment) => Date.parse(comment.written_at));
    expect(writtenAt).toEqual([...writtenAt].sort((left, right) => left - right));
    expect(Math.min(...writtenAt)).toBeGreaterThanOrEqual(FROM);
    expect(Math.max(...writtenAt)).toBeLessThan(UNTIL);
    expect(new Set(first.map((comment) => comment.content))).toEqual(new Set(COMMENT_CONTENTS));
    for (const comment of first) {
      const userNumber = Number(comment.user_id.slice('user-'.length));
      expect(comment.user_name).toBe(userNameOf(userNumber));
      expect(['approved', 'pending', 'rejected']).toContain(comment.message_status);
    }
  });

  it('puts every comment on the given post', () => {
    // Act
    const comments = generateComments({
      seed: 1,
      count: 20,
      spotId: 'sp',
      postId: 'article-7',
      fromMs: FROM,
      untilMs: UNTIL,
    });

    // Assess
    expect(new Set(comments.map((comment) => comment.post_id))).toEqual(new Set(['article-7']));
  });

  it('names users user-<n>, each with one name that exercises quoting and non-ASCII text', () => {
    // Act + Assess
    expect(userIdOf(7)).toBe('user-7');
    expect([1, 7, 9, 11].map(userNameOf)).toEqual(['Ada 1', '李雷 7', "O'Brien 9", 'Ada 11']);
  });
});
