import type { ExportRecord, ExportRequest } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import type { LifecycleDependencies } from './ports';

const MS_PER_SECOND = 1000;
/** Recent completed exports of a spot that inform the first poll delay. */
export const EXPORT_HISTORY_SAMPLE_SIZE = 5;
/** Completed exports read to find EXPORT_HISTORY_SAMPLE_SIZE of the same kind and length. */
export const EXPORT_HISTORY_READ_SIZE = 20;
/**
 * Without a poll that saw an export still processing, only its end is known (it was found done at
 * its first poll): the next one starts looking this share earlier, so the window closes in on the
 * upstream's own time instead of repeating a late first poll.
 */
export const UNKNOWN_START_EARLY_SHARE = 0.1;
/** The expected end spans at most this long: polls come often only inside it. */
export const MAX_EXPECTED_END_SECONDS = 120;

/**
 * How long an export of this spot is expected to take, in seconds: the median of
 * its recent completed exports (start to completion), or the default when there is
 * no history. Polling first at the median finds about half the exports done at
 * the first poll; backoff handles the rest.
 */
export function expectedExportDurationSeconds(
  history: readonly ExportRecord[],
  defaultSeconds: number,
): number {
  const durations = history
    .map((record) => secondsBetween(record.startedAt, record.completedAt))
    .filter((seconds) => seconds !== undefined);
  const middle = median(durations);
  return middle === undefined ? defaultSeconds : Math.max(1, Math.round(middle));
}

/** The first poll waits as long as this spot's recent exports took (the default without history). */
export async function firstPollDelaySecondsFor(
  deps: Pick<LifecycleDependencies, 'store' | 'settings'>,
  spotId: string,
): Promise<number> {
  const history = await deps.store.listExports(spotId, {
    status: ExportStatus.COMPLETED,
    limit: EXPORT_HISTORY_SAMPLE_SIZE,
  });
  return expectedExportDurationSeconds(history.items, deps.settings.defaultFirstPollDelaySeconds);
}

/** Seconds after an export's start between which the upstream is expected to finish it. */
export interface ExpectedEndWindow {
  fromSeconds: number;
  untilSeconds: number;
  /** The median of the ends: where the first poll goes when nobody waits for the export. */
  typicalSeconds: number;
}

/**
 * When the upstream is expected to finish an export, learned from the spot's recent completed
 * exports of the same kind and length (else any): each one finished after the last poll that saw
 * it processing (`processingSeenAt`) and by the poll that saw it done (`completedAt`). The window
 * runs from the earliest of the first (the soonest any of them may have ended) to the latest of
 * the second, at most MAX_EXPECTED_END_SECONDS long: polls come often inside it and back off
 * after it. Learning from that bracket, rather than from when a poll happened to see the end,
 * keeps one late poll from making every following one late too. The median of the ends is where
 * an export nobody waits for is first polled. Undefined without history.
 */
export function expectedEndWindow(
  history: readonly ExportRecord[],
  request: ExportRequest,
): ExpectedEndWindow | undefined {
  const alike = history.filter((record) => sameKindAndLength(record.request, request));
  const sample = (alike.length > 0 ? alike : history).slice(0, EXPORT_HISTORY_SAMPLE_SIZE);
  const ends = sample.map((record) => secondsBetween(record.startedAt, record.completedAt));
  const known = ends.filter((seconds) => seconds !== undefined);
  if (known.length === 0) return undefined;
  const starts = sample
    .map((record, index) => {
      const seen = secondsBetween(record.startedAt, record.processingSeenAt);
      const end = ends[index];
      return seen !== undefined && end !== undefined && seen <= end ? seen : undefined;
    })
    .filter((seconds) => seconds !== undefined);
  const fromSeconds =
    starts.length > 0 ? Math.min(...starts) : Math.min(...known) * (1 - UNKNOWN_START_EARLY_SHARE);
  return {
    fromSeconds,
    untilSeconds: Math.min(Math.max(fromSeconds, ...known), fromSeconds + MAX_EXPECTED_END_SECONDS),
    typicalSeconds: Math.max(fromSeconds, median(known) as number),
  };
}

/** The expected end of an export starting now, from the spot's history; undefined without one. */
export async function expectedEndWindowFor(
  deps: Pick<LifecycleDependencies, 'store'>,
  record: ExportRecord,
): Promise<ExpectedEndWindow | undefined> {
  const history = await deps.store.listExports(record.spotId, {
    status: ExportStatus.COMPLETED,
    limit: EXPORT_HISTORY_READ_SIZE,
  });
  return expectedEndWindow(history.items, record.request);
}

function sameKindAndLength(a: ExportRequest, b: ExportRequest): boolean {
  if (a.kind !== 'dateRange' || b.kind !== 'dateRange') return a.kind === b.kind;
  return Date.parse(a.until) - Date.parse(a.from) === Date.parse(b.until) - Date.parse(b.from);
}

function secondsBetween(from: string | undefined, until: string | undefined): number | undefined {
  if (from === undefined || until === undefined) return undefined;
  const seconds = (Date.parse(until) - Date.parse(from)) / MS_PER_SECOND;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
