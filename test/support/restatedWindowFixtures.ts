import { type CommentSpec, exportRows, type LakeExport } from './lakeFixtures';

/**
 * A spot's day exported three times, as a schedule with `restate: ["P1D", "P7D"]` would: once
 * right after the day, again a day later and again a week later, while the source moderates,
 * edits and deletes its comments meanwhile; and a morning exported once, then a later window that
 * overlaps it without containing it. What `comments` and `comment_changes` must make of it is
 * spelled out with each comment below.
 */
export const RESTATED_SPOT = 'sp_demo';
export const DAY = { from: '2026-11-10T00:00:00Z', until: '2026-11-11T00:00:00Z' };
export const FIRST = { exportId: 'ex_day_first', exportedAt: '2026-11-11T00:10:00Z' };
export const AFTER_A_DAY = { exportId: 'ex_day_p1d', exportedAt: '2026-11-12T00:10:00Z' };
export const AFTER_A_WEEK = { exportId: 'ex_day_p7d', exportedAt: '2026-11-18T00:10:00Z' };
export const MORNING = {
  from: '2026-11-12T00:00:00Z',
  until: '2026-11-12T12:00:00Z',
  exportId: 'ex_morning',
  exportedAt: '2026-11-12T12:05:00Z',
};
/** Overlaps the morning (06:00 to 18:00) without containing it, and ran later. */
export const OVERLAPPING = {
  from: '2026-11-12T06:00:00Z',
  until: '2026-11-12T18:00:00Z',
  exportId: 'ex_overlapping',
  exportedAt: '2026-11-13T00:05:00Z',
};

const comment = (id: string, status: string, hour: number, content?: string): CommentSpec => ({
  id,
  userId: `u_${id}`,
  status,
  writtenAt: `2026-11-10T${String(hour).padStart(2, '0')}:15:00Z`,
  postId: 'post-1',
  ...(content !== undefined && { content }),
});

/**
 * The day's comments in each export:
 * - c1: approved, then rejected a day later (and still so a week later);
 * - c2: approved, its text edited within the day;
 * - c3: pending, approved within the day, rejected within the week;
 * - c4: approved, then deleted at the source within the day (in neither restatement);
 * - c5: approved, then marked `deleted` by the source within the day (a status, the row still exported);
 * - c6: missing from the first restatement, back in the second (a source that lost it for a while).
 */
const FIRST_COMMENTS = [
  comment('c1', 'approved', 1),
  comment('c2', 'approved', 2, 'First text'),
  comment('c3', 'pending', 3),
  comment('c4', 'approved', 4),
  comment('c5', 'approved', 5),
  comment('c6', 'approved', 6),
];
const AFTER_A_DAY_COMMENTS = [
  comment('c1', 'rejected', 1),
  comment('c2', 'approved', 2, 'Edited text'),
  comment('c3', 'approved', 3),
  comment('c5', 'deleted', 5),
];
const AFTER_A_WEEK_COMMENTS = [
  comment('c1', 'rejected', 1),
  comment('c2', 'approved', 2, 'Edited text'),
  comment('c3', 'rejected', 3),
  comment('c5', 'deleted', 5),
  comment('c6', 'approved', 6),
];
/** m1 at 05:00 only in the morning's export (outside the overlapping window); m2 at 07:00 in both. */
const MORNING_COMMENTS: CommentSpec[] = [
  { id: 'm1', userId: 'u_m1', status: 'approved', writtenAt: '2026-11-12T05:00:00Z', postId: 'post-2' },
  { id: 'm2', userId: 'u_m2', status: 'approved', writtenAt: '2026-11-12T07:00:00Z', postId: 'post-2' },
];

function version(comments: CommentSpec[], window: { from: string; until: string }, run: typeof FIRST) {
  return {
    spotId: RESTATED_SPOT,
    date: window.from.slice(0, 10),
    exportId: run.exportId,
    files: [
      exportRows(comments, {
        spotId: RESTATED_SPOT,
        exportId: run.exportId,
        windowFrom: window.from,
        windowUntil: window.until,
        exportedAt: run.exportedAt,
      }),
    ],
  };
}

/** The five exports, in the order they ran. */
export function restatedWindowExports(): LakeExport[] {
  return [
    version(FIRST_COMMENTS, DAY, FIRST),
    version(AFTER_A_DAY_COMMENTS, DAY, AFTER_A_DAY),
    version(MORNING_COMMENTS, MORNING, MORNING),
    version(MORNING_COMMENTS.slice(1), OVERLAPPING, OVERLAPPING),
    version(AFTER_A_WEEK_COMMENTS, DAY, AFTER_A_WEEK),
  ];
}
