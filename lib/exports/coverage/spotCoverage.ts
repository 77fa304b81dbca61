import { InvalidPaginationTokenError } from '../record/errors';
import { wholeSecondInstant } from '../time/intervals';
import type { CoverageWindow } from './CoverageLedger';
import { coverageOfWindows } from './coverageOfWindows';
import { decodeCoveragePageToken, encodeCoveragePageToken } from './coveragePageToken';
import { CoverageTooDenseError } from './errors';
import type { CoverageDependencies } from './ports';
import type { SpotCoverage } from './spotCoverageSchema';

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 24 * 60 * 60 * MS_PER_SECOND;

/** Without `from`: the spot's earliest window in the last this many days before `until`. */
export const DEFAULT_COVERAGE_RANGE_DAYS = 30;
/** The longest range one request may ask about (a year, leap day included). */
export const MAX_COVERAGE_RANGE_DAYS = 366;
export const MAX_COVERAGE_RANGE_MS = MAX_COVERAGE_RANGE_DAYS * MS_PER_DAY;
/** Windows a page holds unless `limit` says otherwise. */
export const DEFAULT_COVERAGE_PAGE_WINDOWS = 500;
/** The most windows one page holds: a page's answer stays far below Lambda's 6 MB. */
export const MAX_COVERAGE_PAGE_WINDOWS = 1000;
/**
 * The most windows read for one page: a page must end after its start, so windows starting at or
 * before it are read on until one starts later (only many windows over one instant need more).
 */
const MAX_WINDOWS_READ_PER_PAGE = 10 * MAX_COVERAGE_PAGE_WINDOWS;

export interface SpotCoverageQuery {
  spotId: string;
  /** Epoch ms, whole seconds. Default: the spot's earliest window, no earlier than `until` − 30 days. */
  fromMs?: number;
  /** Epoch ms, whole seconds. Default: now. */
  untilMs?: number;
  /** Windows per page, 1 to 1000 (default 500). */
  limit?: number;
  /** A page's `nextToken`: the next page of the same range (`from`/`until`, when given, must be the token's). */
  nextToken?: string;
}

/**
 * A spot's coverage over a range: covered hours (merged), overlaps, gaps with their reasons,
 * windows in flight or retrying, the schedules' watermarks and a summary of the hours. Read only
 * (Query); a spot nothing was planned for has every hour not planned, like any spot.
 * A page holds up to `limit` windows, and ends where the first window it could not hold starts.
 * @throws InvalidPaginationTokenError, CoverageTooDenseError
 */
export async function spotCoverage(
  deps: Pick<CoverageDependencies, 'coverage' | 'now'>,
  query: SpotCoverageQuery,
): Promise<SpotCoverage> {
  const { spotId } = query;
  const limit = Math.min(
    Math.max(query.limit ?? DEFAULT_COVERAGE_PAGE_WINDOWS, 1),
    MAX_COVERAGE_PAGE_WINDOWS,
  );
  const position =
    query.nextToken === undefined
      ? undefined
      : decodeCoveragePageToken(query.nextToken, spotId, MAX_COVERAGE_RANGE_MS);
  if (
    position !== undefined &&
    ((query.fromMs !== undefined && query.fromMs !== position.rangeFromMs) ||
      (query.untilMs !== undefined && query.untilMs !== position.rangeUntilMs))
  )
    throw new InvalidPaginationTokenError();
  const untilMs = position?.rangeUntilMs ?? query.untilMs ?? wholeSecondsOf(deps.now());
  const fromFromEarliestWindow = position === undefined && query.fromMs === undefined;
  let rangeFromMs =
    position?.rangeFromMs ?? query.fromMs ?? untilMs - DEFAULT_COVERAGE_RANGE_DAYS * MS_PER_DAY;
  let cursorMs = position?.cursorMs ?? rangeFromMs;
  const readFrom = wholeSecondInstant(cursorMs);
  const readUntil = wholeSecondInstant(untilMs);

  const read: CoverageWindow[] = [];
  let ledgerToken: string | undefined;
  let pageUntilMs = untilMs;
  for (;;) {
    const ledgerPage = await deps.coverage.listWindows(spotId, {
      from: readFrom,
      until: readUntil,
      limit,
      ...(ledgerToken !== undefined && { nextToken: ledgerToken }),
    });
    if (fromFromEarliestWindow && read.length === 0 && ledgerPage.windows[0] !== undefined) {
      // Windows come by start: the first is the earliest that reaches into the default range.
      rangeFromMs = Math.max(rangeFromMs, Date.parse(ledgerPage.windows[0].from));
      cursorMs = rangeFromMs;
    }
    read.push(...ledgerPage.windows);
    if (ledgerPage.nextToken === undefined) break;
    const lastStartMs = Date.parse((read.at(-1) as CoverageWindow).from);
    if (lastStartMs > cursorMs) {
      // Every window that starts before the last one read is here: the page ends where it starts.
      pageUntilMs = lastStartMs;
      break;
    }
    if (read.length >= MAX_WINDOWS_READ_PER_PAGE)
      throw new CoverageTooDenseError(spotId, wholeSecondInstant(cursorMs), read.length);
    ledgerToken = ledgerPage.nextToken;
  }

  const windows = read.filter((window) => Date.parse(window.from) < pageUntilMs);
  const part = { fromMs: cursorMs, untilMs: pageUntilMs };
  const watermarks = await deps.coverage.listWatermarks(spotId);
  return {
    spotId,
    range: { from: wholeSecondInstant(rangeFromMs), until: readUntil },
    page: { from: wholeSecondInstant(cursorMs), until: wholeSecondInstant(pageUntilMs) },
    ...coverageOfWindows(windows, part, rangeFromMs, deps.now()),
    watermarks: watermarks
      .map((watermark) => ({
        schedule: watermark.schedule,
        until: watermark.until,
        updatedAt: watermark.updatedAt,
      }))
      .sort((a, b) => a.schedule.localeCompare(b.schedule)),
    ...(pageUntilMs < untilMs && {
      nextToken: encodeCoveragePageToken({
        spotId,
        rangeFromMs,
        rangeUntilMs: untilMs,
        cursorMs: pageUntilMs,
      }),
    }),
  };
}

function wholeSecondsOf(ms: number): number {
  return Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND;
}
