import type { ExportRecord } from '../record/ExportRecord';
import { isoDurationSeconds } from '../time/isoDurationSeconds';
import { type CoverageWindow, RestatementState, WindowState, type WindowVersion } from './CoverageLedger';

const MS_PER_SECOND = 1000;

/** How current a covered window's data is: every restatement age answered, or not yet. */
export const WindowCurrency = {
  /** Every restatement age of the window is answered by an archived version (or it has none). */
  SETTLED: 'settled',
  /** A restatement is due, waiting, running or was given up: the newest version may still change. */
  PROVISIONAL: 'provisional',
} as const;

export type WindowCurrency = (typeof WindowCurrency)[keyof typeof WindowCurrency];

/** The `age` of a backfill's re-export of covered hours (`"refresh": true`), on its restatement and version. */
export const REFRESH_AGE = 'refresh';

/** An age's length in ms (0 for a text that is not a fixed-length duration: checked where configured). */
export function ageMs(age: string): number {
  return (isoDurationSeconds(age) ?? 0) * MS_PER_SECOND;
}

/** The version an export's archive adds to its window: the data as read when the upstream started it. */
export function versionOf(record: ExportRecord): WindowVersion {
  return {
    exportId: record.exportId,
    exportedAt: record.startedAt ?? record.dequeuedAt ?? record.requestedAt,
    ...(record.origin?.restatement !== undefined && { age: record.origin.restatement.age }),
  };
}

/** Whether an archived version of the window was read when its `until` was at least `age` old. */
export function isAgeAnswered(window: CoverageWindow, age: string): boolean {
  const dueMs = Date.parse(window.until) + ageMs(age);
  return (window.versions ?? []).some((version) => Date.parse(version.exportedAt) >= dueMs);
}

/** The window's restatement ages not answered yet and not given up on, shortest first. */
export function pendingAges(window: CoverageWindow): string[] {
  return [...(window.restate ?? [])]
    .sort((a, b) => ageMs(a) - ageMs(b))
    .filter((age) => !isAgeAnswered(window, age) && !(window.givenUpAges ?? []).includes(age));
}

/**
 * The window's next restatement: the oldest age already due at `nowMs` (one export answers every
 * age due by then), else the first one to come, with when it is due. Undefined when none is left.
 */
export function nextRestatement(
  window: CoverageWindow,
  nowMs: number,
): { age: string; dueAtMs: number } | undefined {
  const untilMs = Date.parse(window.until);
  const pending = pendingAges(window);
  const due = pending.filter((age) => untilMs + ageMs(age) <= nowMs);
  const age = due.at(-1) ?? pending[0];
  return age === undefined ? undefined : { age, dueAtMs: untilMs + ageMs(age) };
}

/** Settled once every restatement age is answered by an archived version; provisional before, and after one was given up. */
export function currencyOf(window: CoverageWindow): WindowCurrency | undefined {
  if (window.state !== WindowState.COVERED) return undefined;
  const answered = (window.restate ?? []).every((age) => isAgeAnswered(window, age));
  return answered ? WindowCurrency.SETTLED : WindowCurrency.PROVISIONAL;
}

/** A covered window whose restatement is due but waits for the spot's budget of the day. */
export function isRestatementWaiting(window: CoverageWindow): boolean {
  return window.state === WindowState.COVERED && window.restatement?.state === RestatementState.WAITING;
}
