import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { COMMENT_CHANGES_VIEW_SQL } from '../../../lib/lake/commentChangesView';
import { COMMENTS_VIEW_SQL } from '../../../lib/lake/commentsView';
import { generateComments, type SimulatedComment } from '../../../local/openweb-simulator/simulatedComments';
import { exampleQuestions, sqlBlocks } from '../../support/exampleQuestions';
import { archiveLakeExports, type LakeExport, windowExport } from '../../support/lakeFixtures';
import { restatedWindowExports } from '../../support/restatedWindowFixtures';
import { trinoSyntaxErrors } from '../../support/trinoSyntax';
import { createTestIo } from '../../unit/cli/support/testIo';

const DEMO = 'sp_demo';
const OTHER = 'sp_other';
const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_DAY = Date.parse('2024-05-01T00:00:00Z');
const DAYS = 3;
const COMMENTS_PER_SPOT = 1_200;
const ARCHIVE_TIMEOUT_MS = 60_000;

/** The questions about one version of each comment, and those about how comments changed. */
const QUESTIONS_OF_ONE_VERSION = 3;

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** What the upstream holds: each spot's comments over three days, the same whichever window exports them. */
const upstream: Record<string, SimulatedComment[]> = Object.fromEntries(
  [DEMO, OTHER].map((spotId, index) => [
    spotId,
    generateComments({
      seed: 7 + index,
      count: COMMENTS_PER_SPOT,
      spotId,
      fromMs: FIRST_DAY,
      untilMs: FIRST_DAY + DAYS * DAY_MS,
    }),
  ]),
);

/** A daily schedule's exports: each comment archived once. */
function dailyExports(spotId: string): LakeExport[] {
  return Array.from({ length: DAYS }, (_, day) =>
    windowExport(upstream[spotId] ?? [], {
      spotId,
      exportId: `ex_${spotId}_day${day + 1}`,
      from: iso(FIRST_DAY + day * DAY_MS),
      until: iso(FIRST_DAY + (day + 1) * DAY_MS),
      exportedAt: iso(FIRST_DAY + (day + 1) * DAY_MS + 10 * 60_000),
      rowsPerFile: 150,
    }),
  );
}

/**
 * The same schedule, then a backfill whose 36-hour window overlaps two days (its partition is the
 * first day's afternoon's date), and the second day's window exported again later: many comments
 * archived two or three times.
 */
function overlappingExports(spotId: string): LakeExport[] {
  const comments = upstream[spotId] ?? [];
  return [
    ...dailyExports(spotId),
    windowExport(comments, {
      spotId,
      exportId: `ex_${spotId}_backfill`,
      from: iso(FIRST_DAY + DAY_MS / 2),
      until: iso(FIRST_DAY + 2 * DAY_MS),
      exportedAt: iso(FIRST_DAY + 5 * DAY_MS),
      rowsPerFile: 400,
    }),
    windowExport(comments, {
      spotId,
      exportId: `ex_${spotId}_rerun`,
      from: iso(FIRST_DAY + DAY_MS),
      until: iso(FIRST_DAY + 2 * DAY_MS),
      exportedAt: iso(FIRST_DAY + 6 * DAY_MS),
    }),
  ];
}

async function ask(dataDir: string, sql: string): Promise<unknown[]> {
  const io = createTestIo({ env: { LOCAL_DATA_DIR: dataDir } });
  const code = await runCli(['query', sql, '--format', 'json'], io);
  expect(code, io.stderrText()).toBe(ExitCode.SUCCESS);
  return JSON.parse(io.stdoutText()) as unknown[];
}

describe("the example questions of docs/archive.md, on the local runtime's archive", () => {
  let root: string;
  let once: string;
  let overlapping: string;
  let restated: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'example-questions-'));
    once = join(root, 'once');
    overlapping = join(root, 'overlapping');
    await archiveLakeExports(once, [...dailyExports(DEMO), ...dailyExports(OTHER)]);
    await archiveLakeExports(overlapping, [...overlappingExports(DEMO), ...dailyExports(OTHER)]);
    restated = join(root, 'restated');
    await archiveLakeExports(restated, restatedWindowExports(), 'archive');
  }, ARCHIVE_TIMEOUT_MS);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('are six, and the doc shows the very views the catalog and DuckDB run', () => {
    // Act
    const questions = exampleQuestions();

    // Assess
    expect(questions.map(({ title }) => title)).toEqual([
      'Comments per day for a spot',
      'The ten most active authors',
      'The share of comments per message status',
      'Comments rejected after first being approved, per day',
      'The share of comments whose status changed within 7 days',
      'Comments deleted at the source last week',
    ]);
    expect(sqlBlocks()).toContain(COMMENTS_VIEW_SQL);
    expect(sqlBlocks()).toContain(COMMENT_CHANGES_VIEW_SQL);
  });

  it.each(exampleQuestions().map((question) => [question.title, question.sql]))(
    "%s: is text Athena's dialect (Trino) parses",
    (_title, sql) => {
      // Act / Assess: DuckDB runs each one in the tests below.
      expect(trinoSyntaxErrors(sql)).toEqual([]);
    },
  );

  it("finds DuckDB's own syntax, which Athena would refuse", () => {
    // Act / Assess
    expect(trinoSyntaxErrors('SELECT written_at::DATE AS day FROM comments')).not.toEqual([]);
  });

  it('archive each comment more than once when windows overlap (the table), once in the view', async () => {
    // Act
    const [rowsOnce, rowsOverlapping, commentsOnce, commentsOverlapping] = await Promise.all([
      ask(once, 'SELECT count(*) AS n FROM comment_rows'),
      ask(overlapping, 'SELECT count(*) AS n FROM comment_rows'),
      ask(once, 'SELECT count(*) AS n FROM comments'),
      ask(overlapping, 'SELECT count(*) AS n FROM comments'),
    ]);

    // Assess
    expect(rowsOnce).toEqual([{ n: 2 * COMMENTS_PER_SPOT }]);
    expect((rowsOverlapping[0] as { n: number }).n).toBeGreaterThan(2 * COMMENTS_PER_SPOT + 500);
    expect(commentsOnce).toEqual([{ n: 2 * COMMENTS_PER_SPOT }]);
    expect(commentsOverlapping).toEqual(commentsOnce);
  });

  it.each(
    exampleQuestions()
      .slice(0, QUESTIONS_OF_ONE_VERSION)
      .map((question) => [question.title, question.sql]),
  )('%s: gives the same answer whether windows overlap or not', async (_title, sql) => {
    // Act
    const answerOnce = await ask(once, sql);
    const answerOverlapping = await ask(overlapping, sql);

    // Assess
    expect(answerOnce.length).toBeGreaterThan(0);
    expect(answerOverlapping).toEqual(answerOnce);
  });

  it('answer what the archived comments say', async () => {
    // Prepare: the expected answers, counted from the comments themselves.
    const [perDay, authors, statuses] = exampleQuestions();
    const demo = upstream[DEMO] ?? [];
    const all = [...demo, ...(upstream[OTHER] ?? [])];
    const countBy = (comments: SimulatedComment[], key: (comment: SimulatedComment) => string) =>
      comments.reduce(
        (counts, comment) => counts.set(key(comment), (counts.get(key(comment)) ?? 0) + 1),
        new Map<string, number>(),
      );
    const days = countBy(demo, (comment) => comment.written_at.slice(0, 10));
    const byAuthor = [...countBy(all, (comment) => comment.user_id)].sort(
      ([a, x], [b, y]) => y - x || (a < b ? -1 : 1),
    );
    const byStatus = countBy(all, (comment) => comment.message_status);

    // Act
    const perDayAnswer = await ask(overlapping, perDay?.sql ?? '');
    const authorsAnswer = (await ask(overlapping, authors?.sql ?? '')) as {
      user_id: string;
      comments: number;
    }[];
    const statusAnswer = (await ask(overlapping, statuses?.sql ?? '')) as {
      message_status: string;
      comments: number;
      share_percent: number;
    }[];

    // Assess
    expect(perDayAnswer).toEqual([...days].sort().map(([day, comments]) => ({ day, comments })));
    expect(authorsAnswer.map(({ user_id, comments }) => [user_id, comments])).toEqual(byAuthor.slice(0, 10));
    expect(statusAnswer.map(({ message_status, comments }) => [message_status, comments])).toEqual(
      [...byStatus].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)),
    );
    expect(statusAnswer.reduce((sum, { share_percent }) => sum + share_percent, 0)).toBeCloseTo(100, 1);
  });

  it('about changes: answer what three exports of a day saw of its moderation, edits and deletions', async () => {
    // Prepare: restatedWindowFixtures.ts — c1 approved → rejected and c5 approved → deleted (a
    // status) seen 2026-11-12, c3 pending → approved seen 2026-11-12 then → rejected 2026-11-18;
    // c4 and c6 gone from the export of 2026-11-12 (c6 back on 2026-11-18); 8 comments in all.
    const [rejected, share, deleted] = exampleQuestions().slice(QUESTIONS_OF_ONE_VERSION);

    // Act
    const rejectedAnswer = await ask(restated, rejected?.sql ?? '');
    const shareAnswer = await ask(restated, share?.sql ?? '');
    const deletedAnswer = await ask(restated, deleted?.sql ?? '');
    const unchanged = await ask(overlapping, rejected?.sql ?? '');

    // Assess
    expect(rejectedAnswer).toEqual([
      { day: '2026-11-12', comments: 1 },
      { day: '2026-11-18', comments: 1 },
    ]);
    // c1, c3 and c5 changed status within 7 days of being written.
    expect(shareAnswer).toEqual([{ comments: 8, status_changed_within_7_days: 3, share_percent: 37.5 }]);
    expect(deletedAnswer).toEqual([{ day: '2026-11-12', comments: 3 }]);
    expect(unchanged).toEqual([]);
  });
});
