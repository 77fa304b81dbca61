import { afterEach, describe, expect, it } from 'vitest';
import {
  COMMENT_FIELDS,
  type CommentHistoryView,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  type SimulatedComment,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';
import { readCommentsArchive } from '../support/readCommentsArchive';

// Over loopback HTTP, as the client and the local runtime see it: what each export of a window
// holds, and the control surface's listing of the comments' histories that says why.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const SPOT = 'sp_demo';
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

type ListedComment = CommentHistoryView;

let simulator: OpenWebSimulator | undefined;

afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

/** A simulator on a clock the test moves; every export takes no simulated time. */
async function start(startMs: number, options: OpenWebSimulatorOptions = {}) {
  let nowMs = startMs;
  simulator = await startOpenWebSimulator({
    authRequestsPerSecond: 0,
    // Tokens outlive the days the tests move the clock by.
    tokenTtlSeconds: 30 * 24 * 60 * 60,
    now: () => nowMs,
    exportDurationMs: () => 0,
    ...options,
  });
  const sim = simulator;
  const response = await fetch(`${sim.authBaseUrl}/v1/publisher/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spot_id: SPOT, apikey: 'demo-api-key' }),
  });
  const { token } = (await response.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'x-spot-id': SPOT, 'content-type': 'application/json' };

  /** Exports [from, until) now and downloads every file: its rows as objects, in file order. */
  async function exportWindow(fromMs: number, untilMs: number): Promise<SimulatedComment[]> {
    const created = await fetch(`${sim.exportBaseUrl}/v4/export`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ from: iso(fromMs), until: iso(untilMs), max_records_in_file: 500 }),
    });
    expect(created.status).toBe(200);
    const { status_link: statusLink } = (await created.json()) as { status_link: string };
    const status = (await (await fetch(statusLink, { headers })).json()) as {
      status: string;
      links: string[];
    };
    expect(status.status).toBe('Done');
    const files = await Promise.all(
      status.links.map(async (link) =>
        readCommentsArchive(new Uint8Array(await (await fetch(link)).arrayBuffer())),
      ),
    );
    return files.flatMap((file) => {
      expect(file.header).toEqual([...COMMENT_FIELDS]);
      return file.rows.map(
        (row) =>
          Object.fromEntries(COMMENT_FIELDS.map((field, index) => [field, row[index]])) as SimulatedComment,
      );
    });
  }

  /** The control surface's listing of the window's comments, each with its changes and how it stands now. */
  async function listComments(fromMs: number, untilMs: number, query = ''): Promise<ListedComment[]> {
    const response = await fetch(
      `${sim.url}/__simulator/comments?spotId=${SPOT}&from=${iso(fromMs)}&until=${iso(untilMs)}&limit=10000${query}`,
    );
    expect(response.status).toBe(200);
    const listing = (await response.json()) as { comments: ListedComment[]; truncated: boolean };
    expect(listing.truncated).toBe(false);
    return listing.comments;
  }

  return {
    sim,
    exportWindow,
    listComments,
    advance: (ms: number) => {
      nowMs += ms;
    },
    now: () => nowMs,
  };
}

/** What an export created now holds, by the listing: every comment not deleted, as it stands now. */
function standingNow(listed: readonly ListedComment[]): SimulatedComment[] {
  return listed.flatMap((comment) => (comment.current === null ? [] : [comment.current]));
}

describe('the simulator keeps its comments and moderates them', () => {
  it('holds the same comments when an hour is exported twice, and commentsPerHour for each hour of a window', async () => {
    // Prepare: a day long past, settled (every change came within the two days after it).
    const day = Date.parse('2026-11-20T00:00:00Z');
    const upstream = await start(day + 10 * DAY_MS, { commentsPerHour: 30 });

    // Act
    const first = await upstream.exportWindow(day, day + DAY_MS);
    upstream.advance(HOUR_MS);
    const again = await upstream.exportWindow(day, day + DAY_MS);
    const oneHour = await upstream.exportWindow(day + 5 * HOUR_MS, day + 6 * HOUR_MS);
    const listed = await upstream.listComments(day, day + DAY_MS);

    // Assess
    expect(again).toEqual(first);
    expect(listed).toHaveLength(24 * 30);
    const deleted = listed.filter((comment) => comment.current === null);
    expect(first).toHaveLength(24 * 30 - deleted.length);
    expect(first).toEqual(standingNow(listed));
    const firstIds = new Set(first.map((comment) => comment.id));
    expect(oneHour.length).toBeGreaterThan(0);
    expect(oneHour.every((comment) => firstIds.has(comment.id))).toBe(true);
    for (const comment of oneHour) {
      const writtenAt = Date.parse(comment.written_at);
      expect(writtenAt).toBeGreaterThanOrEqual(day + 5 * HOUR_MS);
      expect(writtenAt).toBeLessThan(day + 6 * HOUR_MS);
    }
  });

  it("gives a 33-second window the comments written within it: its share of the hour's, possibly none", async () => {
    // Prepare
    const hour = Date.parse('2026-11-20T10:00:00Z');
    const upstream = await start(hour + 10 * DAY_MS, { commentsPerHour: 250, deleteShare: 0 });
    const windows = [0, 33, 66, 99, 132].map((second) => hour + second * 1000);

    // Act
    const counts: number[] = [];
    for (const from of windows) counts.push((await upstream.exportWindow(from, from + 33_000)).length);
    const sparse = await start(hour + 10 * DAY_MS, { commentsPerHour: 10, deleteShare: 0 });
    const sparseCounts: number[] = [];
    for (const from of windows) sparseCounts.push((await sparse.exportWindow(from, from + 33_000)).length);

    // Assess: 250 an hour is one every 14.4 s, 2.3 in 33 s; 10 an hour is one every 6 minutes.
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(
      (await upstream.listComments(hour, hour + 165_000)).length,
    );
    for (const count of counts) expect(count).toBeLessThanOrEqual(Math.ceil((250 * 33) / 3600) + 1);
    expect(sparseCounts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(1);
    expect(sparseCounts).toContain(0);
  });

  it('shows a later export of the same window each status change, edit and deletion that came in between', async () => {
    // Prepare: the window is exported as it ends, then again three days later.
    const until = Date.parse('2026-11-25T12:00:00Z');
    const from = until - 2 * HOUR_MS;
    const upstream = await start(until, {
      commentsPerHour: 120,
      statusChangeShare: 0.5,
      editShare: 0.3,
      deleteShare: 0.3,
      maxChangeDelaySeconds: 2 * 24 * 60 * 60,
    });

    // Act
    const atTheEnd = await upstream.exportWindow(from, until);
    const listedAtTheEnd = await upstream.listComments(from, until);
    upstream.advance(3 * DAY_MS);
    const threeDaysLater = await upstream.exportWindow(from, until);
    const listedLater = await upstream.listComments(from, until);

    // Assess: each export is the window's comments as they stood when it was created.
    expect(atTheEnd).toEqual(standingNow(listedAtTheEnd));
    expect(threeDaysLater).toEqual(standingNow(listedLater));
    const before = new Map(atTheEnd.map((comment) => [comment.id, comment]));
    const after = new Map(threeDaysLater.map((comment) => [comment.id, comment]));
    const statusChanged = [...after.values()].filter(
      (comment) => before.get(comment.id)?.message_status !== comment.message_status,
    );
    const edited = [...after.values()].filter(
      (comment) => before.get(comment.id)?.content !== comment.content,
    );
    const gone = [...before.keys()].filter((id) => !after.has(id));
    expect(statusChanged.length).toBeGreaterThan(0);
    expect(edited.length).toBeGreaterThan(0);
    expect(gone.length).toBeGreaterThan(0);
    expect(after.size).toBeLessThanOrEqual(before.size);
    // Every difference is a change the listing dates between the two exports.
    const changedBetween = (id: string, kind: string) =>
      listedLater
        .find((comment) => comment.id === id)
        ?.changes.some(
          (change) =>
            change.change === kind &&
            Date.parse(change.at) > until &&
            Date.parse(change.at) <= upstream.now(),
        );
    expect(statusChanged.every((comment) => changedBetween(comment.id, 'message_status'))).toBe(true);
    expect(edited.every((comment) => changedBetween(comment.id, 'content'))).toBe(true);
    expect(gone.every((id) => changedBetween(id, 'deleted'))).toBe(true);
  });

  it('scales the delays of the changes by the time scale, so a demo sees them within minutes', async () => {
    // Prepare: at 0.01 the longest delay, two simulated days, is 28.8 real minutes.
    const until = Date.parse('2026-11-25T12:00:00Z');
    const from = until - HOUR_MS;
    const upstream = await start(until, { timeScale: 0.01, statusChangeShare: 1, deleteShare: 0 });

    // Act
    const atTheEnd = await upstream.exportWindow(from, until);
    upstream.advance(30 * 60_000);
    const halfAnHourLater = await upstream.exportWindow(from, until);

    // Assess: every comment's status has moved half an hour later, those written last in between.
    const listed = await upstream.listComments(from, until);
    const asWritten = new Map(listed.map((comment) => [comment.id, comment.message_status]));
    expect(halfAnHourLater.map((comment) => comment.id)).toEqual(atTheEnd.map((comment) => comment.id));
    expect(halfAnHourLater.filter((comment) => asWritten.get(comment.id) === comment.message_status)).toEqual(
      [],
    );
    const movedInBetween = atTheEnd.filter((comment) => asWritten.get(comment.id) === comment.message_status);
    expect(movedInBetween.length).toBeGreaterThan(0);
    expect(movedInBetween.every((comment) => Date.parse(comment.written_at) >= until - 30 * 60_000)).toBe(
      true,
    );
  });

  it('has a small population of users per spot, each with comments in several exports', async () => {
    // Prepare
    const day = Date.parse('2026-11-20T00:00:00Z');
    const upstream = await start(day + 10 * DAY_MS, { usersPerSpot: 8 });

    // Act
    const users = (await (await fetch(`${upstream.sim.url}/__simulator/users`)).json()) as {
      users: { userId: string; userName: string }[];
    };
    const morning = await upstream.exportWindow(day, day + HOUR_MS);
    const evening = await upstream.exportWindow(day + 20 * HOUR_MS, day + 21 * HOUR_MS);
    const user3 = await upstream.listComments(day, day + DAY_MS, '&userId=user-3');

    // Assess
    expect(users.users.map((user) => user.userId)).toEqual(
      Array.from({ length: 8 }, (_, n) => `user-${n + 1}`),
    );
    const authors = new Set([...morning, ...evening].map((comment) => comment.user_id));
    expect([...authors].every((userId) => users.users.some((user) => user.userId === userId))).toBe(true);
    expect(morning.some((comment) => comment.user_id === 'user-3')).toBe(true);
    expect(evening.some((comment) => comment.user_id === 'user-3')).toBe(true);
    expect(user3.length).toBeGreaterThan(2);
    expect(new Set(user3.map((comment) => comment.user_name))).toEqual(
      new Set([users.users[2]?.userName as string]),
    );
  });

  it.each([
    ['no spot', 'from=2026-11-20T00:00:00Z&until=2026-11-21T00:00:00Z', /spotId is required/],
    ['no range', `spotId=${SPOT}`, /from and until must both be RFC 3339/],
    [
      'a range over 730 hours',
      `spotId=${SPOT}&from=2026-01-01T00:00:00Z&until=2026-03-01T00:00:00Z`,
      /730 hours/,
    ],
    [
      'a limit of 0',
      `spotId=${SPOT}&from=2026-11-20T00:00:00Z&until=2026-11-21T00:00:00Z&limit=0`,
      /limit must be/,
    ],
  ])('answers 400 to a comments listing with %s', async (_, query, message) => {
    // Prepare
    const upstream = await start(Date.parse('2026-11-28T00:00:00Z'));

    // Act
    const response = await fetch(`${upstream.sim.url}/__simulator/comments?${query}`);

    // Assess
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
  });
});
